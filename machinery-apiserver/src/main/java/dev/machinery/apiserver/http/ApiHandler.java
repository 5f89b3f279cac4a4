package dev.machinery.apiserver.http;

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
}
