package dev.machinery.apiserver.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.apiserver.registry.AdmissionNotes;
import dev.machinery.apiserver.registry.ScaleAdmission;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.managedfields.FieldManager;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.Scale;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code scale} subresource: a resource's Scale read through its {@link ScaleAccessor} (in
 * {@code autoscaling/v1}, naming the object), and replicas written back through it. A write is
 * admitted as its Scale ({@link ScaleAdmission}); the warnings of admission are sent with the
 * answer and its audit annotations recorded, as for any other write. Immutable; thread-safe.
 */
final class Scales {
  private static final String SCALE_API_VERSION = ScaleAdmission.SCALE.apiVersion();

  private final RequestScope scope;

  Scales(RequestScope scope) {
    this.scope = scope;
  }

  /** The stored object's Scale. */
  Scale read(Served target, Object stored) {
    ScaleView view =
        new ScaleView(
            scope.scheme(),
            target.store().definition().scaleType(),
            target.store().definition().scale().orElseThrow());
    return view.read(stored);
  }

  /** Answers with the stored object's Scale. */
  ApiResponse respond(Served target, Object stored, int code) {
    return ApiResponse.of(code, "application/json", scope.json().encode(read(target, stored)));
  }

  /**
   * Records the scale write in the object's managed fields, under the {@code scale} subresource.
   */
  private Object track(ApiRequest request, Served target, ObjectNode live, Object next) {
    Class<?> type = target.store().storageClass();
    ObjectNode tree = scope.fields().tree(next);
    scope
        .fields()
        .forKind(target.store().storageKind(), type, "scale", target.store())
        .update(live, tree, FieldManagement.manager(request));
    return scope.fields().object(tree, type);
  }

  /**
   * Server-side apply of a Scale, as kube-apiserver's scale handler: the applied replicas are
   * applied to the object itself, under the applier's {@code Apply} entry of the {@code scale}
   * subresource, so it conflicts with (or, forced, takes from) the other owners of the replicas,
   * and shares them with those of the same value.
   */
  ApiResponse apply(
      RequestContext context,
      RequestInfo info,
      Served target,
      ObjectNode applied,
      String manager,
      boolean force,
      boolean dryRun) {
    String apiVersion = applied.path("apiVersion").asText("");
    String kind = applied.path("kind").asText("");
    if (!SCALE_API_VERSION.equals(apiVersion) || !"Scale".equals(kind)) {
      throw ApiErrors.newBadRequest(
          "invalid object type: "
              + (apiVersion.contains("/") ? "" : "/")
              + apiVersion
              + ", Kind="
              + kind);
    }
    Scale scale = scope.fields().object(applied, Scale.class);
    ScaleAccessor<Object> accessor = target.store().definition().scale().orElseThrow();
    Class<?> type = target.store().storageClass();
    // An empty object of the storage kind, named by its apiVersion and kind so that it encodes
    // whether its class is registered or holds its kind in itself (a JSON tree).
    ObjectNode empty = JsonNodeFactory.instance.objectNode();
    empty.put("apiVersion", target.store().storageKind().apiVersion());
    empty.put("kind", target.store().storageKind().kind());
    Object carrier = scope.fields().object(empty, type);
    accessor.write(carrier, scale);
    ObjectNode config = pruned(scope.fields().tree(carrier));
    config.put("apiVersion", target.store().storageKind().apiVersion());
    config.put("kind", target.store().storageKind().kind());
    config.putObject("metadata").put("name", info.name());
    FieldManager fields =
        scope.fields().forKind(target.store().storageKind(), type, "scale", target.store());
    String asked = scale.getMetadata() == null ? null : scale.getMetadata().getResourceVersion();
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
                    ObjectNode merged =
                        fields.apply(scope.fields().tree(old), config, manager, force);
                    Object next = scope.fields().object(merged, type);
                    if (asked != null && !asked.isEmpty()) {
                      Accessor.of(next).setResourceVersion(asked);
                    }
                    return next;
                  },
                  false,
                  dryRun);
    } finally {
      RequestScope.audit(context, notes);
    }
    return RequestScope.admitted(respond(target, updated, 200), context, notes);
  }

  /** The tree without its nulls and empty objects, the fields an empty object leaves unset. */
  private static ObjectNode pruned(ObjectNode tree) {
    List<String> drop = new ArrayList<>();
    for (Map.Entry<String, JsonNode> field : tree.properties()) {
      JsonNode value = field.getValue();
      if (value instanceof ObjectNode child) {
        pruned(child);
      }
      if (value.isNull() || (value.isObject() && value.isEmpty())) {
        drop.add(field.getKey());
      }
    }
    tree.remove(drop);
    return tree;
  }

  /** Writes a Scale's replicas into the stored object, under the Scale's resourceVersion. */
  ApiResponse write(
      RequestContext context, RequestInfo info, Served target, Scale scale, boolean dryRun) {
    ApiRequest request = context.request();
    ScaleAccessor<Object> accessor = target.store().definition().scale().orElseThrow();
    String asked = scale.getMetadata() == null ? null : scale.getMetadata().getResourceVersion();
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
                    ObjectNode live = scope.fields().tree(old);
                    accessor.write(old, scale);
                    Accessor.of(old).setResourceVersion(asked);
                    return track(request, target, live, old);
                  },
                  false,
                  dryRun);
    } finally {
      RequestScope.audit(context, notes);
    }
    return RequestScope.admitted(respond(target, updated, 200), context, notes);
  }
}
