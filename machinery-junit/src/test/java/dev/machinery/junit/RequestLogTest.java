package dev.machinery.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLogger;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * The test server's request log is never dropped: without an SLF4J provider (machinery-junit's own
 * tests have none) its lines go to standard error, and with one they go to SLF4J.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RequestLogTest {
  @Test
  void withoutAProviderTheLinesGoToTheStreamGiven() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    Consumer<String> sink = TestApiServer.requestLogSink(new NOPLoggerFactory(), stream);
    sink.accept("GET /api 200 282 bytes 2 ms");
    assertEquals(
        "[machinery-apiserver] GET /api 200 282 bytes 2 ms" + System.lineSeparator(),
        bytes.toString(StandardCharsets.UTF_8));
  }

  @Test
  void withAProviderTheLinesGoToSlf4jAndNotToTheStream() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    Consumer<String> sink = TestApiServer.requestLogSink(name -> NOPLogger.NOP_LOGGER, stream);
    sink.accept("GET /api 200 282 bytes 2 ms");
    assertEquals("", bytes.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aTestServersRequestLogGoesToStandardErrorWithoutAProvider() throws Exception {
    assertTrue(
        LoggerFactory.getILoggerFactory() instanceof NOPLoggerFactory,
        "machinery-junit's tests run without an SLF4J provider");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream err = System.err;
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try (TestApiServer server = TestApiServer.start(true)) {
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.url().getPort())) {
        OutputStream out = socket.getOutputStream();
        out.write(
            "GET /api/v1/namespaces/default HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(response.startsWith("HTTP/1.1 200"), response);
      }
      // The line is written once the response has ended, on the server's thread.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!bytes.toString(StandardCharsets.UTF_8).contains("namespaces/default")
          && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
    } finally {
      System.setErr(err);
    }
    String logged = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(
        logged.contains("[machinery-apiserver] GET /api/v1/namespaces/default 200 "), logged);
  }
}
