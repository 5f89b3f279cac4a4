/**
 * A sample controller on the controller runtime and the client, the web page operator pattern: a
 * {@code web.example.dev/v1} {@link dev.machinery.examples.webpage.WebPage} owns a ConfigMap
 * holding its content. {@link dev.machinery.examples.webpage.WebPageReconciler} creates and updates
 * the ConfigMap (with an owner reference marked {@code controller}), writes the page's status
 * through the {@code status} subresource and records events; {@link
 * dev.machinery.examples.webpage.WebPageController} wires it into a Manager, and {@link
 * dev.machinery.examples.webpage.WebPageOperator} runs it against a kubeconfig.
 */
package dev.machinery.examples.webpage;
