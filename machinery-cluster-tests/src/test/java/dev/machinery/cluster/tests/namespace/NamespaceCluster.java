package dev.machinery.cluster.tests.namespace;

import dev.machinery.api.KubernetesApi;
import dev.machinery.api.core.v1.Namespace;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.client.InProcessTransport;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.builtins.BuiltinKinds;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.cluster.ControllerManager;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A server as kube-apiserver runs beside kube-controller-manager: its own cleanup of deleted
 * namespaces switched off ({@code namespaceContentCleanup(false)}), so that only the namespace
 * controller (and whichever others are chosen) empties and finalizes them; with a fabric8 client.
 */
final class NamespaceCluster implements AutoCloseable {
  final ApiServer server;
  final JdkHttpBinding binding;
  final String url;
  final KubernetesClient client;
  final ControllerManager controllers;

  NamespaceCluster(List<String> controllerNames) throws Exception {
    this(controllerNames, false);
  }

  /**
   * @param controllerNames the controllers to run
   * @param unlimited whether the controllers' clients send without a rate limit (client-go's 5
   *     requests a second otherwise), for the benchmarks
   */
  NamespaceCluster(List<String> controllerNames, boolean unlimited) throws Exception {
    this(controllerNames, unlimited, false);
  }

  /**
   * @param controllerNames the controllers to run
   * @param unlimited whether the controllers' clients send without a rate limit
   * @param rbac whether the server authorizes with RBAC (kube's bootstrap and controller roles);
   *     the fabric8 client, anonymous, is then refused most things: use an in-process client of
   *     {@code system:masters}
   */
  NamespaceCluster(List<String> controllerNames, boolean unlimited, boolean rbac) throws Exception {
    ApiServer.Builder serverBuilder = BuiltinKinds.apiServer().namespaceContentCleanup(false);
    if (rbac) {
      serverBuilder.rbac();
    }
    server = serverBuilder.build();
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    url = "http://127.0.0.1:" + binding.port();
    Config config = new ConfigBuilder().withMasterUrl(url).withNamespace("default").build();
    client = new KubernetesClientBuilder().withConfig(config).build();
    Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
    try (Client admin =
        Client.builder(
                InProcessTransport.as(
                    server::handleAs, UserInfo.of("admin", List.of("system:masters"))))
            .scheme(scheme)
            .build()) {
      for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
        Namespace namespace = new Namespace();
        namespace.setMetadata(new ObjectMeta());
        namespace.getMetadata().setName(ns);
        admin.resources(Namespace.class).create(namespace);
      }
    }
    controllers =
        ControllerManager.builder(
                (user, groups) -> {
                  List<String> all = new ArrayList<>(groups);
                  all.add("system:authenticated");
                  Client.Builder builder =
                      Client.builder(
                              InProcessTransport.as(server::handleAs, UserInfo.of(user, all)))
                          .scheme(scheme);
                  if (unlimited) {
                    builder.rateLimiter(RateLimiter.unlimited());
                  }
                  return builder.build();
                })
            .controllers(controllerNames)
            .build();
    controllers.start();
  }

  @Override
  public void close() {
    controllers.close();
    client.close();
    binding.close();
    server.close();
  }
}
