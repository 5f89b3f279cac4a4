/**
 * Configuration of a client as kubectl and client-go build it: kubeconfig files loaded and merged
 * by clientcmd's rules ({@link dev.machinery.client.config.KubeconfigLoader}), the configuration of
 * a pod's service account ({@link dev.machinery.client.config.InClusterConfig}), and programmatic
 * configurations ({@link dev.machinery.client.config.ClientConfig#builder()}). Each produces an
 * immutable {@link dev.machinery.client.config.ClientConfig}: the server, the TLS context, the
 * credentials ({@link dev.machinery.client.config.CredentialSource}: a bearer token, a token file,
 * basic authentication or an exec credential plugin), impersonation, the namespace and the rate
 * limits. Bad input fails with a {@link dev.machinery.client.config.KubeconfigException} naming the
 * file, the entry and the field.
 */
package dev.machinery.client.config;
