package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.DeleteOptions;

/**
 * {@code delete}: deletes one object under its preconditions, or marks it deleted while finalizers
 * hold it ({@code 202}); deleting a namespace deletes what is in it. Immutable; thread-safe.
 */
final class DeleteHandler implements VerbHandler {
  private final RequestScope scope;
  private final Namespaces namespaces;

  DeleteHandler(RequestScope scope, Namespaces namespaces) {
    this.scope = scope;
    this.namespaces = namespaces;
  }

  @Override
  public ApiResponse handle(ApiRequest request, RequestInfo info, Served target) {
    if (info.subresource() != null) {
      throw ApiErrors.newMethodNotSupported(target.store().groupResource(), request.method());
    }
    DeleteOptions options = RequestOptions.delete(scope, request);
    boolean dryRun = RequestOptions.dryRun(request, options);
    ResourceStore.Deletion deletion =
        target.store().delete(info.namespace(), info.name(), options.getPreconditions(), dryRun);
    if (deletion.gone() && !dryRun) {
      namespaces.deleted(target.store(), info.name());
    }
    return scope.respond(
        request,
        target,
        scope.toServed(deletion.object(), target),
        deletion.gone() ? 200 : 202,
        false);
  }
}
