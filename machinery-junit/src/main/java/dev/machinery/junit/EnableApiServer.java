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
 * <p>{@code @Nested} classes share their enclosing class's server and client: no second server is
 * started, the enclosing class's CustomResourceDefinitions are served to them, and their fields and
 * parameters receive the same server and client as the enclosing instance's. An {@code
 * EnableApiServer} on a nested class adds the definitions it names to that shared server (they stay
 * until the enclosing class's server stops); its {@link #requestLog()} is the enclosing class's.
 * With {@code @TestInstance(PER_CLASS)} the server is started when the instance is made, so that
 * its fields are set before its {@code @BeforeAll} methods run.
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
   * Whether the server logs one line a request made over HTTP, such as {@code GET
   * /api/v1/namespaces/default 200 1234 bytes 3 ms}: at INFO to the SLF4J logger {@code
   * dev.machinery.apiserver.requests} when an SLF4J provider (slf4j-simple, Logback, ...) is on the
   * test class path; without one (SLF4J's no-operation logger factory, which would drop the lines)
   * to {@code System.err}, each line prefixed {@code [machinery-apiserver] }.
   *
   * @return true to log requests
   */
  boolean requestLog() default false;

  /**
   * The controllers to run, as kube-controller-manager's {@code --controllers}: {@code *} (the
   * default) for every controller on by default, {@code name} to add one, {@code -name} to leave
   * one out; {@code {}} for none.
   *
   * @return the controllers
   */
  String[] controllers() default {"*"};

  /**
   * How many nodes to simulate ({@code node-1} … {@code node-N}), each with a simulated kubelet.
   *
   * @return the count, 0 to 255
   */
  int nodes() default 3;

  /**
   * Whether the cluster's clock is a {@code FakeClock} the test moves ({@code
   * TestApiServer.fakeClock()}), starting at the time the server starts.
   *
   * @return true for a fake clock
   */
  boolean fakeClock() default false;
}
