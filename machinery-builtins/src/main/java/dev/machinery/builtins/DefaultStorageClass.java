package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.MutatingAdmissionPlugin;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.Map;

/**
 * kube-apiserver's {@code DefaultStorageClass} plugin: a created PersistentVolumeClaim that names
 * no class (neither {@code spec.storageClassName}, even empty, nor the beta annotation {@code
 * volume.beta.kubernetes.io/storage-class}) gets the default StorageClass's name: the class
 * annotated {@code storageclass.kubernetes.io/is-default-class: "true"} (or its beta form), the
 * newest of several, by name among those of one time. Thread-safe once initialized.
 */
final class DefaultStorageClass implements MutatingAdmissionPlugin {
  static final String NAME = "DefaultStorageClass";
  static final String IS_DEFAULT = "storageclass.kubernetes.io/is-default-class";
  static final String BETA_IS_DEFAULT = "storageclass.beta.kubernetes.io/is-default-class";
  static final String BETA_CLASS = "volume.beta.kubernetes.io/storage-class";

  private final Loopback loopback = new Loopback();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE;
  }

  @Override
  public void initialize(ApiHandler server) {
    loopback.initialize(server);
  }

  @Override
  public Object admit(AdmissionAttributes attributes) {
    if (!attributes.subresource().isEmpty()
        || !attributes.resource().equals(GroupResource.of("", "persistentvolumeclaims"))) {
      return attributes.object();
    }
    Map<String, Object> claim = ((Unstructured) attributes.object()).content();
    Map<String, Object> annotations = JsonTrees.map(claim, "metadata", "annotations");
    if (JsonTrees.get(claim, "spec", "storageClassName") != null
        || annotations != null && annotations.containsKey(BETA_CLASS)) {
      return attributes.object();
    }
    DefaultClasses.defaultName(
            loopback.listCached("/apis/storage.k8s.io/v1/storageclasses"),
            DefaultStorageClass::isDefault)
        .ifPresent(name -> JsonTrees.child(claim, "spec").put("storageClassName", name));
    return attributes.object();
  }

  private static boolean isDefault(Map<String, Object> storageClass) {
    Map<String, Object> annotations = JsonTrees.map(storageClass, "metadata", "annotations");
    return annotations != null
        && ("true".equals(annotations.get(IS_DEFAULT))
            || "true".equals(annotations.get(BETA_IS_DEFAULT)));
  }
}
