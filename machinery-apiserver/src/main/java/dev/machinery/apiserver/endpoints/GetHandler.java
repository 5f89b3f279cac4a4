package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;

/**
 * {@code get}: one object, or its {@code scale}, at the state its {@code resourceVersion} names, as
 * kube-apiserver reads it ({@link dev.machinery.apiserver.registry.ResourceStore#getShared(String,
 * String, String)}): none, the object now; {@code 0}, the watch cache's; {@code N}, a state not
 * older than {@code N}. Immutable; thread-safe.
 */
final class GetHandler implements VerbHandler {
  private final RequestScope scope;
  private final Scales scales;

  GetHandler(RequestScope scope, Scales scales) {
    this.scope = scope;
    this.scales = scales;
  }

  @Override
  public ApiResponse handle(RequestContext context, RequestInfo info, Served target) {
    ApiRequest request = context.request();
    // Read, never changed: answered as it is, or converted into a copy.
    Object stored =
        target
            .store()
            .getShared(info.namespace(), info.name(), request.parameter("resourceVersion"));
    if ("scale".equals(info.subresource())) {
      return scales.respond(target, stored, 200);
    }
    return scope.respondShared(request, target, stored);
  }
}
