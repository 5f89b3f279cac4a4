package dev.machinery.apiserver.negotiation;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.protobuf.KubeProtos;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import dev.machinery.unversioned.protobuf.ProtobufList;
import dev.machinery.unversioned.protobuf.SchemaProtobufCodec;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A server's Kubernetes protobuf bodies ({@code application/vnd.kubernetes.protobuf}), by one of
 * two descriptions of a kind's message: the {@code ProtoField} numbers of its class, or else the
 * message Kubernetes' own {@code generated.proto} files give the kind ({@link KubeProtos}), which
 * covers every built-in kind whether it is held as an {@code Unstructured} tree or modelled by a
 * class without numbers. Objects of the second sort are written from, and read into, their JSON
 * form, so that they meet the same decoding, pruning and defaulting as a JSON body. Kubernetes'
 * messages are read on first use.
 *
 * <p>Immutable and thread-safe.
 */
public final class ProtobufBodies {
  private static final ObjectMapper TREES = ObjectJson.mapperBuilder().build();
  private static final TypeReference<Map<String, Object>> TREE = new TypeReference<>() {};

  /** Kubernetes' messages, parsed when first needed (the class is loaded on first use). */
  private static final class KubeMessages {
    static final SchemaProtobufCodec CODEC = SchemaProtobufCodec.create(KubeProtos.v1_33());
  }

  private final ProtobufCodec classes;
  private final Supplier<SchemaProtobufCodec> messages;
  private final Codec json;

  private ProtobufBodies(
      ProtobufCodec classes, Supplier<SchemaProtobufCodec> messages, Codec json) {
    this.classes = classes;
    this.messages = messages;
    this.json = json;
  }

  /**
   * Protobuf by classes' field numbers, and by Kubernetes 1.33's messages for other kinds.
   *
   * @param classes the codec of classes with field numbers
   * @param json the JSON codec the objects of other kinds are written and read with
   * @return the bodies
   */
  public static ProtobufBodies of(ProtobufCodec classes, Codec json) {
    Objects.requireNonNull(classes, "classes");
    Objects.requireNonNull(json, "json");
    return new ProtobufBodies(classes, () -> KubeMessages.CODEC, json);
  }

  /**
   * Returns the codec of classes with field numbers.
   *
   * @return the codec
   */
  public ProtobufCodec classes() {
    return classes;
  }

  /**
   * Whether objects of a kind, held in a class, can be written and read in protobuf.
   *
   * @param kind the kind
   * @param type the class its objects are held in
   * @return true when either description covers it
   */
  public boolean canEncode(GroupVersionKind kind, Class<?> type) {
    return byClass(type) || messages.get().has(kind);
  }

  /** Whether a class declares its own message: then its numbers, not Kubernetes' files, rule. */
  private boolean byClass(Class<?> type) {
    return type != null && classes.canEncode(type);
  }

  /**
   * Writes an object in the envelope: by its class's numbers when it has them, or else as its
   * kind's message (a list kind's items each as the item's message).
   *
   * @param object the object or list
   * @return the bytes
   * @throws IllegalArgumentException when neither description covers the object's kind
   */
  public byte[] encode(Object object) {
    if (byClass(object.getClass())) {
      return classes.encode(object);
    }
    Map<String, Object> tree = tree(json.encode(object));
    GroupVersionKind kind =
        GroupVersionKind.fromApiVersionAndKind(
            String.valueOf(tree.get("apiVersion")), String.valueOf(tree.get("kind")));
    SchemaProtobufCodec codec = messages.get();
    if (kind.kind().endsWith("List") && tree.get("items") instanceof java.util.List<?>) {
      return codec.encodeList(kind, tree);
    }
    return codec.encode(kind, tree);
  }

  /**
   * Whether lists of a kind, its items held in a class, can be written from each item's bytes
   * ({@link #encodeListItem}, {@link #encodeList(Object, List)}): when the kind is written by
   * Kubernetes' messages (the class declares no numbers of its own) and its list message ends with
   * its items.
   *
   * @param itemKind the items' kind
   * @param itemType the class the items are held in, or null when the Scheme has none
   * @return true when a list can be joined from its items' bytes
   */
  public boolean encodesListItems(GroupVersionKind itemKind, Class<?> itemType) {
    return !byClass(itemType) && messages.get().encodesListItems(listKind(itemKind));
  }

  /**
   * Writes an item of a list as the list's message holds it: bytes that can be written once and
   * joined into many lists ({@link #encodeList(Object, List)}).
   *
   * @param item the item, in the version it is served in
   * @return the item message's bytes
   * @throws IllegalArgumentException when {@link #encodesListItems} is false for its kind
   */
  public byte[] encodeListItem(Object item) {
    Map<String, Object> tree = tree(json.encode(item));
    return messages
        .get()
        .encodeListItem(
            listKind(
                GroupVersionKind.fromApiVersionAndKind(
                    String.valueOf(tree.get("apiVersion")), String.valueOf(tree.get("kind")))),
            tree);
  }

  /**
   * Writes a list in the envelope from its items' bytes ({@link #encodeListItem}): the bytes {@link
   * #encode} gives for the list holding those items.
   *
   * @param emptyList the list, without items
   * @param items each item's bytes, in order
   * @return the bytes
   * @throws IllegalArgumentException when the list's kind cannot be joined from its items
   */
  public byte[] encodeList(Object emptyList, List<byte[]> items) {
    return listOf(emptyList, items).toByteArray();
  }

  /**
   * A list in the envelope from its items' bytes ({@link #encodeListItem}), to be written in
   * pieces: the bytes {@link #encodeList(Object, List)} gives, without joining them into one array.
   *
   * @param emptyList the list, without items
   * @param items each item's bytes, in order
   * @return the list
   * @throws IllegalArgumentException when the list's kind cannot be joined from its items
   */
  public ProtobufList listOf(Object emptyList, List<byte[]> items) {
    Map<String, Object> tree = tree(json.encode(emptyList));
    GroupVersionKind kind =
        GroupVersionKind.fromApiVersionAndKind(
            String.valueOf(tree.get("apiVersion")), String.valueOf(tree.get("kind")));
    return messages.get().listOf(kind, tree, items);
  }

  private static GroupVersionKind listKind(GroupVersionKind itemKind) {
    return itemKind.groupVersion().withKind(itemKind.kind() + "List");
  }

  /**
   * Whether a request body for objects held in a class is read by the class's numbers ({@link
   * #classes()}); otherwise {@link #toJson} turns it into JSON first.
   *
   * @param type the class the endpoint's objects are held in
   * @return true when the class declares its message
   */
  public boolean decodesByClass(Class<?> type) {
    return byClass(type);
  }

  /**
   * Reads a body by Kubernetes' messages and writes it as JSON, {@code apiVersion} and {@code kind}
   * first, taken from the envelope or, where it names none, from the endpoint's kind.
   *
   * @param body the protobuf body
   * @param endpointKind the kind the endpoint serves
   * @return the JSON bytes
   * @throws DecodeException for a malformed body, naming the field path
   */
  public byte[] toJson(byte[] body, GroupVersionKind endpointKind) {
    Map<String, Object> tree = messages.get().decode(body, endpointKind);
    try {
      return TREES.writeValueAsBytes(tree);
    } catch (IOException e) {
      throw new IllegalStateException("writing a decoded protobuf body as JSON failed", e);
    }
  }

  /**
   * Reads a body that names its kind in the envelope, by its class's numbers when the Scheme's
   * class for the kind declares them or else by Kubernetes' messages, and writes it as JSON.
   *
   * @param body the protobuf body
   * @return the JSON bytes
   * @throws DecodeException for a malformed body
   * @throws dev.machinery.core.codec.UnknownKindException when neither knows the kind
   */
  public byte[] toJson(byte[] body) {
    try {
      return json.encode(classes.decode(body).object());
    } catch (RuntimeException byClass) {
      Map<String, Object> tree = messages.get().decode(body);
      try {
        return TREES.writeValueAsBytes(tree);
      } catch (IOException e) {
        throw new IllegalStateException("writing a decoded protobuf body as JSON failed", e);
      }
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
