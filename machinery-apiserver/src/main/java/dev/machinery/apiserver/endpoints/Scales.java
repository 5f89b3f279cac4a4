package dev.machinery.apiserver.endpoints;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.Scale;

/**
 * The {@code scale} subresource: a resource's Scale read through its {@link ScaleAccessor} (in
 * {@code autoscaling/v1}, naming the object), and replicas written back through it. Immutable;
 * thread-safe.
 */
final class Scales {
  private static final String SCALE_API_VERSION = "autoscaling/v1";

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
    Scale scale = view.read(stored);
    scale.setApiVersion(SCALE_API_VERSION);
    scale.setKind("Scale");
    return scale;
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
        .forKind(
            target.store().storageKind(), type, "scale", target.store().definition().hasStatus())
        .update(live, tree, FieldManagement.manager(request));
    return scope.fields().object(tree, type);
  }

  /** Writes a Scale's replicas into the stored object, under the Scale's resourceVersion. */
  ApiResponse write(
      ApiRequest request, RequestInfo info, Served target, Scale scale, boolean dryRun) {
    ScaleAccessor<Object> accessor = target.store().definition().scale().orElseThrow();
    String asked = scale.getMetadata() == null ? null : scale.getMetadata().getResourceVersion();
    Object updated =
        target
            .store()
            .update(
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
    return respond(target, updated, 200);
  }
}
