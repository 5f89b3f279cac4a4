/**
 * Machinery unversioned: the {@code meta.k8s.io/v1} types shared by every API group, aggregated
 * discovery types, unstructured objects, and discovery documents built from a Scheme.
 */
module dev.machinery.unversioned {
  requires transitive dev.machinery.core;
  requires com.fasterxml.jackson.dataformat.yaml;

  exports dev.machinery.unversioned.meta.v1;
  exports dev.machinery.unversioned.discovery;
  exports dev.machinery.unversioned.discovery.v2;
  exports dev.machinery.unversioned.unstructured;
  exports dev.machinery.unversioned.negotiation;
  exports dev.machinery.unversioned.resource;
  exports dev.machinery.unversioned.intstr;
  exports dev.machinery.unversioned.validation;
  exports dev.machinery.unversioned.errors;
  exports dev.machinery.unversioned.labels;
  exports dev.machinery.unversioned.fields;
  exports dev.machinery.unversioned.watch;
  exports dev.machinery.unversioned.protobuf;
  exports dev.machinery.unversioned.openapi;

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
