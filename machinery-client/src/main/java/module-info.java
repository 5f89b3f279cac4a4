/**
 * Machinery's client: reads and writes objects on a Kubernetes-style API server, typed through a
 * {@link dev.machinery.core.runtime.Scheme} or held without classes, over HTTP or in process.
 */
module dev.machinery.client {
  requires transitive dev.machinery.unversioned;
  requires transitive dev.machinery.restmapper;
  requires transitive java.net.http;

  exports dev.machinery.client;
  exports dev.machinery.client.transport;
}
