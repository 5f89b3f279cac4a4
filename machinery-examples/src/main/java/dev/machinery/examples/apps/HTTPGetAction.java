package dev.machinery.examples.apps;

import dev.machinery.unversioned.intstr.IntOrString;

/**
 * An HTTP GET check ({@code HTTPGetAction}); the port is a number or a name. Components are in
 * Kubernetes' field order, so that the JSON is written as kube-apiserver writes it.
 *
 * @param path the path
 * @param port the port, by number or name
 * @param scheme {@code HTTP} or {@code HTTPS}
 */
public record HTTPGetAction(String path, IntOrString port, String scheme) {}
