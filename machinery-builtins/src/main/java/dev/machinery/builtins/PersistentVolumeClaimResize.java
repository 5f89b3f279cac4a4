package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.Map;
import java.util.Optional;

/**
 * kube-apiserver's {@code PersistentVolumeClaimResize} plugin: an update that grows a claim's
 * storage request is refused unless the claim is bound ({@code Only bound persistent volume claims
 * can be expanded}) and its StorageClass, the same before and after, has {@code
 * allowVolumeExpansion: true} ({@code only dynamically provisioned pvc can be resized and the
 * storageclass that provisions the pvc must support resize}). Thread-safe once initialized.
 */
final class PersistentVolumeClaimResize implements ValidatingAdmissionPlugin {
  static final String NAME = "PersistentVolumeClaimResize";

  private final Loopback loopback = new Loopback();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.UPDATE;
  }

  @Override
  public void initialize(ApiHandler server) {
    loopback.initialize(server);
  }

  @Override
  public void validate(AdmissionAttributes attributes) {
    if (!attributes.subresource().isEmpty()
        || !attributes.resource().equals(GroupResource.of("", "persistentvolumeclaims"))
        || attributes.oldObject() == null) {
      return;
    }
    Map<String, Object> claim = ((Unstructured) attributes.object()).content();
    Map<String, Object> old = ((Unstructured) attributes.oldObject()).content();
    if (storage(claim).compareTo(storage(old)) <= 0) {
      return;
    }
    if (!"Bound".equals(JsonTrees.string(old, "", "status", "phase"))) {
      throw new AdmissionException("Only bound persistent volume claims can be expanded");
    }
    String now = storageClass(claim);
    String before = storageClass(old);
    boolean allowed = false;
    if (!now.isEmpty() && now.equals(before)) {
      Optional<Map<String, Object>> sc =
          loopback.lookup("/apis/storage.k8s.io/v1/storageclasses/" + now);
      allowed = sc.isPresent() && Boolean.TRUE.equals(sc.get().get("allowVolumeExpansion"));
    }
    if (!allowed) {
      throw new AdmissionException(
          "only dynamically provisioned pvc can be resized and the storageclass that provisions"
              + " the pvc must support resize");
    }
  }

  private static Quantity storage(Map<String, Object> claim) {
    Object value = JsonTrees.get(claim, "spec", "resources", "requests", "storage");
    return value == null ? Quantity.ZERO : Quantity.parse(String.valueOf(value));
  }

  /** Go's {@code GetPersistentVolumeClaimClass}: the beta annotation, then the field. */
  private static String storageClass(Map<String, Object> claim) {
    String annotation =
        JsonTrees.string(claim, null, "metadata", "annotations", DefaultStorageClass.BETA_CLASS);
    return annotation != null
        ? annotation
        : JsonTrees.string(claim, "", "spec", "storageClassName");
  }
}
