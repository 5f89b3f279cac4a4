/**
 * A small example API: {@link dev.machinery.examples.api.Widget} in group {@code example.dev}
 * (versions {@code v1} and {@code v1beta1}) and the core group's {@link
 * dev.machinery.examples.api.ConfigMap}, registered by {@link
 * dev.machinery.examples.api.ExampleApi}.
 */
package dev.machinery.examples.api;
