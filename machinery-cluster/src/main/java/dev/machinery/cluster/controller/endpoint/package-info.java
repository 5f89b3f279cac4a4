/**
 * The Endpoints controller (kube-controller-manager's {@code endpoints-controller}, Go's {@code
 * pkg/controller/endpoint}): the legacy {@code Endpoints} of every Service with a selector, and the
 * pod rules it shares with the EndpointSlice controller ({@link
 * dev.machinery.cluster.controller.endpoint.EndpointPods}).
 */
package dev.machinery.cluster.controller.endpoint;
