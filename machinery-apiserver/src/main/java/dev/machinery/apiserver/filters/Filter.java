package dev.machinery.apiserver.filters;

import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import java.util.List;
import java.util.Objects;

/**
 * One step of the request path, as a handler wrapper of Go's {@code pkg/endpoints/filters} and
 * {@code pkg/server/filters}: it answers the request itself (a refusal) or hands it, with what it
 * learnt in a new {@link RequestContext}, to the next step. {@link #chain} composes steps in order
 * in front of a handler; a new step is a new class in the list.
 *
 * <p>Implementations are thread-safe: requests pass through them concurrently.
 */
@FunctionalInterface
public interface Filter {
  /**
   * Answers a request or hands it on.
   *
   * @param request the request as the steps before this one left it
   * @param next the rest of the chain
   * @return the response
   */
  ApiResponse filter(RequestContext request, Handler next);

  /**
   * What a filter hands a request on to: the next filter, or the handler at the end.
   *
   * <p>Implementations are thread-safe.
   */
  @FunctionalInterface
  interface Handler {
    /**
     * Answers a request.
     *
     * @param request the request
     * @return the response
     */
    ApiResponse handle(RequestContext request);
  }

  /**
   * Puts filters in front of a handler: a request passes through the first filter first.
   *
   * @param filters the filters, outermost first
   * @param handler the handler at the end of the chain
   * @return the chain's entry
   */
  static Handler chain(List<Filter> filters, Handler handler) {
    Objects.requireNonNull(handler, "handler");
    Handler next = handler;
    for (int i = filters.size() - 1; i >= 0; i--) {
      Filter filter = Objects.requireNonNull(filters.get(i), "filter");
      Handler after = next;
      next = request -> filter.filter(request, after);
    }
    return next;
  }
}
