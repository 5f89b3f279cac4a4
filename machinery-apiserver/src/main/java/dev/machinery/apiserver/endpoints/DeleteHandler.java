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
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusDetails;

/**
 * {@code delete}: deletes one object under its options (preconditions, grace period, propagation),
 * or marks it deleted while finalizers or a grace period hold it; deleting a namespace marks it
 * {@code Terminating} and, when the server cleans up namespaces itself, deletes what is in it.
 * Immutable; thread-safe.
 */
final class DeleteHandler implements VerbHandler {
  private final RequestScope scope;
  private final Namespaces namespaces;

  DeleteHandler(RequestScope scope, Namespaces namespaces) {
    this.scope = scope;
    this.namespaces = namespaces;
  }

  @Override
  public ApiResponse handle(RequestContext context, RequestInfo info, Served target) {
    ApiRequest request = context.request();
    if (info.subresource() != null) {
      throw ApiErrors.newMethodNotSupported(target.store().groupResource(), request.method());
    }
    DeleteOptions options = RequestOptions.delete(scope, request);
    boolean dryRun = RequestOptions.dryRun(request, options);
    AdmissionNotes notes = new AdmissionNotes();
    ResourceStore.Deletion deletion;
    try {
      deletion =
          target
              .store()
              .delete(context.attributes(), notes, info.namespace(), info.name(), options, dryRun);
      if (!dryRun) {
        deletion = namespaces.deleted(target.store(), info.name(), deletion);
      }
    } finally {
      RequestScope.audit(context, notes);
    }
    // kube-apiserver answers 202 only when the object stays and orphanDependents=false was asked.
    boolean accepted = !deletion.gone() && Boolean.FALSE.equals(options.getOrphanDependents());
    if (deletion.gone() && !target.store().definition().returnsDeletedObject()) {
      return RequestScope.admitted(
          ApiResponse.of(200, "application/json", scope.json().encode(success(deletion, target))),
          context,
          notes);
    }
    return RequestScope.admitted(
        scope.respond(
            request,
            target,
            scope.toServed(deletion.object(), target),
            accepted ? 202 : 200,
            false),
        context,
        notes);
  }

  /** The Status of a delete that removed the object, naming it as kube-apiserver's store does. */
  private static Status success(ResourceStore.Deletion deletion, Served target) {
    MetaObject meta = Accessor.of(deletion.object());
    StatusDetails details = new StatusDetails();
    details.setName(meta.getName());
    String group = target.store().groupResource().group();
    details.setGroup(group == null || group.isEmpty() ? null : group);
    // kube-apiserver puts the resource in the kind field.
    details.setKind(target.store().groupResource().resource());
    details.setUid(meta.getUid());
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setMetadata(new ListMeta());
    status.setStatus("Success");
    status.setDetails(details);
    return status;
  }
}
