package dev.machinery.unversioned.unstructured;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import java.util.Objects;

/**
 * Converts between typed objects and {@link Unstructured} ones through the JSON codec, so that a
 * field means exactly what it means on the wire: typed → unstructured → typed is the identity.
 * Converting to a typed class is strict: a field the class does not know raises {@code
 * StrictDecodingException} naming it, rather than being dropped.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class UnstructuredConverter {
  private final CodecFactory codecs;
  private final Codec json;

  /**
   * Creates a converter over a codec factory (its Scheme names the typed classes).
   *
   * @param codecs the codec factory
   */
  public UnstructuredConverter(CodecFactory codecs) {
    this.codecs = Objects.requireNonNull(codecs, "codecs");
    this.json = codecs.json();
  }

  /**
   * Returns the unstructured form of a typed object.
   *
   * @param object the object
   * @return its fields as JSON values
   * @throws dev.machinery.core.codec.EncodeException if the object cannot be encoded
   */
  public Unstructured toUnstructured(Object object) {
    return json.decode(json.encode(object), Unstructured.class).object();
  }

  /**
   * Returns the typed object an unstructured one describes, of the class its kind is registered
   * under.
   *
   * @param object the unstructured object, naming its {@code apiVersion} and {@code kind}
   * @return the typed object
   * @throws dev.machinery.core.codec.DecodeException if the kind is not registered, or a field is
   *     unknown or of the wrong type (the message names the path)
   */
  public Object fromUnstructured(Unstructured object) {
    return json.decode(json.encode(object)).object();
  }

  /**
   * Returns the typed object of a given class that an unstructured one describes.
   *
   * @param object the unstructured object
   * @param type the class wanted
   * @param <T> the class wanted
   * @return the typed object
   * @throws dev.machinery.core.codec.DecodeException if a field is unknown or of the wrong type, or
   *     the object's kind is not one of the class's
   */
  public <T> T fromUnstructured(Unstructured object, Class<T> type) {
    return json.decode(json.encode(object), type).object();
  }

  /**
   * Returns the codec factory the converter uses.
   *
   * @return the factory
   */
  public CodecFactory codecs() {
    return codecs;
  }
}
