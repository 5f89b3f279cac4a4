package dev.machinery.apiserver.http;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Answers requests, whatever HTTP server carries them; a binding such as {@link JdkHttpBinding}
 * connects it to one. Implementations are safe to call from many threads at once and never throw:
 * every failure is a response.
 */
@FunctionalInterface
public interface ApiHandler {
  /**
   * Answers one request.
   *
   * @param request the request
   * @return the response
   */
  ApiResponse handle(ApiRequest request);

  /**
   * Whether {@link #handle} answers this request without waiting on anything: no I/O, no lock held
   * long, no streamed answer. A binding that reads connections on a few event loops may then run it
   * on the loop rather than hand it to a worker thread; it must still be prepared for a streamed
   * answer. Cheap to call: it looks at the method, path and query only.
   *
   * @param request the request, its body unread
   * @return false unless the handler knows; false by default
   */
  default boolean answersWithoutWaiting(ApiRequest request) {
    return false;
  }

  /**
   * Answers a request that would wait, where the handler can wait without holding a thread: what it
   * waits for (a check of a remote storage) completes the answer later, and the rest of the work
   * runs on the executors given. A binding that reads connections on a few event loops may call it
   * for a request with no body that {@link #answersWithoutWaiting} declined, before handing the
   * request to a worker thread; when it returns {@code null}, the binding calls {@link #handle} as
   * it would have. Cheap to call when it returns {@code null}: it looks at the method, path and
   * query only.
   *
   * @param request the request, with no body
   * @param loop runs work that never waits (the connection's event loop)
   * @param workers runs work that may wait
   * @return the answer to come (never completed exceptionally: every failure is a response), or
   *     {@code null} when the handler has no such way for this request; {@code null} by default
   */
  default CompletionStage<ApiResponse> handleAsync(
      ApiRequest request, Executor loop, Executor workers) {
    return null;
  }
}
