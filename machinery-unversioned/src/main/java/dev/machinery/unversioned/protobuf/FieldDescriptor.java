package dev.machinery.unversioned.protobuf;

import java.util.Objects;
import java.util.Optional;

/**
 * A field of a protobuf message: its name, number and label, and the type of its values, a scalar
 * or a message named by its full name (resolved, without a leading dot). A map field ({@code map<K,
 * V>}) has the label {@link Label#MAP}, its key type in {@link #mapKey()} and its value type in
 * {@link #scalar()} or {@link #messageType()}.
 *
 * @param name the field's name in the {@code .proto} file
 * @param number the field number
 * @param label optional, required, repeated or map
 * @param scalar the value type when it is a scalar, else null
 * @param messageType the full name of the value's message type when it is a message, else null
 * @param mapKey the key type of a map field, else null
 * @param packed whether the field says {@code [packed = true]} (a repeated scalar written packed)
 */
public record FieldDescriptor(
    String name,
    int number,
    FieldDescriptor.Label label,
    ScalarType scalar,
    String messageType,
    ScalarType mapKey,
    boolean packed) {

  /** How many values a field holds. */
  public enum Label {
    /** {@code optional}: at most one value. */
    OPTIONAL,
    /** {@code required}: exactly one value (proto2). */
    REQUIRED,
    /** {@code repeated}: any number of values. */
    REPEATED,
    /** {@code map<K, V>}: entries, each a message of key 1 and value 2. */
    MAP
  }

  /**
   * Checks that exactly one of scalar and message type is set, and that a map has a key type.
   *
   * @param name see the record description
   * @param number see the record description
   * @param label see the record description
   * @param scalar see the record description
   * @param messageType see the record description
   * @param mapKey see the record description
   * @param packed see the record description
   * @throws IllegalArgumentException when they are not
   * @throws NullPointerException when the name or label is null
   */
  public FieldDescriptor {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(label, "label");
    if ((scalar == null) == (messageType == null)) {
      throw new IllegalArgumentException(
          "field " + name + ": exactly one of a scalar type and a message type is needed");
    }
    if ((label == Label.MAP) != (mapKey != null)) {
      throw new IllegalArgumentException(
          "field " + name + ": a map field, and only a map field, has a key type");
    }
    if (number < 1) {
      throw new IllegalArgumentException("field " + name + ": numbers start at 1, not " + number);
    }
  }

  /**
   * Returns the scalar type of the values, if they are scalars.
   *
   * @return the type, or empty for a message-typed field
   */
  public Optional<ScalarType> scalarType() {
    return Optional.ofNullable(scalar);
  }

  /**
   * Returns the message type of the values, if they are messages.
   *
   * @return the full name, or empty for a scalar field
   */
  public Optional<String> messageTypeName() {
    return Optional.ofNullable(messageType);
  }

  /**
   * Whether the field holds many values (repeated, or a map).
   *
   * @return true for repeated and map fields
   */
  public boolean isMany() {
    return label == Label.REPEATED || label == Label.MAP;
  }
}
