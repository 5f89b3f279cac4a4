package dev.machinery.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.protobuf.ProtobufEncoding;
import java.util.Optional;

/**
 * The codecs of one client: the caller's Scheme (JSON, and protobuf when asked for), and the
 * client's own Scheme of the {@code meta.k8s.io/v1} and discovery types (Status, Scale, options,
 * discovery documents), which the caller's Scheme need not hold. Responses are decoded ignoring
 * fields the classes lack, as Go's clients do with a newer server. Immutable; thread-safe.
 */
final class Codecs {
  static final String JSON = "application/json";

  /** Jackson trees, for list bodies and watch frames. */
  static final ObjectMapper TREES = ObjectJson.mapperBuilder().build();

  final Scheme scheme;
  final Codec json;
  final Codec metaJson;
  final CodecFactory metaFactory;
  private final ProtobufEncoding protobuf;
  final CodecLimits limits;

  Codecs(
      Scheme scheme,
      CodecFactory factory,
      CodecFactory metaFactory,
      ProtobufEncoding protobuf,
      CodecLimits limits) {
    this.scheme = scheme;
    this.json = factory.json().withFieldValidation(FieldValidation.IGNORE);
    this.metaFactory = metaFactory;
    this.metaJson = metaFactory.json().withFieldValidation(FieldValidation.IGNORE);
    this.protobuf = protobuf;
    this.limits = limits;
  }

  /** The protobuf codec, when the client speaks protobuf for this class. */
  Optional<ProtobufEncoding> protobufFor(Class<?> type) {
    return protobuf != null && protobuf.canEncode(type) ? Optional.of(protobuf) : Optional.empty();
  }

  /** The protobuf codec, when the client was built to speak it. */
  Optional<ProtobufEncoding> protobuf() {
    return Optional.ofNullable(protobuf);
  }

  /** The JSON codec that knows a class: the caller's Scheme's, else the client's own. */
  Codec jsonFor(Class<?> type) {
    return scheme.kindsFor(type).isEmpty() && !metaFactory.scheme().kindsFor(type).isEmpty()
        ? metaJson
        : json;
  }
}
