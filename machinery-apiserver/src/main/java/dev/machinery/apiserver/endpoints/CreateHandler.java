package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.AdmissionNotes;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.core.codec.Decoded;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;

/**
 * {@code create}: decodes the body, puts it in the request's namespace (which must exist), and
 * stores it in the storage version. Immutable; thread-safe.
 */
final class CreateHandler implements VerbHandler {
  private final RequestScope scope;
  private final Namespaces namespaces;

  CreateHandler(RequestScope scope, Namespaces namespaces) {
    this.scope = scope;
    this.namespaces = namespaces;
  }

  @Override
  public ApiResponse handle(RequestContext context, RequestInfo info, Served target) {
    ApiRequest request = context.request();
    if (info.name() != null) {
      throw ApiErrors.newMethodNotSupported(target.store().groupResource(), request.method());
    }
    boolean dryRun = RequestOptions.dryRun(request);
    Decoded<Object> decoded =
        scope.decodeObject(request, target, RequestOptions.fieldValidation(request));
    RequestOptions.checkFieldManager(request, "CreateOptions");
    Object tracked = scope.trackUpdate(request, target, null, null, decoded.object());
    Object object = scope.toStorage(tracked, target);
    MetaObject meta = Accessor.of(object);
    if (target.store().definition().namespaced()) {
      if (meta.getNamespace() == null || meta.getNamespace().isEmpty()) {
        meta.setNamespace(info.namespace());
      } else if (!meta.getNamespace().equals(info.namespace())) {
        throw ApiErrors.newBadRequest(
            "the namespace of the provided object does not match the namespace sent on the"
                + " request");
      }
      namespaces.require(info.namespace());
    }
    AdmissionNotes notes = new AdmissionNotes();
    Object created;
    try {
      created = target.store().create(context.attributes(), notes, object, dryRun);
    } finally {
      RequestScope.audit(context, notes);
    }
    return RequestScope.admitted(
        RequestScope.withWarnings(
            scope.respond(request, target, scope.toServed(created, target), 201, false),
            decoded.warnings()),
        context,
        notes);
  }
}
