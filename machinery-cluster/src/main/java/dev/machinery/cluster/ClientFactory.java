package dev.machinery.cluster;

import dev.machinery.client.Client;
import java.util.List;

/**
 * Makes the clients controllers and simulated nodes talk to the server through, each authenticated
 * as the identity it names (as kube-controller-manager with {@code
 * --use-service-account-credentials} gives each controller its service account's credentials). The
 * clients' Scheme must hold Kubernetes' built-in kinds ({@code KubernetesApi.addToScheme}).
 *
 * <p>Implementations are called from several threads and must be thread-safe; each client is made
 * once per identity and closed by the {@link ControllerManager} that asked for it.
 */
@FunctionalInterface
public interface ClientFactory {
  /**
   * Makes a client that the server authenticates as the given user.
   *
   * @param user the user name, such as {@code
   *     system:serviceaccount:kube-system:deployment-controller} or {@code system:node:node-1}
   * @param groups the user's groups, such as {@code system:serviceaccounts}
   * @return a new client
   */
  Client client(String user, List<String> groups);
}
