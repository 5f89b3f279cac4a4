package dev.machinery.client.config;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where a client's credentials come from: the value of the {@code Authorization} header of each
 * request. A static bearer token or basic authentication answers the same value every time; a token
 * file is re-read periodically, as client-go re-reads it; an exec credential plugin runs when it
 * has no unexpired answer. Implementations must be thread-safe: a client asks from every thread
 * that sends a request.
 */
public interface CredentialSource {
  /**
   * Returns the {@code Authorization} header's value for the next request, such as {@code Bearer
   * abc}, or empty when requests carry none (anonymous, or a client certificate alone).
   *
   * @return the header's value
   * @throws KubeconfigException when the credentials cannot be obtained (an exec plugin failed)
   */
  Optional<String> authorization();

  /**
   * Says that the server refused the last credentials (an HTTP 401), so that the next {@link
   * #authorization()} obtains fresh ones: an exec plugin runs again, a token file is read again.
   * Static credentials ignore it. A transport sends a refused request once more when this answers
   * true.
   *
   * @return true when the next {@link #authorization()} may answer other credentials
   */
  boolean invalidate();

  /**
   * Returns a source that asks a supplier on every request and has nothing to refresh.
   *
   * @param supplier the header's value, or empty
   * @return the source
   */
  static CredentialSource of(Supplier<Optional<String>> supplier) {
    Objects.requireNonNull(supplier, "supplier");
    return new CredentialSource() {
      @Override
      public Optional<String> authorization() {
        return supplier.get();
      }

      @Override
      public boolean invalidate() {
        return false;
      }
    };
  }

  /**
   * Returns a source of no credentials.
   *
   * @return the source, answering empty
   */
  static CredentialSource none() {
    return StaticCredentials.NONE;
  }

  /**
   * Returns a source of one bearer token.
   *
   * @param token the token, not empty
   * @return the source, answering {@code Bearer <token>}
   * @throws KubeconfigException when the token is empty
   */
  static CredentialSource bearerToken(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isEmpty()) {
      throw new KubeconfigException("", "token", "the bearer token is empty");
    }
    return new StaticCredentials("Bearer " + token, "bearer token");
  }

  /**
   * Returns a source of basic authentication, as client-go sends a kubeconfig's {@code username}
   * and {@code password}.
   *
   * @param username the user name
   * @param password the password
   * @return the source, answering {@code Basic base64(username:password)}
   */
  static CredentialSource basicAuth(String username, String password) {
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
    String pair = username + ":" + password;
    return new StaticCredentials(
        "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)),
        "basic authentication");
  }
}
