package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.ListOptions;
import java.util.List;

/**
 * {@code list}: the objects that match the selectors, a page at a time ({@code limit}, {@code
 * continue}), at the state {@code resourceVersion} and {@code resourceVersionMatch} name, as
 * kube-apiserver reads them ({@link dev.machinery.apiserver.registry.ResourceStore#list(String,
 * java.util.function.Predicate, dev.machinery.apiserver.registry.ResourceStore.FieldValue, int,
 * String, String, String)}). Immutable; thread-safe.
 */
final class ListHandler implements VerbHandler {
  private final RequestScope scope;

  ListHandler(RequestScope scope) {
    this.scope = scope;
  }

  @Override
  public ApiResponse handle(RequestContext context, RequestInfo info, Served target) {
    ApiRequest request = context.request();
    ListOptions options = RequestOptions.list(scope, request);
    ListOptionsValidation.check(options, false);
    ResourceStore.Page page =
        target
            .store()
            .list(
                info.namespace(),
                RequestOptions.filter(options, target.store()),
                RequestOptions.indexed(options, target.store()),
                RequestOptions.limit(options),
                options.getContinue(),
                options.getResourceVersion(),
                options.getResourceVersionMatch());
    ListMeta meta = new ListMeta();
    meta.setResourceVersion(Long.toString(page.revision()));
    meta.setContinue(page.continueToken());
    meta.setRemainingItemCount(page.remainingItemCount());
    return scope.respondList(request, target, meta, page.items());
  }

  /** A list of the resource's kind in the request's version, as its object model holds lists. */
  static Object list(Served target, ListMeta meta, List<Object> items) {
    return target.store().model().list(target.kind(), meta, items);
  }
}
