package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import java.util.List;

/**
 * {@code get}: one object, or its {@code scale}. Without a {@code resourceVersion} (or with one
 * other than {@code 0}) the read is consistent: the object as the storage holds it now. With {@code
 * resourceVersion=0} it is read as kube-apiserver reads it then, from the watch cache at whatever
 * revision it holds ({@link dev.machinery.apiserver.registry.ResourceStore#getSharedAnyVersion}),
 * with no request to the storage. Immutable; thread-safe.
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
        request.query().getOrDefault("resourceVersion", List.of()).equals(List.of("0"))
            ? target.store().getSharedAnyVersion(info.namespace(), info.name())
            : target.store().getShared(info.namespace(), info.name());
    if ("scale".equals(info.subresource())) {
      return scales.respond(target, stored, 200);
    }
    return scope.respondShared(request, target, stored);
  }
}
