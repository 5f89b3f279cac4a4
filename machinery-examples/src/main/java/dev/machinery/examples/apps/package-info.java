/**
 * A Deployment of {@code apps/v1} modelled with the library's value types (quantities,
 * int-or-strings, label selectors, times), as a user would model a real Kubernetes kind; {@link
 * dev.machinery.examples.apps.AppsV1} registers it.
 */
package dev.machinery.examples.apps;
