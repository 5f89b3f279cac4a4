/**
 * A Deployment of {@code apps/v1} modelled with the library's value types (quantities,
 * int-or-strings, label selectors, times), as a user would model a real Kubernetes kind to decode
 * and write manifests; {@link dev.machinery.examples.apps.AppsV1} registers it. The sample server
 * serves Kubernetes' own Deployment from {@code machinery-builtins}; its {@code demo.example.dev}
 * Rollout ({@link dev.machinery.examples.demo}) reuses this spec and status, whose deep copies are
 * generated.
 */
@GenerateDeepCopy
package dev.machinery.examples.apps;

import dev.machinery.conversion.GenerateDeepCopy;
