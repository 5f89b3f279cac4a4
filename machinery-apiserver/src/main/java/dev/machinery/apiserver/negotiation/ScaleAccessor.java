package dev.machinery.apiserver.negotiation;

import dev.machinery.unversioned.meta.v1.Scale;

/**
 * The one generic interface through which a scalable kind's {@code scale} subresource is read and
 * written: registered per kind by the embedding server. Implementations are stateless.
 *
 * @param <T> the scalable kind's class
 */
public interface ScaleAccessor<T> {
  /**
   * Returns the object's scale: desired and observed replicas and the pod selector.
   *
   * @param object the object
   * @return a new Scale (its metadata names the object)
   */
  Scale read(T object);

  /**
   * Sets the object's desired replicas from a Scale.
   *
   * @param object the object, changed in place
   * @param scale the Scale sent by the client
   */
  void write(T object, Scale scale);
}
