/**
 * Machinery API server: a Kubernetes-style API server over a Scheme, with storage shaped like etcd
 * v3 and an HTTP binding on the JDK's HTTP server. Besides the server ({@code apiserver}, {@code
 * http}, {@code storage}) it exports the pieces a server built without {@code ApiServer} reuses, as
 * Go's k8s.io/apiserver and kube-openapi hold them: Accept negotiation of alternate representations
 * ({@code negotiation}), discovery documents built from a Scheme ({@code discovery}) and OpenAPI
 * generation ({@code openapi}); and certificates and keys for serving TLS ({@code certs}), as
 * client-go's util/cert and util/keyutil make and read them.
 */
module dev.machinery.apiserver {
  requires transitive dev.machinery.unversioned;
  requires transitive dev.machinery.client;
  requires transitive jdk.httpserver;
  requires com.fasterxml.jackson.dataformat.yaml;
  requires org.yaml.snakeyaml;
  requires org.slf4j;
  requires java.naming;
  requires java.net.http;

  exports dev.machinery.apiserver;
  exports dev.machinery.apiserver.http;
  exports dev.machinery.apiserver.client;
  exports dev.machinery.apiserver.certs;
  exports dev.machinery.apiserver.authentication;
  exports dev.machinery.apiserver.admission;
  exports dev.machinery.apiserver.admission.webhook;
  exports dev.machinery.apiserver.admission.policy;
  exports dev.machinery.apiserver.audit;
  exports dev.machinery.apiserver.authorization;
  exports dev.machinery.apiserver.authorization.v1;
  exports dev.machinery.apiserver.rbac;
  exports dev.machinery.apiserver.storage;
  exports dev.machinery.apiserver.storage.encryption;
  exports dev.machinery.apiserver.registry.rest;
  exports dev.machinery.apiserver.negotiation;
  exports dev.machinery.apiserver.discovery;
  exports dev.machinery.apiserver.openapi;
  exports dev.machinery.apiserver.apiextensions.v1;
  exports dev.machinery.apiserver.apiextensions.schema;

  uses dev.machinery.apiserver.apiextensions.schema.ValidationRules;
  uses dev.machinery.apiserver.admission.webhook.MatchConditions;
  uses dev.machinery.apiserver.admission.policy.PolicyExpressions;

  opens dev.machinery.apiserver.registry.rest to
      com.fasterxml.jackson.databind;
  opens dev.machinery.apiserver.authorization.v1 to
      com.fasterxml.jackson.databind;
  opens dev.machinery.apiserver.rbac to
      com.fasterxml.jackson.databind;
  opens dev.machinery.apiserver.apiextensions.v1 to
      com.fasterxml.jackson.databind;
}
