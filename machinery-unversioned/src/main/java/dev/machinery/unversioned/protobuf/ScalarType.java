package dev.machinery.unversioned.protobuf;

import java.util.Locale;
import java.util.Optional;

/** The scalar value types of protobuf, by the names a {@code .proto} file uses for them. */
public enum ScalarType {
  /** {@code double}: 64-bit floating point, fixed 8 bytes. */
  DOUBLE(1),
  /** {@code float}: 32-bit floating point, fixed 4 bytes. */
  FLOAT(5),
  /** {@code int32}: a varint; negative numbers take ten bytes. */
  INT32(0),
  /** {@code int64}: a varint. */
  INT64(0),
  /** {@code uint32}: an unsigned varint. */
  UINT32(0),
  /** {@code uint64}: an unsigned varint. */
  UINT64(0),
  /** {@code sint32}: a zigzag varint. */
  SINT32(0),
  /** {@code sint64}: a zigzag varint. */
  SINT64(0),
  /** {@code fixed32}: unsigned, fixed 4 bytes. */
  FIXED32(5),
  /** {@code fixed64}: unsigned, fixed 8 bytes. */
  FIXED64(1),
  /** {@code sfixed32}: signed, fixed 4 bytes. */
  SFIXED32(5),
  /** {@code sfixed64}: signed, fixed 8 bytes. */
  SFIXED64(1),
  /** {@code bool}: a varint, 0 or 1. */
  BOOL(0),
  /** {@code string}: length-delimited UTF-8. */
  STRING(2),
  /** {@code bytes}: length-delimited bytes. */
  BYTES(2);

  private final int wireType;

  ScalarType(int wireType) {
    this.wireType = wireType;
  }

  /**
   * Returns the wire type a single value of this type is written with.
   *
   * @return 0 (varint), 1 (64-bit), 2 (length-delimited) or 5 (32-bit)
   */
  public int wireType() {
    return wireType;
  }

  /**
   * Returns the name a {@code .proto} file uses.
   *
   * @return the name, such as {@code int64}
   */
  public String protoName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Finds the scalar type a {@code .proto} file names.
   *
   * @param name the name, such as {@code int64}
   * @return the type, or empty when the name is not a scalar type (a message type, then)
   */
  public static Optional<ScalarType> forProtoName(String name) {
    for (ScalarType type : values()) {
      if (type.protoName().equals(name)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }
}
