package dev.machinery.examples.apps;

import dev.machinery.unversioned.meta.v1.ObjectMeta;

/**
 * The pods a controller makes ({@code PodTemplateSpec}). Components are in Kubernetes' field order,
 * so that the JSON is written as kube-apiserver writes it.
 *
 * @param metadata the pods' metadata
 * @param spec the pods' spec
 */
public record PodTemplateSpec(ObjectMeta metadata, PodSpec spec) {}
