package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;

/**
 * Serves one verb on a resource (Go's {@code handlers} package has one file a verb). The request's
 * resource, scope and subresource are already checked. Implementations are immutable and
 * thread-safe.
 */
interface VerbHandler {
  /**
   * Serves the request.
   *
   * @param context the request, with who asks
   * @param info what its path names (without a namespace for cluster-scoped resources)
   * @param target the resource in the request's version
   * @return the response
   */
  ApiResponse handle(RequestContext context, RequestInfo info, Served target);
}
