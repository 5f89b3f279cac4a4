package dev.machinery.apiserver.endpoints;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.AdmissionNotes;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.managedfields.FieldManager;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Server-side apply ({@code application/apply-patch+yaml}, of which JSON is a part): the applied
 * configuration merged into the stored object by the kind's schema and recorded in its managed
 * fields, or, when there is no such object, merged into an empty one and created ({@code 201}), as
 * kube-apiserver's applyPatcher. Immutable; thread-safe.
 */
final class ApplyPatcher {
  private static final YAMLMapper YAML;

  static {
    LoaderOptions limits = new LoaderOptions();
    limits.setAllowDuplicateKeys(false);
    limits.setMaxAliasesForCollections(50);
    limits.setNestingDepthLimit(100);
    YAML = new YAMLMapper(YAMLFactory.builder().loaderOptions(limits).build());
  }

  private final RequestScope scope;
  private final Namespaces namespaces;
  private final Scales scales;

  ApplyPatcher(RequestScope scope, Namespaces namespaces, Scales scales) {
    this.scope = scope;
    this.namespaces = namespaces;
    this.scales = scales;
  }

  ApiResponse apply(RequestContext context, RequestInfo info, Served target, boolean dryRun) {
    ApiRequest request = context.request();
    boolean force = RequestOptions.checkPatchOptions(request, true);
    String manager = request.parameter("fieldManager");
    FieldValidation validation = RequestOptions.fieldValidation(request);
    ObjectNode applied = read(scope.body(request));
    if ("scale".equals(info.subresource())) {
      return scales.apply(context, info, target, applied, manager, force, dryRun);
    }
    checkNames(applied, info, target);
    FieldManager fields = scope.fieldManager(target, info.subresource());
    AdmissionNotes notes = new AdmissionNotes();
    for (int attempt = 0; ; attempt++) {
      try {
        Object updated =
            target
                .store()
                .update(
                    context.attributes(),
                    notes,
                    info.namespace(),
                    info.name(),
                    old -> {
                      ObjectNode live = scope.fields().tree(scope.toRequestVersion(old, target));
                      return stored(
                          target, fields.apply(live, applied, manager, force), validation);
                    },
                    info.subresource(),
                    dryRun);
        return RequestScope.admitted(
            scope.respond(request, target, scope.toServed(updated, target), 200, false),
            context,
            notes);
      } catch (StatusException e) {
        if (!ApiErrors.isNotFound(e) || info.subresource() != null || attempt > 0) {
          throw e;
        }
      }
      String uid = applied.path("metadata").path("uid").asText("");
      if (!uid.isEmpty()) {
        // As kube-apiserver's patcher: an apply naming a uid does not create the object.
        throw ApiErrors.newConflict(
            target.store().groupResource(),
            info.name(),
            "uid mismatch: the provided object specified uid "
                + uid
                + ", and no existing object was found");
      }
      try {
        ObjectNode merged =
            fields.apply(
                scope.fields().empty(target.type(), target.kind()), applied, manager, force);
        Object object = stored(target, merged, validation);
        MetaObject meta = Accessor.of(object);
        if (meta.getName() == null || meta.getName().isEmpty()) {
          meta.setName(info.name());
        }
        if (target.store().definition().namespaced()) {
          meta.setNamespace(info.namespace());
          namespaces.require(info.namespace());
        }
        Object created = target.store().create(context.attributes(), notes, object, dryRun);
        return RequestScope.admitted(
            scope.respond(request, target, scope.toServed(created, target), 201, false),
            context,
            notes);
      } catch (StatusException e) {
        if (!ApiErrors.isAlreadyExists(e)) {
          throw e;
        }
        // Created meanwhile: apply to it.
      }
    }
  }

  /**
   * The merged tree as the storage version's object, defaulted, and pruned and defaulted by the
   * resource's schema when it has one (custom resources).
   */
  private Object stored(Served target, ObjectNode merged, FieldValidation validation) {
    Object object = scope.fields().object(merged, target.type());
    scope.scheme().applyDefaults(object);
    scope.normalize(object, target, validation);
    return scope.toStorage(object, target);
  }

  private static ObjectNode read(byte[] body) {
    if (body.length == 0) {
      throw ApiErrors.newBadRequest("error decoding YAML: the applied configuration is empty");
    }
    JsonNode tree;
    try {
      tree = YAML.readTree(body);
    } catch (JacksonException e) {
      throw ApiErrors.newBadRequest("error decoding YAML: " + e.getOriginalMessage());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    if (!(tree instanceof ObjectNode object)) {
      throw ApiErrors.newBadRequest(
          "error decoding YAML: the applied configuration must be an object, got "
              + (tree == null ? "nothing" : tree.getNodeType().toString().toLowerCase()));
    }
    return object;
  }

  private static void checkNames(ObjectNode applied, RequestInfo info, Served target) {
    String name = applied.path("metadata").path("name").asText("");
    if (!name.isEmpty() && !name.equals(info.name())) {
      throw ApiErrors.newBadRequest(
          "the name of the object ("
              + name
              + ") does not match the name on the URL ("
              + info.name()
              + ")");
    }
    String namespace = applied.path("metadata").path("namespace").asText("");
    if (target.store().definition().namespaced()
        && !namespace.isEmpty()
        && !namespace.equals(info.namespace())) {
      throw ApiErrors.newBadRequest(
          "the namespace of the provided object does not match the namespace sent on the"
              + " request");
    }
  }
}
