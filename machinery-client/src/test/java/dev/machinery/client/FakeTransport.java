package dev.machinery.client;

import dev.machinery.client.transport.Transport;
import dev.machinery.client.transport.TransportRequest;
import dev.machinery.client.transport.TransportResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** A transport that answers from a script and records the requests. Thread-safe. */
final class FakeTransport implements Transport {
  /** One scripted answer: a response, or a failure of the exchange. */
  interface Answer {
    TransportResponse answer(TransportRequest request) throws IOException;
  }

  final List<TransportRequest> requests = new CopyOnWriteArrayList<>();
  private final Deque<Answer> script = new ArrayDeque<>();

  synchronized FakeTransport then(Answer answer) {
    script.add(answer);
    return this;
  }

  FakeTransport then(int status, Map<String, List<String>> headers, String body) {
    return then(
        request ->
            new TransportResponse(
                status, headers, new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
  }

  FakeTransport thenJson(int status, String body) {
    return then(status, Map.of("Content-Type", List.of("application/json")), body);
  }

  @Override
  public TransportResponse send(TransportRequest request) throws IOException {
    requests.add(request);
    Answer next;
    synchronized (this) {
      next = script.poll();
    }
    if (next == null) {
      throw new AssertionError("no answer scripted for " + request.method() + " " + request.path());
    }
    return next.answer(request);
  }

  static String status(int code, String reason, String message) {
    return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
        + "\"message\":\""
        + message
        + "\",\"reason\":\""
        + reason
        + "\",\"code\":"
        + code
        + "}";
  }
}
