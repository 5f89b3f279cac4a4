package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.filters.Filter;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The handler at the end of the filters, as kube-apiserver's director: the routes that answer paths
 * of their own (the reviews, {@code /version}, health, discovery, OpenAPI) are asked in order, and
 * a request none of them answers goes to the {@link ResourceHandler} when its path names a
 * resource, else is {@code 404 NotFound}.
 *
 * <p>Immutable; thread-safe.
 */
public final class Router implements Filter.Handler {
  private final List<Route> routes;
  private final ResourceHandler resources;

  /**
   * Answers the requests of one path or a few, such as the access reviews.
   *
   * <p>Implementations are thread-safe.
   */
  @FunctionalInterface
  public interface Route {
    /**
     * Answers a request whose path is this route's.
     *
     * @param request the request
     * @return the response, or empty when the path is not this route's
     */
    Optional<ApiResponse> handle(RequestContext request);
  }

  /**
   * Creates the router.
   *
   * @param routes the routes, asked in order
   * @param resources the handler of resource requests
   */
  public Router(List<Route> routes, ResourceHandler resources) {
    this.routes = List.copyOf(routes);
    this.resources = Objects.requireNonNull(resources, "resources");
  }

  @Override
  public ApiResponse handle(RequestContext request) {
    for (Route route : routes) {
      Optional<ApiResponse> answered = route.handle(request);
      if (answered.isPresent()) {
        return answered.get();
      }
    }
    if (request.info().isEmpty()) {
      throw ResourceHandler.notFound();
    }
    return resources.handle(request, request.info().get());
  }
}
