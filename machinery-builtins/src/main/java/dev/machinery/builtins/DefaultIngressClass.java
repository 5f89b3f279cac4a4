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
 * kube-apiserver's {@code DefaultIngressClass} plugin: a created Ingress naming no class (neither
 * {@code spec.ingressClassName} nor the annotation {@code kubernetes.io/ingress.class}) gets the
 * IngressClass annotated {@code ingressclass.kubernetes.io/is-default-class: "true"}, the newest of
 * several, by name among those of one time. Thread-safe once initialized.
 */
final class DefaultIngressClass implements MutatingAdmissionPlugin {
  static final String NAME = "DefaultIngressClass";
  static final String IS_DEFAULT = "ingressclass.kubernetes.io/is-default-class";
  static final String CLASS_ANNOTATION = "kubernetes.io/ingress.class";

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
        || !attributes.resource().equals(GroupResource.of("networking.k8s.io", "ingresses"))) {
      return attributes.object();
    }
    Map<String, Object> ingress = ((Unstructured) attributes.object()).content();
    Map<String, Object> annotations = JsonTrees.map(ingress, "metadata", "annotations");
    if (JsonTrees.get(ingress, "spec", "ingressClassName") != null
        || annotations != null && annotations.containsKey(CLASS_ANNOTATION)) {
      return attributes.object();
    }
    DefaultClasses.defaultName(
            loopback.listCached("/apis/networking.k8s.io/v1/ingressclasses"),
            c -> "true".equals(JsonTrees.string(c, "", "metadata", "annotations", IS_DEFAULT)))
        .ifPresent(name -> JsonTrees.child(ingress, "spec").put("ingressClassName", name));
    return attributes.object();
  }
}
