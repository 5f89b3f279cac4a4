package dev.machinery.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Files, processes and a clock the tests share. */
final class Fixtures {
  private Fixtures() {}

  static Path write(Path file, String text) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  /** Runs a command in a directory and returns its standard output; fails the test otherwise. */
  static String run(Path dir, String... command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(List.of(command)).directory(dir.toFile());
    builder.redirectErrorStream(true);
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "timed out: " + List.of(command));
    assertEquals(0, process.exitValue(), String.join(" ", command) + "\n" + output);
    return output;
  }

  static boolean onPath(String executable) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, executable))) {
        return true;
      }
    }
    return false;
  }

  /** A clock that moves only when told. */
  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant start) {
      this.now = start;
    }

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
