/**
 * The sample server's core {@code v1} kinds: Namespace, ConfigMap and Event, modelled as Kubernetes
 * writes them in JSON and protobuf.
 */
package dev.machinery.examples.core;
