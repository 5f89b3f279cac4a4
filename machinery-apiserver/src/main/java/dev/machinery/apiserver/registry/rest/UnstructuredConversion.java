package dev.machinery.apiserver.registry.rest;

import dev.machinery.core.schema.GroupVersion;
import java.util.Map;

/**
 * How objects of a resource held without classes ({@code Unstructured} JSON trees, as custom
 * resources are) move between the versions it is served in: the server converts each object it
 * stores into the storage version and each object it answers into the version the request names.
 * The storage version may be of another group, for a resource kube-apiserver stores as another
 * group's kind ({@code events.k8s.io} Events, stored as core {@code v1} Events); field management
 * then reads stored objects converted too. Kubernetes' {@code None} strategy ({@link #none()}) only
 * rewrites {@code apiVersion}; a server may register its own for a group of custom resources
 * ({@link dev.machinery.apiserver.ApiServer.Builder#conversion}), in place of kube-apiserver's
 * conversion webhook. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface UnstructuredConversion {
  /**
   * Converts an object, in place, from the version its {@code apiVersion} names into {@code to},
   * and sets its {@code apiVersion} to {@code to}.
   *
   * @param object the object's content, changed in place
   * @param to the version to convert it into
   * @throws IllegalArgumentException when the object cannot be converted (answered {@code 500}, as
   *     kube-apiserver answers a conversion webhook's failure)
   * @throws dev.machinery.unversioned.errors.StatusException to answer with its own status, such as
   *     {@code 400} for an object a client wrote that cannot be read in the other version
   */
  void convert(Map<String, Object> object, GroupVersion to);

  /**
   * Kubernetes' {@code None} strategy: only {@code apiVersion} changes.
   *
   * @return the conversion
   */
  static UnstructuredConversion none() {
    return (object, to) -> object.put("apiVersion", to.toString());
  }
}
