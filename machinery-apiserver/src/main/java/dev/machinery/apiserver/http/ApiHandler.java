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
}
