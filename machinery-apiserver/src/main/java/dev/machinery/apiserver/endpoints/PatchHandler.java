package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.AdmissionNotes;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.FieldProblem;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.patch.PatchType;
import dev.machinery.core.patch.Patches;
import dev.machinery.core.patch.StrategicMergeSchema;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Scale;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code patch}: a JSON patch, JSON merge patch or strategic merge patch applied to the object in
 * the request's version (or to its status, or its Scale), defaulted, and stored under optimistic
 * concurrency. A strategic merge patch reads its strategies from the resource's declared schema
 * ({@code ResourceDefinition.strategicMergePatchSchema}) or else the object's class; an {@code
 * Unstructured} object without a declared schema refuses one with 415. Immutable; thread-safe.
 */
final class PatchHandler implements VerbHandler {
  private final RequestScope scope;
  private final Scales scales;
  private final ApplyPatcher applier;

  PatchHandler(RequestScope scope, Scales scales, Namespaces namespaces) {
    this.scope = scope;
    this.scales = scales;
    this.applier = new ApplyPatcher(scope, namespaces, scales);
  }

  @Override
  public ApiResponse handle(RequestContext context, RequestInfo info, Served target) {
    ApiRequest request = context.request();
    boolean dryRun = RequestOptions.dryRun(request);
    FieldValidation validation = RequestOptions.fieldValidation(request);
    String contentType = request.header("Content-Type");
    PatchType type =
        contentType == null ? null : PatchType.fromContentType(contentType).orElse(null);
    if (type == null) {
      throw ApiErrors.newUnsupportedMediaType(
          "the body of the request was in an unknown format - accepted media types include:"
              + " application/json-patch+json, application/merge-patch+json,"
              + " application/apply-patch+yaml, application/strategic-merge-patch+json");
    }
    if (type == PatchType.APPLY_PATCH) {
      return applier.apply(context, info, target, dryRun);
    }
    // A resource held without classes takes a strategic merge patch only when it says how its
    // fields merge (an OpenAPI-described built-in kind); custom resources do not, as in Kubernetes.
    Optional<StrategicMergeSchema> declared =
        target
            .store()
            .definition()
            .strategicMergePatchSchema(target.kind().apiVersion())
            .or(() -> target.store().model().strategicMergeSchema(target.type()));
    if (type == PatchType.STRATEGIC_MERGE_PATCH && declared.isEmpty()) {
      throw ApiErrors.newUnsupportedMediaType(
          "the body of the request was in an unknown format - accepted media types include:"
              + " application/json-patch+json, application/merge-patch+json");
    }
    // JSON and merge patches read no strategies: the class's own stand in when none are declared.
    StrategicMergeSchema strategies =
        declared.orElseGet(() -> StrategicMergeSchema.ofType(target.type()));
    RequestOptions.checkPatchOptions(request, false);
    byte[] patch = scope.body(request);
    if (type == PatchType.STRATEGIC_MERGE_PATCH) {
      // kube-apiserver reads the patch into a map first, and answers what Go's decoder says.
      Optional<String> malformed = GoJsonErrors.unmarshalIntoMap(patch);
      if (malformed.isPresent()) {
        throw ApiErrors.newBadRequest(malformed.get());
      }
    }
    Codec codec = scope.json().withFieldValidation(validation);
    if ("scale".equals(info.subresource())) {
      Object stored = target.store().get(info.namespace(), info.name());
      Scale patched = Patches.apply(codec, scales.read(target, stored), patch, type);
      return scales.write(context, info, target, patched, dryRun);
    }
    List<FieldProblem> warnings = new ArrayList<>();
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
                  old -> {
                    Object current = scope.toServed(old, target);
                    Object patched = apply(codec, current, patch, type, strategies, warnings);
                    scope.scheme().applyDefaults(patched);
                    warnings.addAll(scope.normalize(patched, target, validation));
                    return scope.toStorage(
                        scope.trackUpdate(request, target, info.subresource(), current, patched),
                        target);
                  },
                  info.subresource(),
                  dryRun);
    } finally {
      RequestScope.audit(context, notes);
    }
    return RequestScope.admitted(
        RequestScope.withWarnings(
            scope.respond(request, target, scope.toServed(updated, target), 200, false), warnings),
        context,
        notes);
  }

  /** Applies the patch; under {@code Warn}, unknown fields are kept out and reported. */
  private static Object apply(
      Codec codec,
      Object current,
      byte[] patch,
      PatchType type,
      StrategicMergeSchema strategies,
      List<FieldProblem> warnings) {
    if (codec.fieldValidation() != FieldValidation.WARN) {
      return Patches.apply(codec, current, patch, type, strategies);
    }
    Object lenient =
        Patches.apply(
            codec.withFieldValidation(FieldValidation.IGNORE), current, patch, type, strategies);
    Decoded<?> checked = codec.decode(codec.encode(lenient), current.getClass());
    warnings.addAll(checked.warnings());
    return lenient;
  }
}
