/**
 * Typed models of Kubernetes 1.33's built-in kinds, one package a group version, generated from
 * Kubernetes' OpenAPI document when the module is built; {@code dev.machinery.api} registers them
 * ({@code KubernetesApi}) and encodes them as Kubernetes' protobuf ({@code KubernetesProtobuf}).
 * Every package of models is exported (the Scheme makes objects through their public constructors)
 * and opened to Jackson, which reads and writes their properties.
 */
module dev.machinery.api {
  requires transitive dev.machinery.unversioned;

  exports dev.machinery.api;
  exports dev.machinery.api.admissionregistration.v1;
  exports dev.machinery.api.admissionregistration.v1alpha1;
  exports dev.machinery.api.admissionregistration.v1beta1;
  exports dev.machinery.api.apiextensions.v1;
  exports dev.machinery.api.apiregistration.v1;
  exports dev.machinery.api.apiserverinternal.v1alpha1;
  exports dev.machinery.api.apps.v1;
  exports dev.machinery.api.authentication.v1;
  exports dev.machinery.api.authorization.v1;
  exports dev.machinery.api.autoscaling.v1;
  exports dev.machinery.api.autoscaling.v2;
  exports dev.machinery.api.batch.v1;
  exports dev.machinery.api.certificates.v1;
  exports dev.machinery.api.certificates.v1alpha1;
  exports dev.machinery.api.certificates.v1beta1;
  exports dev.machinery.api.coordination.v1;
  exports dev.machinery.api.coordination.v1alpha2;
  exports dev.machinery.api.coordination.v1beta1;
  exports dev.machinery.api.core.v1;
  exports dev.machinery.api.discovery.v1;
  exports dev.machinery.api.events.v1;
  exports dev.machinery.api.flowcontrol.v1;
  exports dev.machinery.api.meta.v1;
  exports dev.machinery.api.networking.v1;
  exports dev.machinery.api.networking.v1beta1;
  exports dev.machinery.api.node.v1;
  exports dev.machinery.api.policy.v1;
  exports dev.machinery.api.rbac.v1;
  exports dev.machinery.api.resource.v1alpha3;
  exports dev.machinery.api.resource.v1beta1;
  exports dev.machinery.api.resource.v1beta2;
  exports dev.machinery.api.scheduling.v1;
  exports dev.machinery.api.storage.v1;
  exports dev.machinery.api.storage.v1alpha1;
  exports dev.machinery.api.storage.v1beta1;
  exports dev.machinery.api.storagemigration.v1alpha1;

  opens dev.machinery.api.admissionregistration.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.admissionregistration.v1alpha1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.admissionregistration.v1beta1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.apiextensions.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.apiregistration.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.apiserverinternal.v1alpha1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.apps.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.authentication.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.authorization.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.autoscaling.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.autoscaling.v2 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.batch.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.certificates.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.certificates.v1alpha1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.certificates.v1beta1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.coordination.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.coordination.v1alpha2 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.coordination.v1beta1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.core.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.discovery.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.events.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.flowcontrol.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.meta.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.networking.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.networking.v1beta1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.node.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.policy.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.rbac.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.resource.v1alpha3 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.resource.v1beta1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.resource.v1beta2 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.scheduling.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.storage.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.storage.v1alpha1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.storage.v1beta1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.api.storagemigration.v1alpha1 to
      com.fasterxml.jackson.databind;
}
