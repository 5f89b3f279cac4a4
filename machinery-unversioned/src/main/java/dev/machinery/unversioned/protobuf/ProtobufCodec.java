package dev.machinery.unversioned.protobuf;

import dev.machinery.conversion.ProtoField;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.EncodeException;
import dev.machinery.core.codec.UnknownKindException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.runtime.TypeAccessor;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Objects;

/**
 * Kubernetes' protobuf encoding, {@code application/vnd.kubernetes.protobuf}: the four bytes {@code
 * k8s\0}, then a {@code runtime.Unknown} message holding the type meta ({@code apiVersion}, {@code
 * kind}), the object's own message and the (empty) content encoding and type. Objects are written
 * and read by the {@link ProtoField} numbers of their classes, as Go's generated code writes them,
 * so the bytes are Kubernetes' bytes. Reading is bounded by the codec limits (the message size by
 * {@code maxJsonBytes}, nesting by {@code maxNestingDepth}), every length is checked, and a
 * malformed message is a {@link DecodeException}; unknown fields are skipped, as Kubernetes skips
 * them.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class ProtobufCodec implements ProtobufEncoding {
  /** The media type. */
  public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

  private final Scheme scheme;
  private final CodecLimits limits;
  private final ProtoMessages messages;

  private ProtobufCodec(Scheme scheme, CodecLimits limits) {
    this.scheme = Objects.requireNonNull(scheme, "scheme");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.messages = new ProtoMessages(limits.maxNestingDepth());
  }

  /**
   * Creates a codec with the default limits.
   *
   * @param scheme the types to read and write
   * @return the codec
   */
  public static ProtobufCodec create(Scheme scheme) {
    return new ProtobufCodec(scheme, CodecLimits.DEFAULTS);
  }

  /**
   * Creates a codec with limits.
   *
   * @param scheme the types to read and write
   * @param limits the limits on what is read
   * @return the codec
   */
  public static ProtobufCodec create(Scheme scheme, CodecLimits limits) {
    return new ProtobufCodec(scheme, limits);
  }

  /**
   * Whether objects of a class can be written in this encoding: the class declares its protobuf
   * message with {@link ProtoField} numbers (at least one, none twice).
   *
   * @param type the class
   * @return true when {@link #encode} can write it
   */
  @Override
  public boolean canEncode(Class<?> type) {
    return ProtoMessages.declares(Objects.requireNonNull(type, "type"));
  }

  /**
   * Writes an object in the envelope, as the kind the Scheme gives it.
   *
   * @param object the object
   * @return the bytes
   * @throws EncodeException when the object's class declares no protobuf message
   */
  @Override
  public byte[] encode(Object object) {
    GroupVersionKind kind = scheme.kindFor(Objects.requireNonNull(object, "object"));
    byte[] raw;
    try {
      raw = messages.write(object);
    } catch (IllegalStateException e) {
      throw new EncodeException("cannot encode " + kind + " as protobuf: " + e.getMessage(), e);
    }
    return Envelope.wrap(kind.groupVersion().toString(), kind.kind(), raw);
  }

  /**
   * Reads an object from the envelope, as the kind it names.
   *
   * @param data the bytes
   * @return the object and its kind
   * @throws DecodeException for bytes that are not a Kubernetes protobuf object, or a malformed
   *     message
   * @throws UnknownKindException when the kind is not registered
   */
  @Override
  public Decoded<Object> decode(byte[] data) {
    return decode(data, Object.class);
  }

  /**
   * Reads an object of a type from the envelope.
   *
   * @param data the bytes
   * @param type the expected type
   * @param <T> the type
   * @return the object and its kind
   * @throws DecodeException as {@link #decode(byte[])}, or when the kind is of another type
   */
  @Override
  public <T> Decoded<T> decode(byte[] data, Class<T> type) {
    Envelope.Opened opened = Envelope.open(data, limits);
    String apiVersion = opened.apiVersion();
    String kind = opened.kind();
    ProtoReader raw = opened.raw();
    String typeApiVersion = apiVersion;
    String typeKind = kind;
    GroupVersionKind gvk = GroupVersionKind.fromApiVersionAndKind(apiVersion, kind);
    Class<?> registered =
        scheme
            .typeFor(gvk)
            .orElseThrow(
                () ->
                    new UnknownKindException(
                        gvk,
                        new dev.machinery.core.runtime.NotRegisteredException(
                            gvk,
                            "no kind \""
                                + typeKind
                                + "\" is registered for version \""
                                + typeApiVersion
                                + "\"")));
    if (!type.isAssignableFrom(registered)) {
      throw new DecodeException("the body holds a " + gvk + ", not a " + type.getName(), "");
    }
    Object object = messages.read(raw, registered, 0, kind);
    TypeAccessor.find(registered)
        .ifPresent(
            accessor -> {
              accessor.setApiVersion(object, typeApiVersion);
              accessor.setKind(object, typeKind);
            });
    return new Decoded<>(type.cast(object), gvk, List.of());
  }
}
