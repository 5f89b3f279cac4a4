package dev.machinery.cluster.controller.util;

import dev.machinery.api.KubernetesApi;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.Scheme;

/**
 * Deep copies of the built-in kinds' typed objects (a JSON round trip through the Scheme's codec,
 * without defaulting, so the copy holds exactly what the original did), so a controller or a
 * simulated kubelet never changes an object an informer's cache holds.
 *
 * <p>Stateless, thread-safe.
 */
public final class Copies {
  private static final Codec JSON =
      CodecFactory.create(KubernetesApi.addToScheme(Scheme.builder()).build())
          .json()
          .withDefaulting(false)
          .withFieldValidation(FieldValidation.IGNORE);

  private Copies() {}

  /**
   * Returns a deep copy.
   *
   * @param object a typed object of a built-in kind
   * @param <T> its type
   * @return the copy
   */
  @SuppressWarnings("unchecked")
  public static <T extends ApiObject> T of(T object) {
    return (T) JSON.decode(JSON.encode(object), object.getClass()).object();
  }

  /**
   * Encodes an object, or a part of one, as JSON (for hashes and comparisons).
   *
   * @param object the object
   * @return its JSON bytes
   */
  public static byte[] json(Object object) {
    return JSON.encode(object);
  }
}
