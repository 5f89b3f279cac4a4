package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.AdmissionNotes;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.MetaObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code deletecollection}: deletes every object that matches the selectors and answers with the
 * list of what was deleted (one already gone is skipped). Immutable; thread-safe.
 */
final class DeleteCollectionHandler implements VerbHandler {
  private final RequestScope scope;
  private final Namespaces namespaces;

  DeleteCollectionHandler(RequestScope scope, Namespaces namespaces) {
    this.scope = scope;
    this.namespaces = namespaces;
  }

  @Override
  public ApiResponse handle(RequestContext context, RequestInfo info, Served target) {
    ApiRequest request = context.request();
    DeleteOptions options = RequestOptions.delete(scope, request);
    boolean dryRun = RequestOptions.dryRun(request, options);
    Predicate<Object> filter =
        RequestOptions.filter(RequestOptions.list(scope, request), target.store());
    ResourceStore store = target.store();
    List<Object> items = new ArrayList<>();
    AdmissionNotes notes = new AdmissionNotes();
    for (Object object : store.list(info.namespace(), filter, 0, null, null).items()) {
      MetaObject meta = Accessor.of(object);
      try {
        ResourceStore.Deletion deletion =
            store.delete(
                context.attributes(), notes, meta.getNamespace(), meta.getName(), options, dryRun);
        if (!dryRun) {
          deletion = namespaces.deleted(store, meta.getName(), deletion);
        }
        items.add(scope.toServed(deletion.object(), target));
      } catch (RuntimeException e) {
        if (!ApiErrors.isNotFound(e)) {
          RequestScope.audit(context, notes);
          throw e;
        }
      }
    }
    ListMeta meta = new ListMeta();
    meta.setResourceVersion(Long.toString(store.currentRevision()));
    return RequestScope.admitted(
        scope.respond(request, target, ListHandler.list(target, meta, items), 200, true),
        context,
        notes);
  }
}
