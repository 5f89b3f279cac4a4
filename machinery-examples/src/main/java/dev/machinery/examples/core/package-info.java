/**
 * Core {@code v1} kinds modelled in Java: Namespace, ConfigMap and Event, as Kubernetes writes them
 * in JSON and protobuf (each class declares its message's field numbers). The sample server serves
 * Kubernetes' own core kinds from {@code machinery-builtins}; these classes show how a program
 * models a kind of Kubernetes' with its protobuf message.
 */
package dev.machinery.examples.core;
