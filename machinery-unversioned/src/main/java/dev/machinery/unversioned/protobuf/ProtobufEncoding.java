package dev.machinery.unversioned.protobuf;

import dev.machinery.core.codec.Decoded;

/**
 * Kubernetes' protobuf encoding ({@value ProtobufCodec#MEDIA_TYPE}) of a program's typed classes,
 * as a client or a server needs it: which classes it can write, and the envelope written and read.
 * {@link ProtobufCodec} is the one for classes that declare their messages with {@link
 * dev.machinery.conversion.ProtoField} numbers; {@code machinery-api}'s {@code KubernetesProtobuf}
 * the one for Kubernetes' built-in kinds, by the numbers of Kubernetes' own {@code .proto} files.
 *
 * <p>Implementations must be safe for concurrent use.
 */
public interface ProtobufEncoding {
  /**
   * Whether objects of a class can be written in this encoding.
   *
   * @param type the class
   * @return true when {@link #encode} can write it
   */
  boolean canEncode(Class<?> type);

  /**
   * Writes an object in Kubernetes' protobuf envelope, as its kind.
   *
   * @param object the object
   * @return the bytes
   * @throws dev.machinery.core.codec.EncodeException when the object cannot be written
   */
  byte[] encode(Object object);

  /**
   * Reads an object from the envelope, as the kind it names.
   *
   * @param data the bytes
   * @return the object and its kind
   * @throws dev.machinery.core.codec.DecodeException for bytes that are not a Kubernetes protobuf
   *     object of a known kind
   */
  Decoded<Object> decode(byte[] data);

  /**
   * Reads an object of a type from the envelope.
   *
   * @param data the bytes
   * @param type the expected type
   * @param <T> the type
   * @return the object and its kind
   * @throws dev.machinery.core.codec.DecodeException as {@link #decode(byte[])}, or when the kind
   *     is of another type
   */
  <T> Decoded<T> decode(byte[] data, Class<T> type);
}
