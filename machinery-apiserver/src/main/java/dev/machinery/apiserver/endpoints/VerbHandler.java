package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;

/**
 * Serves one verb on a resource (Go's {@code handlers} package has one file a verb). The request's
 * resource, scope and subresource are already checked. Implementations are immutable and
 * thread-safe.
 */
interface VerbHandler {
  /**
   * Serves the request.
   *
   * @param request the request
   * @param info what its path names (without a namespace for cluster-scoped resources)
   * @param target the resource in the request's version
   * @return the response
   */
  ApiResponse handle(ApiRequest request, RequestInfo info, Served target);
}
