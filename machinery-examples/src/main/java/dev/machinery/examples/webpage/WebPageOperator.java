package dev.machinery.examples.webpage;

import dev.machinery.client.Client;
import dev.machinery.client.config.ClientConfig;
import dev.machinery.client.config.KubeconfigLoader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs the WebPage controller against the cluster of the current kubeconfig context (kubectl's
 * files: {@code KUBECONFIG}, else {@code ~/.kube/config}), in the context's namespace:
 *
 * <pre>
 * kubectl apply -f webpages.web.example.dev.yaml   # the CRD, a resource of this package
 * java -m dev.machinery.examples/dev.machinery.examples.webpage.WebPageOperator \
 *     [--namespace=NS] [--leader-elect] [--lease-duration=15s]
 * </pre>
 *
 * <p>With {@code --leader-elect}, only the replica holding the Lease {@value
 * WebPageController#LEASE_NAME} reconciles; a replica that loses the Lease exits with status 1, so
 * that its supervisor restarts it, as controller-runtime's managers do. The process stops on a
 * signal (the Lease is released).
 *
 * <p>Not instantiable; its static method is safe to call from any thread.
 */
public final class WebPageOperator {
  private WebPageOperator() {}

  /** The parsed command line. */
  record Options(String namespace, boolean leaderElect, Duration leaseDuration) {
    static Options parse(String... args) {
      String namespace = null;
      boolean leaderElect = false;
      Duration lease = Duration.ofSeconds(15);
      for (String arg : args) {
        if (arg.startsWith("--namespace=")) {
          namespace = arg.substring("--namespace=".length());
          if (namespace.isEmpty()) {
            throw new IllegalArgumentException("--namespace: must not be empty");
          }
        } else if (arg.equals("--leader-elect")) {
          leaderElect = true;
        } else if (arg.startsWith("--lease-duration=")) {
          String value = arg.substring("--lease-duration=".length());
          if (!value.matches("[1-9][0-9]{0,5}s")) {
            throw new IllegalArgumentException(
                "--lease-duration: expected whole seconds such as 15s, got \"" + value + "\"");
          }
          lease = Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)));
        } else {
          throw new IllegalArgumentException("unknown flag: " + arg);
        }
      }
      return new Options(namespace, leaderElect, lease);
    }
  }

  /**
   * Runs the controller until the process is stopped.
   *
   * @param args {@code --namespace=NS} (default: the context's), {@code --leader-elect}, {@code
   *     --lease-duration=Ns} (default 15s)
   * @throws Exception if the kubeconfig cannot be loaded or the controller cannot start
   */
  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    ClientConfig config = KubeconfigLoader.loadDefault();
    String namespace = options.namespace() != null ? options.namespace() : config.namespace();
    String identity = hostName() + "_" + UUID.randomUUID();
    CountDownLatch stopped = new CountDownLatch(1);
    try (Client client = Client.builder(config).scheme(WebPageController.scheme()).build()) {
      WebPageController controller =
          WebPageController.start(
              client, namespace, identity, options.leaderElect() ? options.leaseDuration() : null);
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    controller.close();
                    stopped.countDown();
                  },
                  "webpage-operator-shutdown"));
      System.out.println("webpage controller " + identity + " serving namespace " + namespace);
      while (!stopped.await(1, TimeUnit.SECONDS)) {
        if (controller.lostLeadership()) {
          System.err.println("lost the lease " + WebPageController.LEASE_NAME + "; exiting");
          controller.close();
          System.exit(1);
        }
      }
    }
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
