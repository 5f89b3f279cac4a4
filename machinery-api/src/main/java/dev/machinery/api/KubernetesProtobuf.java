package dev.machinery.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.EncodeException;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.protobuf.KubeProtos;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import dev.machinery.unversioned.protobuf.ProtobufEncoding;
import dev.machinery.unversioned.protobuf.SchemaProtobufCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Kubernetes' protobuf encoding ({@value #MEDIA_TYPE}) of the typed models: an object is written by
 * the factory's JSON codec into a JSON tree, and the tree by the field numbers of Kubernetes' own
 * {@code generated.proto} files ({@link KubeProtos#v1_33()}) through {@link SchemaProtobufCodec};
 * reading goes the other way, so what the JSON codec checks (strict fields, limits, value types) it
 * checks here too. The models carry no field numbers of their own: the {@code .proto} files are the
 * one source of them, as the OpenAPI document is of the JSON.
 *
 * <p>A list kind ({@code DeploymentList}) is written as Go writes typed lists, its items without
 * their own {@code apiVersion} and {@code kind}.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class KubernetesProtobuf implements ProtobufEncoding {
  /** The media type: {@value}. */
  public static final String MEDIA_TYPE = ProtobufCodec.MEDIA_TYPE;

  private static final TypeReference<Map<String, Object>> TREE = new TypeReference<>() {};

  private final Codec json;
  private final Scheme scheme;
  private final SchemaProtobufCodec protobuf;
  private final ObjectMapper trees;

  private KubernetesProtobuf(Codec json, Scheme scheme, SchemaProtobufCodec protobuf) {
    this.json = json;
    this.scheme = scheme;
    this.protobuf = protobuf;
    this.trees =
        ObjectJson.mapperBuilder().enable(DeserializationFeature.USE_LONG_FOR_INTS).build();
  }

  /**
   * Creates the codec over a factory whose scheme holds the kinds (see {@link
   * KubernetesApi#addToScheme}), with the factory's limits.
   *
   * @param factory the codec factory
   * @return the codec
   */
  public static KubernetesProtobuf create(CodecFactory factory) {
    Objects.requireNonNull(factory, "factory");
    return new KubernetesProtobuf(
        factory.json(),
        factory.scheme(),
        SchemaProtobufCodec.create(KubeProtos.v1_33(), factory.limits()));
  }

  /**
   * Returns whether objects of a class can be written: the scheme registers it, and Kubernetes'
   * {@code .proto} files have a message for each kind it is registered as.
   *
   * @param type the class
   * @return whether {@link #encode} can write its objects
   */
  @Override
  public boolean canEncode(Class<?> type) {
    List<GroupVersionKind> kinds = scheme.kindsFor(Objects.requireNonNull(type, "type"));
    return !kinds.isEmpty() && kinds.stream().allMatch(protobuf::has);
  }

  /**
   * Returns whether Kubernetes' {@code .proto} files have a message for a kind.
   *
   * @param kind the kind
   * @return whether objects of the kind can be written and read
   */
  public boolean supports(GroupVersionKind kind) {
    return protobuf.has(kind);
  }

  /**
   * Writes an object in the {@code k8s\0} envelope.
   *
   * @param object a registered kind's object
   * @return the bytes
   * @throws EncodeException when the JSON codec cannot write the object, or a value does not fit
   *     its protobuf field
   * @throws IllegalArgumentException when the {@code .proto} files have no message for its kind
   */
  @Override
  public byte[] encode(Object object) {
    Map<String, Object> tree = tree(json.encode(Objects.requireNonNull(object, "object")));
    GroupVersionKind kind =
        GroupVersionKind.fromApiVersionAndKind(
            String.valueOf(tree.get("apiVersion")), String.valueOf(tree.get("kind")));
    if (kind.kind().endsWith("List") && tree.get("items") instanceof List<?>) {
      return protobuf.encodeList(kind, tree);
    }
    return protobuf.encode(kind, tree);
  }

  /**
   * Reads an object from the envelope into the class the scheme registers for the kind the envelope
   * names.
   *
   * @param data the bytes
   * @return the object, its kind and the JSON codec's warnings
   * @throws dev.machinery.core.codec.DecodeException for bytes that are not a Kubernetes protobuf
   *     object, or a value the class cannot hold, naming the field path
   */
  @Override
  public Decoded<Object> decode(byte[] data) {
    return json.decode(bytes(protobuf.decode(data)));
  }

  /**
   * Reads an object from the envelope into a given class.
   *
   * @param data the bytes
   * @param type the class
   * @param <T> the class
   * @return the object, its kind and the JSON codec's warnings
   * @throws dev.machinery.core.codec.DecodeException as {@link #decode(byte[])}
   */
  @Override
  public <T> Decoded<T> decode(byte[] data, Class<T> type) {
    return json.decode(bytes(protobuf.decode(data)), type);
  }

  private Map<String, Object> tree(byte[] document) {
    try {
      return trees.readValue(document, TREE);
    } catch (IOException e) {
      // The library's own JSON codec wrote the document.
      throw new UncheckedIOException(e);
    }
  }

  private byte[] bytes(Map<String, Object> tree) {
    try {
      return trees.writeValueAsBytes(tree);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
