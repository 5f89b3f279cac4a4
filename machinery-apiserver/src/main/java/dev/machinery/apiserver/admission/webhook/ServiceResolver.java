package dev.machinery.apiserver.admission.webhook;

import java.net.URI;
import java.util.Objects;

/**
 * Turns a webhook's {@code clientConfig.service} reference into the URL the server calls, as
 * kube-apiserver's service resolver does. A server embedded in a program has no cluster network to
 * resolve {@code NAME.NAMESPACE.svc} in; the program gives its own resolver to {@code
 * ApiServer.Builder.webhookServiceResolver}, such as one mapping a service to {@code
 * https://localhost:PORT}. The TLS name checked against the webhook's certificate is the host of
 * the URL returned.
 *
 * <p>Implementations are thread-safe: webhooks are called concurrently.
 */
@FunctionalInterface
public interface ServiceResolver {
  /**
   * The URL of a service reference.
   *
   * @param namespace the service's namespace
   * @param name the service's name
   * @param port the service's port ({@code 443} when the reference names none)
   * @param path the reference's path, {@code ""} when it names none
   * @return the absolute {@code https} URL to POST the review to
   */
  URI resolve(String namespace, String name, int port, String path);

  /**
   * kube-apiserver's default, {@code https://NAME.NAMESPACE.svc:PORT/PATH}: right where the process
   * resolves cluster DNS names.
   *
   * @return the resolver
   */
  static ServiceResolver clusterDns() {
    return (namespace, name, port, path) ->
        URI.create(
            "https://"
                + Objects.requireNonNull(name, "name")
                + "."
                + Objects.requireNonNull(namespace, "namespace")
                + ".svc:"
                + port
                + (path == null || path.isEmpty()
                    ? "/"
                    : path.startsWith("/") ? path : "/" + path));
  }
}
