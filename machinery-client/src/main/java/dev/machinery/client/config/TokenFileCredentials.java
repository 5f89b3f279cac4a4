package dev.machinery.client.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A bearer token read from a file and read again once its copy is older than client-go's period (a
 * minute, less ten seconds of leeway), so that a rotated service-account token is picked up. A read
 * that fails or finds an empty file keeps the last token, as client-go does. Thread-safe.
 */
final class TokenFileCredentials implements CredentialSource {
  /** client-go's period: half the time between the kubelet's refresh and the token's expiry. */
  static final Duration PERIOD = Duration.ofMinutes(1);

  /** client-go's leeway: a token this close to its period's end is read again. */
  static final Duration LEEWAY = Duration.ofSeconds(10);

  private final Path file;
  private final Clock clock;
  private String token;
  private Instant expiry;

  /**
   * Reads the token once.
   *
   * @param file the token file
   * @param initialToken a token to start with, or {@code null} to read the file now
   * @param clock the clock of the period
   * @throws KubeconfigException when there is no initial token and the file cannot be read or is
   *     empty
   */
  TokenFileCredentials(Path file, String initialToken, Clock clock) {
    this.file = file;
    this.clock = clock;
    if (initialToken != null && !initialToken.isEmpty()) {
      this.token = initialToken;
      this.expiry = Instant.EPOCH;
    } else {
      try {
        this.token = read();
      } catch (IOException e) {
        throw new KubeconfigException(
            file.toString(),
            "tokenFile",
            "unable to read the token file " + file + ": " + e.getMessage(),
            e);
      }
      this.expiry = clock.instant().plus(PERIOD);
    }
  }

  private String read() throws IOException {
    String value = Files.readString(file, StandardCharsets.UTF_8).strip();
    if (value.isEmpty()) {
      throw new IOException("read empty token from file \"" + file + "\"");
    }
    return value;
  }

  @Override
  public synchronized Optional<String> authorization() {
    Instant now = clock.instant();
    if (!expiry.minus(LEEWAY).isAfter(now)) {
      try {
        token = read();
        expiry = now.plus(PERIOD);
      } catch (IOException e) {
        // client-go keeps the token it has when the file cannot be read again.
      }
    }
    return Optional.of("Bearer " + token);
  }

  @Override
  public synchronized boolean invalidate() {
    expiry = Instant.EPOCH;
    return true;
  }

  @Override
  public String toString() {
    return "bearer token from " + file;
  }
}
