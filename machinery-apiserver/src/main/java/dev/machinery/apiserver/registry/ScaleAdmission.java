package dev.machinery.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.ScaleSpec;
import dev.machinery.unversioned.meta.v1.ScaleStatus;
import java.util.Optional;

/**
 * The {@code scale} subresource as admission sees it, as kube-apiserver's scale storage hands it
 * over: an update of {@code deployments/scale} (or of any resource with a {@link ScaleAccessor}) is
 * admitted as an {@code autoscaling/v1 Scale} made from the object and from the stored one, and the
 * replicas of the Scale admission returns are written back into the object through the accessor.
 * Stateless; thread-safe.
 */
public final class ScaleAdmission {
  /** The kind of the scale subresource, in every version of every scalable resource. */
  public static final GroupVersionKind SCALE = GroupVersionKind.of("autoscaling", "v1", "Scale");

  private ScaleAdmission() {}

  /**
   * The accessor of the store's scale subresource when the requester writes it.
   *
   * @param requester who asks, and what
   * @param store the store written
   * @return the accessor, or empty when the write is not one of the scale subresource
   */
  public static Optional<ScaleAccessor<Object>> accessor(
      Attributes requester, ResourceStore store) {
    if (!"scale".equals(requester.subresource())
        || !requester.resource().equals(store.groupResource().resource())
        || !requester.apiGroup().equals(store.groupResource().group())) {
      return Optional.empty();
    }
    return store.definition().scale();
  }

  /**
   * The Scale of an object, as the scale subresource shows it: {@code autoscaling/v1}, its metadata
   * naming the object (name, namespace, uid, resourceVersion, creation time), the desired and
   * observed replicas and the selector the accessor reads.
   *
   * @param accessor reads the replicas
   * @param type the class the accessor reads
   * @param object the object, of that class, or {@code null}
   * @return the Scale, or {@code null} for {@code null}
   * @throws IllegalStateException when the object is not of the accessor's class
   */
  public static Scale read(ScaleAccessor<Object> accessor, Class<?> type, Object object) {
    if (object == null) {
      return null;
    }
    if (type != null && !type.isInstance(object)) {
      throw new IllegalStateException(
          "the scale subresource reads a "
              + type.getName()
              + ", admission was handed a "
              + object.getClass().getName());
    }
    return named(accessor.read(object), object);
  }

  /**
   * Gives a Scale its apiVersion and kind and the metadata of the object it scales.
   *
   * @param scale the Scale, changed in place
   * @param object the object it is the Scale of
   * @return the Scale
   */
  public static Scale named(Scale scale, Object object) {
    scale.setApiVersion(SCALE.apiVersion());
    scale.setKind(SCALE.kind());
    if (scale.getMetadata() == null) {
      scale.setMetadata(new ObjectMeta());
    }
    MetaObject from = Accessor.of(object);
    MetaObject to = Accessor.of(scale);
    to.setName(from.getName());
    to.setNamespace(from.getNamespace());
    to.setUid(from.getUid());
    to.setResourceVersion(from.getResourceVersion());
    to.setCreationTimestamp(from.getCreationTimestamp());
    return scale;
  }

  /**
   * A copy of a Scale with the desired replicas of a Scale's JSON as a mutating webhook patched it;
   * an absent {@code spec.replicas} is 0, as Go decodes it.
   *
   * @param before the Scale the webhooks were given
   * @param patched the JSON they returned
   * @return the new Scale
   * @throws dev.machinery.unversioned.errors.StatusException {@code 500} when {@code spec.replicas}
   *     is not a 32-bit integer
   */
  public static Scale patched(Scale before, ObjectNode patched) {
    JsonNode replicas = patched.path("spec").path("replicas");
    int value;
    if (replicas.isMissingNode() || replicas.isNull()) {
      value = 0;
    } else if (replicas.isIntegralNumber() && replicas.canConvertToInt()) {
      value = replicas.intValue();
    } else {
      throw ApiErrors.newInternalError(
          new IllegalArgumentException(
              "the patched Scale's spec.replicas is not a 32-bit integer: " + replicas));
    }
    Scale after = new Scale();
    after.setApiVersion(before.getApiVersion());
    after.setKind(before.getKind());
    after.setMetadata(before.getMetadata());
    ScaleSpec spec = new ScaleSpec();
    spec.setReplicas(value);
    after.setSpec(spec);
    ScaleStatus status = new ScaleStatus();
    if (before.getStatus() != null) {
      status.setReplicas(before.getStatus().getReplicas());
      status.setSelector(before.getStatus().getSelector());
    }
    after.setStatus(status);
    return after;
  }

  /**
   * The desired replicas of a Scale.
   *
   * @param scale the Scale
   * @return {@code spec.replicas}, 0 without a spec
   */
  public static int replicas(Scale scale) {
    return scale.getSpec() == null ? 0 : scale.getSpec().getReplicas();
  }
}
