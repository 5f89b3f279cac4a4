package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.MutatingAdmissionPlugin;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's {@code StorageObjectInUseProtection} plugin: a created PersistentVolumeClaim
 * gets the finalizer {@code kubernetes.io/pvc-protection}, a created PersistentVolume {@code
 * kubernetes.io/pv-protection}, unless they have it. Immutable and thread-safe.
 */
final class StorageObjectInUseProtection implements MutatingAdmissionPlugin {
  static final String NAME = "StorageObjectInUseProtection";
  static final String PVC_FINALIZER = "kubernetes.io/pvc-protection";
  static final String PV_FINALIZER = "kubernetes.io/pv-protection";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE;
  }

  @Override
  public Object admit(AdmissionAttributes attributes) {
    if (!attributes.subresource().isEmpty()) {
      return attributes.object();
    }
    String finalizer;
    if (attributes.resource().equals(GroupResource.of("", "persistentvolumeclaims"))) {
      finalizer = PVC_FINALIZER;
    } else if (attributes.resource().equals(GroupResource.of("", "persistentvolumes"))) {
      finalizer = PV_FINALIZER;
    } else {
      return attributes.object();
    }
    Map<String, Object> metadata =
        JsonTrees.child(((Unstructured) attributes.object()).content(), "metadata");
    List<Object> finalizers =
        metadata.get("finalizers") instanceof List<?> list
            ? new ArrayList<>(list)
            : new ArrayList<>();
    if (!finalizers.contains(finalizer)) {
      finalizers.add(finalizer);
      metadata.put("finalizers", finalizers);
    }
    return attributes.object();
  }
}
