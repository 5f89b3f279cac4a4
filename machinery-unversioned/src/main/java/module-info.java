/**
 * Machinery unversioned: what every API group shares, as Go's k8s.io/apimachinery holds it. The
 * {@code meta.k8s.io/v1} types ({@code meta.v1}), unstructured objects, the discovery types and
 * aggregated discovery ({@code discovery}, {@code discovery.v2}), the value types ({@code
 * resource}, {@code intstr}), label and field selectors ({@code labels}, {@code fields}),
 * validation ({@code validation}), API errors and the mapping to {@code Status} ({@code errors}),
 * watch events and their framing ({@code watch}), and Kubernetes' protobuf encoding ({@code
 * protobuf}). What only a server needs (Accept negotiation, discovery documents built from a
 * Scheme, OpenAPI generation) is in {@code dev.machinery.apiserver}.
 */
module dev.machinery.unversioned {
  requires transitive dev.machinery.core;
  requires com.fasterxml.jackson.dataformat.yaml;

  exports dev.machinery.unversioned.meta.v1;
  exports dev.machinery.unversioned.discovery;
  exports dev.machinery.unversioned.discovery.v2;
  exports dev.machinery.unversioned.unstructured;
  exports dev.machinery.unversioned.resource;
  exports dev.machinery.unversioned.intstr;
  exports dev.machinery.unversioned.validation;
  exports dev.machinery.unversioned.errors;
  exports dev.machinery.unversioned.managedfields;
  exports dev.machinery.unversioned.labels;
  exports dev.machinery.unversioned.fields;
  exports dev.machinery.unversioned.watch;
  exports dev.machinery.unversioned.protobuf;

  opens dev.machinery.unversioned.meta.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.unversioned.discovery.v2 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.unversioned.unstructured to
      com.fasterxml.jackson.databind;
  opens dev.machinery.unversioned.resource to
      com.fasterxml.jackson.databind;
  opens dev.machinery.unversioned.intstr to
      com.fasterxml.jackson.databind;
}
