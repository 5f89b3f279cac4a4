/**
 * A cluster in a process: Kubernetes' controllers and simulated nodes, each a client of an API
 * server's own API through {@code machinery-client} and {@code machinery-controller-runtime}.
 */
module dev.machinery.cluster {
  requires transitive dev.machinery.controller;
  requires transitive dev.machinery.api;
  requires transitive dev.machinery.client;
  requires dev.machinery.quota;
  requires org.slf4j;
  requires com.fasterxml.jackson.databind;

  exports dev.machinery.cluster;
}
