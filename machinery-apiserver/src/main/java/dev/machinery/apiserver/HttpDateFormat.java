package dev.machinery.apiserver;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Prepares, on a thread of its own while a server is built, what the JDK's HTTP server reads when
 * it writes its first {@code Date} header: the English day and month names and the time zone names
 * of the JDK's locale data (its {@code EEE, dd MMM yyyy HH:mm:ss zzz} format, in GMT). In a fresh
 * JVM that costs the first response 20-30 ms on the thread that answers it. The data is cached by
 * the JDK for the whole JVM, so this is done once a JVM; nothing is lost if it has not finished
 * (the first response reads the data itself). Thread-safe.
 */
final class HttpDateFormat {
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private HttpDateFormat() {}

  /** Starts preparing the data on a daemon thread, the first time in a JVM. */
  static void prepareInBackground() {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    Thread thread = new Thread(HttpDateFormat::prepare, "machinery-apiserver-date-format");
    thread.setDaemon(true);
    thread.start();
  }

  private static void prepare() {
    DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss zzz", Locale.US)
        .withZone(ZoneId.of("GMT"))
        .format(Instant.now());
  }
}
