package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.AdmissionNotes;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.Scale;

/**
 * {@code update}: replaces the object (or only its status, or its replicas through {@code scale},
 * or a Namespace's {@code spec.finalizers} through {@code finalize}) under optimistic concurrency.
 * Immutable; thread-safe.
 */
final class UpdateHandler implements VerbHandler {
  private final RequestScope scope;
  private final Scales scales;

  UpdateHandler(RequestScope scope, Scales scales) {
    this.scope = scope;
    this.scales = scales;
  }

  @Override
  public ApiResponse handle(RequestContext context, RequestInfo info, Served target) {
    ApiRequest request = context.request();
    boolean dryRun = RequestOptions.dryRun(request);
    FieldValidation validation = RequestOptions.fieldValidation(request);
    if ("scale".equals(info.subresource())) {
      Scale scale =
          scope
              .codecFor(request)
              .withFieldValidation(validation)
              .decode(scope.body(request), Scale.class)
              .object();
      return scales.write(context, info, target, scale, dryRun);
    }
    RequestOptions.checkFieldManager(request, "UpdateOptions");
    Decoded<Object> decoded = scope.decodeObject(request, target, validation);
    MetaObject meta = Accessor.of(decoded.object());
    if (meta.getName() != null && !meta.getName().equals(info.name())) {
      throw ApiErrors.newBadRequest(
          "the name of the object ("
              + meta.getName()
              + ") does not match the name on the URL ("
              + info.name()
              + ")");
    }
    if (target.store().definition().namespaced()
        && meta.getNamespace() != null
        && !meta.getNamespace().isEmpty()
        && !meta.getNamespace().equals(info.namespace())) {
      throw ApiErrors.newBadRequest(
          "the namespace of the provided object does not match the namespace sent on the"
              + " request");
    }
    AdmissionNotes notes = new AdmissionNotes();
    Object updated;
    try {
      updated =
          target
              .store()
              .update(
                  context.attributes(),
                  notes,
                  info.namespace(),
                  info.name(),
                  old ->
                      scope.toStorage(
                          scope.trackUpdate(
                              request,
                              target,
                              info.subresource(),
                              scope.toServed(old, target),
                              decoded.object()),
                          target),
                  info.subresource(),
                  dryRun);
    } finally {
      RequestScope.audit(context, notes);
    }
    return RequestScope.admitted(
        RequestScope.withWarnings(
            scope.respond(request, target, scope.toServed(updated, target), 200, false),
            decoded.warnings()),
        context,
        notes);
  }
}
