/**
 * Machinery API server: a Kubernetes-style API server over a Scheme, with storage shaped like etcd
 * v3 and an HTTP binding on the JDK's HTTP server.
 */
module dev.machinery.apiserver {
  requires transitive dev.machinery.unversioned;
  requires transitive jdk.httpserver;
  requires org.slf4j;

  exports dev.machinery.apiserver;
  exports dev.machinery.apiserver.http;
  exports dev.machinery.apiserver.storage;

  opens dev.machinery.apiserver to
      com.fasterxml.jackson.databind;
}
