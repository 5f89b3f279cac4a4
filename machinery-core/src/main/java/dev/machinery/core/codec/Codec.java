package dev.machinery.core.codec;

import dev.machinery.core.internal.Messages;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * Decodes documents into the {@link Scheme}'s types, finding each document's type from its {@code
 * apiVersion} and {@code kind}, and encodes objects with {@code apiVersion} and {@code kind}
 * written first.
 *
 * <p>JSON is parsed once: when {@code apiVersion} and {@code kind} come first the same parser goes
 * on to bind the object; when they come later, one pass over the bytes (no tokenizing) finds them
 * and the object is bound directly, and only a document whose root keys hold escapes has its fields
 * buffered as tokens (never as a tree). YAML streams may hold several documents ({@link
 * #decodeAll}); empty documents are skipped; aliases and merge keys are expanded under a budget;
 * plain scalars follow the YAML 1.2 core schema. Unknown and duplicate fields are handled as {@link
 * #fieldValidation()} says.
 *
 * <p>Codecs are obtained from a {@link CodecFactory} and varied with {@link #withFieldValidation},
 * {@link #pretty} and {@link #withDefaulting}. Immutable and safe for concurrent use.
 */
public final class Codec {
  /** The formats a codec speaks. */
  enum Format {
    JSON("application/json") {
      @Override
      FormatDecoder decoder(Binder binder) {
        return new JsonDecoder(binder);
      }
    },
    YAML("application/yaml") {
      @Override
      FormatDecoder decoder(Binder binder) {
        return new YamlDecoder(binder);
      }
    };

    final String mediaType;

    Format(String mediaType) {
      this.mediaType = mediaType;
    }

    /** The format's decoder, binding under the given settings. */
    abstract FormatDecoder decoder(Binder binder);
  }

  private final CodecFactory factory;
  private final Format format;
  private final FieldValidation validation;
  private final boolean pretty;
  private final boolean defaulting;
  private final GroupVersioner decodeTarget;
  private final GroupVersioner encodeTarget;
  private final GroupVersionKind defaultKind;
  private final Encoder encoder;
  private final FormatDecoder decoder;

  Codec(
      CodecFactory factory,
      Format format,
      FieldValidation validation,
      boolean pretty,
      boolean defaulting) {
    this(factory, format, validation, pretty, defaulting, null, null, null);
  }

  private Codec(
      CodecFactory factory,
      Format format,
      FieldValidation validation,
      boolean pretty,
      boolean defaulting,
      GroupVersioner decodeTarget,
      GroupVersioner encodeTarget,
      GroupVersionKind defaultKind) {
    this.factory = factory;
    this.defaultKind = defaultKind;
    this.format = format;
    this.validation = validation;
    this.pretty = pretty;
    this.defaulting = defaulting;
    this.decodeTarget = decodeTarget;
    this.encodeTarget = encodeTarget;
    this.encoder = new Encoder(factory, format, pretty, encodeTarget);
    this.decoder =
        format.decoder(
            new Binder(factory, format, validation, defaulting, decodeTarget, defaultKind));
  }

  /**
   * Returns a codec like this one that converts every decoded object, through the internal form,
   * into the kind {@code target} chooses; {@code GroupVersioner.internal()} decodes into the
   * internal form. The {@link Decoded#kind()} stays the kind the document named.
   *
   * @param target the target versions
   * @return the codec
   */
  public Codec decodingTo(GroupVersioner target) {
    return new Codec(
        factory,
        format,
        validation,
        pretty,
        defaulting,
        Objects.requireNonNull(target, "target"),
        encodeTarget,
        defaultKind);
  }

  /**
   * Returns a codec like this one that converts every object it encodes, through the internal form,
   * into the kind {@code target} chooses, such as {@code GroupVersioner.of(apps/v1)}. The object
   * given is not changed.
   *
   * @param target the target versions
   * @return the codec
   */
  public Codec encodingTo(GroupVersioner target) {
    return new Codec(
        factory,
        format,
        validation,
        pretty,
        defaulting,
        decodeTarget,
        Objects.requireNonNull(target, "target"),
        defaultKind);
  }

  /**
   * Returns a codec like this one with another field validation mode.
   *
   * @param mode what to do with unknown and duplicate fields
   * @return the codec
   */
  public Codec withFieldValidation(FieldValidation mode) {
    return new Codec(
        factory,
        format,
        Objects.requireNonNull(mode, "mode"),
        pretty,
        defaulting,
        decodeTarget,
        encodeTarget,
        defaultKind);
  }

  /**
   * Returns a codec like this one that encodes JSON indented by two spaces, one field or element a
   * line. YAML output is unaffected.
   *
   * @return the codec
   */
  public Codec pretty() {
    return new Codec(
        factory, format, validation, true, defaulting, decodeTarget, encodeTarget, defaultKind);
  }

  /**
   * Returns a codec like this one that, when {@code enabled}, applies the scheme's defaulting
   * functions to every decoded object.
   *
   * @param enabled whether to apply defaults
   * @return the codec
   */
  public Codec withDefaulting(boolean enabled) {
    return new Codec(
        factory, format, validation, pretty, enabled, decodeTarget, encodeTarget, defaultKind);
  }

  /**
   * Returns a codec like this one that takes a document without {@code apiVersion} or {@code kind}
   * to be of the given kind, as kube-apiserver's decoder takes a request body to be of the kind its
   * endpoint serves. A document that names another kind is still read as that kind.
   *
   * @param kind the kind a document that names none is of
   * @return the codec
   */
  public Codec withDefaultKind(GroupVersionKind kind) {
    return new Codec(
        factory,
        format,
        validation,
        pretty,
        defaulting,
        decodeTarget,
        encodeTarget,
        Objects.requireNonNull(kind, "kind"));
  }

  /**
   * Returns the field validation mode.
   *
   * @return the mode
   */
  public FieldValidation fieldValidation() {
    return validation;
  }

  /**
   * Returns the media type the codec reads and writes: {@code application/json} or {@code
   * application/yaml}.
   *
   * @return the media type
   */
  public String mediaType() {
    return format.mediaType;
  }

  // ---------------------------------------------------------------------------------- decoding

  /**
   * Decodes one document.
   *
   * @param data UTF-8 text
   * @return the object, its kind and any warnings
   * @throws DecodeException if the document is malformed, breaks a limit, does not name its type,
   *     or (in {@link FieldValidation#STRICT} mode) has unknown or duplicate fields; a YAML stream
   *     must hold exactly one non-empty document; {@link UnknownKindException} if the document's
   *     kind is not registered
   */
  public Decoded<Object> decode(byte[] data) {
    return decode(data, data.length, Object.class);
  }

  /**
   * Decodes one document given as a string.
   *
   * @param text the document
   * @return the object, its kind and any warnings
   * @throws DecodeException as {@link #decode(byte[])}
   */
  public Decoded<Object> decode(String text) {
    return decode(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Decodes one document from a stream, reading at most the size limit (plus one byte, to tell that
   * the limit was passed). The stream is not closed.
   *
   * @param in UTF-8 text
   * @return the object, its kind and any warnings
   * @throws DecodeException as {@link #decode(byte[])}, or if the stream fails
   */
  public Decoded<Object> decode(InputStream in) {
    byte[] data = readBounded(in);
    return decode(data, data.length, Object.class);
  }

  /**
   * Decodes one document that must be of type {@code type} (or a subtype).
   *
   * @param data UTF-8 text
   * @param type the expected type
   * @param <T> the expected type
   * @return the object, its kind and any warnings
   * @throws DecodeException as {@link #decode(byte[])}, or if the document's kind is registered to
   *     a type that is not {@code type}
   */
  public <T> Decoded<T> decode(byte[] data, Class<T> type) {
    return decode(data, data.length, type);
  }

  /**
   * Decodes one document, given as a string, that must be of type {@code type} (or a subtype).
   *
   * @param text the document
   * @param type the expected type
   * @param <T> the expected type
   * @return the object, its kind and any warnings
   * @throws DecodeException as {@link #decode(byte[], Class)}
   */
  public <T> Decoded<T> decode(String text, Class<T> type) {
    return decode(text.getBytes(StandardCharsets.UTF_8), type);
  }

  /**
   * Decodes one document, read from a stream (bounded by the size limit, not closed), that must be
   * of type {@code type} (or a subtype).
   *
   * @param in UTF-8 text
   * @param type the expected type
   * @param <T> the expected type
   * @return the object, its kind and any warnings
   * @throws DecodeException as {@link #decode(byte[], Class)}, or if the stream fails
   */
  public <T> Decoded<T> decode(InputStream in, Class<T> type) {
    byte[] data = readBounded(in);
    return decode(data, data.length, type);
  }

  /**
   * Decodes the items of a list from a stream one at a time: from JSON in the memory of one item,
   * for lists of any size; from YAML after reading the body under {@code maxYamlBytes} (see {@link
   * ItemStream}).
   *
   * @param in the stream, closed when the returned stream is closed
   * @param type the items' class ({@code Object.class} for any kind)
   * @param <T> the items' class
   * @return the items
   * @throws DecodeException when the stream does not start as a JSON list
   */
  public <T> ItemStream<T> decodeItems(InputStream in, Class<T> type) {
    return decoder.decodeItems(this, in, type);
  }

  /**
   * Decodes every object of a body, in order: each non-empty document of a YAML stream, each of the
   * concatenated objects of a JSON body, and, in either, the items of a document of Kubernetes'
   * generic {@code v1 List} kind (what {@code kubectl get -o json} prints and {@code kubectl apply
   * -f} reads), each as the kind it names.
   *
   * @param data UTF-8 text
   * @return the decoded objects
   * @throws DecodeException as {@link #decode(byte[])}; its message starts with where the failing
   *     object stands ({@code document 2 of 3}, {@code item 4 of 9 of the List}) and {@link
   *     DecodeException#document()} gives its document
   */
  public List<Decoded<Object>> decodeAll(byte[] data) {
    return decodeAll(data, data.length);
  }

  /**
   * Decodes every object of a body given as a string, as {@link #decodeAll(byte[])} does.
   *
   * @param text the stream
   * @return the decoded documents
   * @throws DecodeException as {@link #decodeAll(byte[])}
   */
  public List<Decoded<Object>> decodeAll(String text) {
    return decodeAll(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Decodes every object of a body read from {@code in} (bounded by the size limit), as {@link
   * #decodeAll(byte[])} does. The stream is not closed.
   *
   * @param in UTF-8 text
   * @return the decoded documents
   * @throws DecodeException as {@link #decodeAll(byte[])}, or if the stream fails
   */
  public List<Decoded<Object>> decodeAll(InputStream in) {
    byte[] data = readBounded(in);
    return decodeAll(data, data.length);
  }

  private <T> Decoded<T> decode(byte[] data, int length, Class<T> expected) {
    return decoder.decode(data, length, expected);
  }

  private List<Decoded<Object>> decodeAll(byte[] data, int length) {
    return decoder.decodeAll(data, length);
  }

  private byte[] readBounded(InputStream in) {
    try {
      byte[] data = in.readNBytes(decoder.maxBytes() + 1);
      decoder.checkSize(data.length);
      return data;
    } catch (IOException e) {
      throw new DecodeException(
          "could not read the body: " + Messages.sanitize(e.getMessage()), "", 0, 0, e);
    }
  }

  // ---------------------------------------------------------------------------------- encoding

  /**
   * Encodes an object as the kind {@link Scheme#kindFor} gives it, {@code apiVersion} and {@code
   * kind} first. The object is not changed.
   *
   * @param object the object
   * @return UTF-8 JSON or YAML
   * @throws dev.machinery.core.runtime.NotRegisteredException if the object's type is not
   *     registered
   * @throws dev.machinery.core.runtime.AmbiguousKindException if its type has several kinds and the
   *     object names none
   * @throws EncodeException if a value cannot be written
   */
  public byte[] encode(Object object) {
    return encoder.encode(Objects.requireNonNull(object, "object"));
  }

  /**
   * Encodes an object as it is written inside another object (an item of a list): compact JSON
   * whatever this codec's format, the object neither converted nor given the Scheme's kind (it
   * keeps the {@code apiVersion} and {@code kind} it holds, as a list's items do). The bytes are
   * those the item has inside the compact JSON encoding of a list that holds it, so an item encoded
   * once can be copied into many lists.
   *
   * @param object the object
   * @return UTF-8 JSON
   * @throws EncodeException if a value cannot be written
   */
  public byte[] encodeItem(Object object) {
    return encoder.encodeItem(Objects.requireNonNull(object, "object"));
  }

  /**
   * Encodes an object as a string.
   *
   * @param object the object
   * @return JSON or YAML text
   * @throws EncodeException as {@link #encode(Object)}
   */
  public String encodeToString(Object object) {
    return new String(encode(object), StandardCharsets.UTF_8);
  }

  /**
   * Encodes an object to a stream, which is flushed but not closed.
   *
   * @param object the object
   * @param out the destination
   * @throws EncodeException as {@link #encode(Object)}, or if the stream fails
   */
  public void encode(Object object, OutputStream out) {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(out, "out");
    encoder.encode(object, out);
  }
}
