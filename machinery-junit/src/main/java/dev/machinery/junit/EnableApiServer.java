package dev.machinery.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Starts a Kubernetes API server for a test class: every built-in kind of Kubernetes 1.33 and
 * CustomResourceDefinitions, in memory, on a free loopback port, with the namespaces {@code
 * default}, {@code kube-system}, {@code kube-public} and {@code kube-node-lease}; the definitions
 * named by {@link #crds()} are created and {@code Established} before the first test. It stops
 * after the class's last test.
 *
 * <p>Tests receive a {@link TestApiServer} (its URL, a kubeconfig file, the server) and, when
 * fabric8's client is on the class path, an {@code io.fabric8.kubernetes.client.KubernetesClient}
 * for the server, as parameters of test and lifecycle methods or in fields of those types (static
 * or not).
 *
 * <pre>{@code
 * @EnableApiServer(crds = "crds/sites.yaml")
 * class SiteOperatorTest {
 *   KubernetesClient client;
 *
 *   @Test
 *   void createsAConfigMap() { ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ApiServerExtension.class)
public @interface EnableApiServer {
  /**
   * CustomResourceDefinition manifests (YAML or JSON, several documents each), each a class path
   * resource or else a file path, created in order before the first test.
   *
   * @return the manifests
   */
  String[] crds() default {};

  /**
   * Whether the server logs one line a request (through SLF4J, logger {@code
   * dev.machinery.apiserver.requests}).
   *
   * @return true to log requests
   */
  boolean requestLog() default false;
}
