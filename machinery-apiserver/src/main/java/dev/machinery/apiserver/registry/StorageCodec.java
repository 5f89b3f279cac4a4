package dev.machinery.apiserver.registry;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.storage.StorageMediaType;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.patch.Patches;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.protobuf.KubeProtos;
import dev.machinery.unversioned.protobuf.SchemaProtobufCodec;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * How one resource's objects become the values kept in the storage and back, as kube-apiserver's
 * storage codec: the one place that chooses the stored media type and reads stored bytes. It writes
 * JSON, or, when the server stores {@link StorageMediaType#PROTOBUF} and Kubernetes' {@code .proto}
 * files give the resource's storage kind a message ({@link KubeProtos}), that message in the {@code
 * k8s\0} envelope, as kube-apiserver writes a built-in kind; a custom resource is always JSON (kube
 * stores them so). It reads either, whatever it writes, telling them apart by the envelope's magic
 * bytes as kube's storage decoder recognizes them, so a store keeps reading across a change of the
 * media type. A protobuf value is read into the JSON form of its kind (Go's JSON of the decoded
 * object: zero values Go writes {@code omitempty} are left out) and decoded from there, so it meets
 * the same read path as a JSON value.
 *
 * <p>Encryption at rest sits below this codec: it transforms the bytes this codec writes.
 *
 * <p>Immutable and thread-safe.
 */
public final class StorageCodec {
  private static final byte[] MAGIC = {'k', '8', 's', 0};

  /** Reads JSON into trees, and writes decoded trees as Go writes them (see {@link GoDoubles}). */
  private static final ObjectMapper TREES =
      ObjectJson.mapperBuilder()
          // Doubles as Go writes a float64, so that a schema's minimum: 1 read from protobuf is
          // answered 1, as kube-apiserver answers it.
          .addModule(ObjectJson.goNumbers())
          .build();

  private static final TypeReference<Map<String, Object>> TREE = new TypeReference<>() {};

  /** Kubernetes' messages, parsed when first needed (the class is loaded on first use). */
  private static final class KubeMessages {
    static final SchemaProtobufCodec CODEC = SchemaProtobufCodec.create(KubeProtos.v1_33());
  }

  private final Codec json;
  private final GroupVersionKind storageKind;
  private final boolean writesProtobuf;

  private StorageCodec(Codec json, GroupVersionKind storageKind, boolean writesProtobuf) {
    this.json = Objects.requireNonNull(json, "json");
    this.storageKind = Objects.requireNonNull(storageKind, "storageKind");
    this.writesProtobuf = writesProtobuf;
  }

  /**
   * The codec of a resource stored in a media type: protobuf when asked for and the storage kind
   * has a Kubernetes message, JSON otherwise.
   *
   * @param mediaType the server's storage media type
   * @param json the JSON codec objects are encoded and decoded with
   * @param storageKind the kind in the resource's storage version
   * @return the codec
   */
  public static StorageCodec of(
      StorageMediaType mediaType, Codec json, GroupVersionKind storageKind) {
    Objects.requireNonNull(mediaType, "mediaType");
    boolean protobuf =
        mediaType == StorageMediaType.PROTOBUF
            && KubeMessages.CODEC.has(Objects.requireNonNull(storageKind, "storageKind"));
    return new StorageCodec(json, storageKind, protobuf);
  }

  /**
   * The codec of a resource stored as JSON whatever the server's media type, as kube-apiserver
   * stores custom resources.
   *
   * @param json the JSON codec
   * @param storageKind the kind in the resource's storage version
   * @return the codec
   */
  public static StorageCodec json(Codec json, GroupVersionKind storageKind) {
    return new StorageCodec(json, storageKind, false);
  }

  /**
   * Returns the media type this codec writes.
   *
   * @return {@link StorageMediaType#PROTOBUF} or {@link StorageMediaType#JSON}
   */
  public StorageMediaType mediaType() {
    return writesProtobuf ? StorageMediaType.PROTOBUF : StorageMediaType.JSON;
  }

  /**
   * Whether a stored value is in Kubernetes' protobuf envelope (it starts with {@code k8s\0}).
   *
   * @param value the stored bytes
   * @return true for protobuf, false for anything else (read as JSON)
   */
  public static boolean isProtobuf(byte[] value) {
    return value.length >= MAGIC.length
        && value[0] == MAGIC[0]
        && value[1] == MAGIC[1]
        && value[2] == MAGIC[2]
        && value[3] == MAGIC[3];
  }

  /**
   * Encodes an object, in the storage version, as the value to store.
   *
   * @param object the object
   * @return the bytes
   * @throws dev.machinery.core.codec.EncodeException naming the field when a value does not fit the
   *     kind's message
   */
  public byte[] encode(Object object) {
    byte[] encoded = json.encode(object);
    if (!writesProtobuf) {
      return encoded;
    }
    return KubeMessages.CODEC.encode(storageKind, tree(encoded));
  }

  /**
   * Decodes a stored value, JSON or protobuf, into a class.
   *
   * @param value the stored bytes
   * @param type the class the resource's objects are held in
   * @param <T> the type
   * @return the object
   * @throws dev.machinery.core.codec.DecodeException naming the field path for a malformed value
   * @throws dev.machinery.core.codec.UnknownKindException for a protobuf value of a kind
   *     Kubernetes' messages do not describe
   */
  public <T> T decode(byte[] value, Class<T> type) {
    return json.decode(isProtobuf(value) ? toJson(value) : value, type).object();
  }

  /**
   * Whether an encoding this codec made holds the same object as a stored value: the same bytes,
   * or, in the same media type, the same content (a JSON object whose keys came in another order; a
   * protobuf message that differs only in zero values Go would write or leave out, which decode to
   * the same object). A value in the other media type is never the same, so that an update that
   * changes nothing rewrites it in the current one, as kube-apiserver compares the stored bytes.
   *
   * @param encoded bytes from {@link #encode}
   * @param stored the stored value
   * @return whether writing {@code encoded} would change nothing
   */
  public boolean sameObject(byte[] encoded, byte[] stored) {
    if (Arrays.equals(encoded, stored)) {
      return true;
    }
    boolean protobuf = isProtobuf(encoded);
    if (protobuf != isProtobuf(stored)) {
      return false;
    }
    if (protobuf) {
      return KubeMessages.CODEC
          .decode(encoded, storageKind)
          .equals(KubeMessages.CODEC.decode(stored, storageKind));
    }
    // A reordering of a JSON object's keys keeps the length, so only equal lengths are parsed.
    return encoded.length == stored.length
        && Patches.readTree(encoded, "the object").equals(Patches.readTree(stored, "the object"));
  }

  /** A protobuf value as the JSON of its kind, {@code apiVersion} and {@code kind} first. */
  private byte[] toJson(byte[] value) {
    Map<String, Object> tree = KubeMessages.CODEC.decode(value, storageKind);
    try {
      return TREES.writeValueAsBytes(tree);
    } catch (IOException e) {
      throw new IllegalStateException("writing a decoded protobuf value as JSON failed", e);
    }
  }

  private static Map<String, Object> tree(byte[] encoded) {
    try {
      return TREES.readValue(encoded, TREE);
    } catch (IOException e) {
      throw new IllegalStateException("reading an object's own JSON back failed", e);
    }
  }
}
