/**
 * Machinery's JUnit 5 extension: {@link dev.machinery.junit.EnableApiServer} starts an API server
 * serving every Kubernetes built-in kind and CustomResourceDefinitions for a test class.
 */
module dev.machinery.junit {
  requires transitive dev.machinery.builtins;
  requires transitive dev.machinery.cluster;
  requires transitive org.junit.jupiter.api;
  requires com.fasterxml.jackson.dataformat.yaml;
  requires org.slf4j;

  exports dev.machinery.junit;
}
