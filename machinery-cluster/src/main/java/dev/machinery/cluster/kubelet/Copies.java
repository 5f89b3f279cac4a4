package dev.machinery.cluster.kubelet;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.runtime.Scheme;

/**
 * Deep copies of typed API objects read from an informer's cache (which must never be changed),
 * made by a JSON round trip through a Scheme's codec, without defaulting.
 *
 * <p>Immutable and thread-safe.
 */
public final class Copies {
  private final Codec json;

  /**
   * Makes copies with the codecs of a Scheme that holds the objects' classes.
   *
   * @param scheme the Scheme
   */
  public Copies(Scheme scheme) {
    this.json =
        CodecFactory.create(scheme)
            .json()
            .withDefaulting(false)
            .withFieldValidation(FieldValidation.IGNORE);
  }

  /**
   * Copies an object.
   *
   * @param object the object
   * @param type its class
   * @param <T> its class
   * @return a copy sharing nothing mutable with it
   */
  public <T> T copy(T object, Class<T> type) {
    return json.decode(json.encode(object), type).object();
  }
}
