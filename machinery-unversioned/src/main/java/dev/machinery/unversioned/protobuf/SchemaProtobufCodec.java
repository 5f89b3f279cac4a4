package dev.machinery.unversioned.protobuf;

import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.EncodeException;
import dev.machinery.core.codec.UnknownKindException;
import dev.machinery.core.runtime.NotRegisteredException;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.MalformedIdentifierException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Kubernetes' protobuf encoding ({@code application/vnd.kubernetes.protobuf}) for objects held as
 * JSON trees, such as {@code Unstructured} content, driven by the field numbers of {@code .proto}
 * files rather than by Java classes: {@code encode(apps/v1 Deployment, tree)} writes the {@code
 * k8s\0} envelope around the tree's {@code k8s.io.api.apps.v1.Deployment} message, and {@link
 * #decode(byte[])} reads it back into a tree with {@code apiVersion} and {@code kind} from the
 * envelope. A tree's values are maps, lists, strings, {@code Long} (or {@code Integer}, {@code
 * BigInteger}), {@code Double}, booleans and null; decoded trees hold {@code LinkedHashMap}, {@code
 * ArrayList}, {@code String}, {@code Long} ({@code BigInteger} beyond it, for unsigned 64-bit
 * fields), {@code Double} and {@code Boolean}.
 *
 * <p>JSON follows Kubernetes' Go types: {@code meta.v1.Time} is RFC 3339 to the second, {@code
 * MicroTime} has six fraction digits, {@code Duration} is Go's duration text, {@code Quantity} its
 * canonical text, {@code IntOrString} a number or a string, {@code RawExtension}, {@code FieldsV1}
 * and apiextensions' {@code JSON} embedded JSON values, {@code bytes} base64 text, the wrapper
 * messages of Go's named string slices (a {@code +protobuf.nullable=true} message of one {@code
 * repeated string items}) arrays, and apiextensions' schema-or-array, schema-or-bool and
 * schema-or-string-array unions a JSON value of either shape. A few fields have a JSON name other
 * than their field name ({@code $ref}, {@code $schema}, {@code x-kubernetes-*}, {@code webhooks},
 * {@code expression}, {@code name}, {@code uid}, {@code apiGroup}), and a few embedded structs are
 * inline in JSON (a volume's source, a probe's handler, a key selector's {@code name}).
 *
 * <p>Zero values. Go writes every field that is not a pointer, zero or not, and the {@code .proto}
 * files do not say which fields are pointers. Encoding writes the fields the tree holds (null is
 * absent; a field the message lacks is left out, as Go's JSON decoding drops it), in number order,
 * so {@code replicas: 0} is written and an absent field is not; Go reads an absent field as its
 * zero value, so Go decodes the same object. Decoding gives what Go's JSON encoding of the decoded
 * object gives: a zero string, number, boolean or bytes is left out where Kubernetes 1.33's Go type
 * holds the field without a pointer and writes it {@code omitempty} ({@code namespace: ""}, {@code
 * paused: false}, a status's {@code replicas: 0}), and kept otherwise ({@code replicas: 0} of a
 * spec, a pointer; a claim's {@code storageClassName: ""}; {@code containerPort: 0}, which Go
 * writes); nested messages are kept even when empty ({@code resources: {}}, as kube-apiserver
 * writes them); repeated fields and maps without entries, zero times and empty raw extensions are
 * left out. In a message that is not one of Kubernetes' Go types, empty strings and bytes are left
 * out and other zeros kept. What differs from Go's JSON: a zero time that Go writes as {@code null}
 * ({@code creationTimestamp: null}) is absent, and so is an empty list Go would write as {@code
 * null} or {@code []}.
 *
 * <p>Reading is bounded by the codec limits (the body by {@code maxJsonBytes}, message nesting and
 * embedded JSON by {@code maxNestingDepth}), every length is checked, unknown fields are skipped,
 * and malformed input is a {@link DecodeException} naming the field path.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class SchemaProtobufCodec {
  private final ProtoSchema schema;
  private final CodecLimits limits;
  private final TreeCodec trees;

  private SchemaProtobufCodec(ProtoSchema schema, CodecLimits limits) {
    this.schema = Objects.requireNonNull(schema, "schema");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.trees = new TreeCodec(schema, limits, this::decodeEmbedded);
  }

  /**
   * Creates a codec with the default limits.
   *
   * @param schema the messages, such as {@link KubeProtos#v1_33()}
   * @return the codec
   */
  public static SchemaProtobufCodec create(ProtoSchema schema) {
    return new SchemaProtobufCodec(schema, CodecLimits.DEFAULTS);
  }

  /**
   * Creates a codec with limits.
   *
   * @param schema the messages, such as {@link KubeProtos#v1_33()}
   * @param limits the limits on what is read
   * @return the codec
   */
  public static SchemaProtobufCodec create(ProtoSchema schema, CodecLimits limits) {
    return new SchemaProtobufCodec(schema, limits);
  }

  /**
   * Returns the schema the codec reads and writes.
   *
   * @return the schema
   */
  public ProtoSchema schema() {
    return schema;
  }

  /**
   * Whether a kind has a message in the schema.
   *
   * @param kind the kind, such as {@code apps/v1, Kind=Deployment} or its list kind
   * @return true when {@link #encode} can write it
   */
  public boolean has(GroupVersionKind kind) {
    return messageFor(kind).isPresent();
  }

  /**
   * Finds the message of a kind: {@code k8s.io.api.<group>.<version>.<Kind>} by the rule of
   * Kubernetes' packages, or apimachinery's {@code meta.v1} for Status, the options and WatchEvent.
   *
   * @param kind the kind
   * @return the message, or empty when the schema has none for it
   */
  public Optional<MessageDescriptor> messageFor(GroupVersionKind kind) {
    return KubeKinds.messageName(schema, Objects.requireNonNull(kind, "kind"))
        .flatMap(schema::message);
  }

  /**
   * Writes a tree as a kind, in the envelope. The envelope's type meta names the kind; the tree's
   * own {@code apiVersion} and {@code kind}, if any, are not part of the message.
   *
   * @param kind the kind to write it as
   * @param tree the object as JSON values
   * @return the bytes, starting with {@code k8s\0}
   * @throws IllegalArgumentException when the schema has no message for the kind, or the tree names
   *     another kind
   * @throws EncodeException naming the field path when a value does not fit its field (a string
   *     where a number belongs, a malformed time or quantity, an out-of-range integer)
   */
  public byte[] encode(GroupVersionKind kind, Map<String, ?> tree) {
    Objects.requireNonNull(tree, "tree");
    MessageDescriptor message =
        messageFor(kind)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no protobuf message for " + kind + " in the schema"));
    Object apiVersion = tree.get("apiVersion");
    Object treeKind = tree.get("kind");
    if ((apiVersion != null && !apiVersion.equals(kind.apiVersion()))
        || (treeKind != null && !treeKind.equals(kind.kind()))) {
      throw new IllegalArgumentException(
          "the tree is a " + treeKind + " of " + apiVersion + ", not a " + kind);
    }
    return Envelope.wrap(kind.apiVersion(), kind.kind(), trees.encode(message.fullName(), tree));
  }

  /**
   * Writes a list as a list kind, in the envelope: the list's {@code metadata} (ListMeta) and its
   * {@code items}, each written as the list's item message, without their own {@code apiVersion}
   * and {@code kind}, as Go writes typed lists.
   *
   * @param listKind the list kind, such as {@code apps/v1, Kind=DeploymentList}
   * @param listTree the list as JSON values
   * @return the bytes, starting with {@code k8s\0}
   * @throws IllegalArgumentException when the kind is not a list kind of the schema (a message
   *     named {@code ...List} with a repeated {@code items} field)
   * @throws EncodeException as {@link #encode}
   */
  public byte[] encodeList(GroupVersionKind listKind, Map<String, ?> listTree) {
    MessageDescriptor message =
        messageFor(listKind)
            .filter(m -> m.simpleName().endsWith("List"))
            .filter(
                m ->
                    m.field("items")
                        .map(f -> f.label() == FieldDescriptor.Label.REPEATED)
                        .orElse(false))
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no protobuf list message for " + listKind + " in the schema"));
    return Envelope.wrap(
        listKind.apiVersion(), listKind.kind(), trees.encode(message.fullName(), listTree));
  }

  /**
   * The list message of a list kind whose items can be written one by one and joined ({@link
   * #encodeListItem}, {@link #encodeList(GroupVersionKind, Map, List)}): a {@code ...List} message
   * whose repeated {@code items} field comes after every other field, as in every list of
   * Kubernetes' files ({@code metadata} 1, {@code items} 2), so that the items' bytes end the
   * message as Go writes it.
   */
  private Optional<MessageDescriptor> splicedList(GroupVersionKind listKind) {
    return messageFor(listKind)
        .filter(m -> m.simpleName().endsWith("List"))
        .filter(
            m -> {
              Optional<FieldDescriptor> items = m.field("items");
              if (items.isEmpty()
                  || items.get().label() != FieldDescriptor.Label.REPEATED
                  || items.get().messageType() == null) {
                return false;
              }
              for (FieldDescriptor field : m.fields()) {
                if (field.number() > items.get().number()) {
                  return false;
                }
              }
              return true;
            });
  }

  /**
   * Whether a list kind's items can be written one by one ({@link #encodeListItem}) and joined into
   * the list ({@link #encodeList(GroupVersionKind, Map, List)}).
   *
   * @param listKind the list kind, such as {@code v1, Kind=PodList}
   * @return true when the schema has such a list message for it
   */
  public boolean encodesListItems(GroupVersionKind listKind) {
    return splicedList(Objects.requireNonNull(listKind, "listKind")).isPresent();
  }

  /**
   * Writes an object as an item of a list kind: the item message's bytes, without the envelope and
   * without the object's own {@code apiVersion} and {@code kind}, as a list holds them; bytes that
   * can be written once and joined into many lists.
   *
   * @param listKind the list kind the item is written for
   * @param itemTree the item as JSON values
   * @return the item message's bytes
   * @throws IllegalArgumentException when {@link #encodesListItems} is false for the kind
   * @throws EncodeException as {@link #encode}
   */
  public byte[] encodeListItem(GroupVersionKind listKind, Map<String, ?> itemTree) {
    Objects.requireNonNull(itemTree, "itemTree");
    MessageDescriptor list = splicedListOrThrow(listKind);
    return trees.encode(list.field("items").orElseThrow().messageType(), itemTree);
  }

  /**
   * Writes a list in the envelope from its items' bytes ({@link #encodeListItem}): the same bytes
   * as {@link #encodeList(GroupVersionKind, Map)} gives for the list holding those items.
   *
   * @param listKind the list kind
   * @param listTree the list as JSON values; its {@code items}, if any, are not written
   * @param encodedItems each item's bytes, in order
   * @return the bytes, starting with {@code k8s\0}
   * @throws IllegalArgumentException when {@link #encodesListItems} is false for the kind
   * @throws EncodeException as {@link #encode}
   */
  public byte[] encodeList(
      GroupVersionKind listKind, Map<String, ?> listTree, List<byte[]> encodedItems) {
    return listOf(listKind, listTree, encodedItems).toByteArray();
  }

  /**
   * A list in the envelope from its items' bytes ({@link #encodeListItem}), to be written in pieces
   * ({@link ProtobufList#writeTo}) rather than joined: the bytes {@link
   * #encodeList(GroupVersionKind, Map, List)} gives, however large the list.
   *
   * @param listKind the list kind
   * @param listTree the list as JSON values; its {@code items}, if any, are not written
   * @param encodedItems each item's bytes, in order
   * @return the list
   * @throws IllegalArgumentException when {@link #encodesListItems} is false for the kind
   * @throws EncodeException as {@link #encode}
   */
  public ProtobufList listOf(
      GroupVersionKind listKind, Map<String, ?> listTree, List<byte[]> encodedItems) {
    Objects.requireNonNull(listTree, "listTree");
    Objects.requireNonNull(encodedItems, "encodedItems");
    MessageDescriptor list = splicedListOrThrow(listKind);
    Map<String, Object> shell = new LinkedHashMap<>(listTree);
    shell.remove("items");
    return new ProtobufList(
        listKind.apiVersion(),
        listKind.kind(),
        trees.encode(list.fullName(), shell),
        list.field("items").orElseThrow().number(),
        encodedItems);
  }

  private MessageDescriptor splicedListOrThrow(GroupVersionKind listKind) {
    return splicedList(Objects.requireNonNull(listKind, "listKind"))
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no protobuf list message with items last for " + listKind + " in the schema"));
  }

  /**
   * Reads a tree from the envelope, with {@code apiVersion} and {@code kind} first, taken from the
   * envelope.
   *
   * @param body the bytes
   * @return the object as JSON values; a new, mutable map
   * @throws DecodeException for bytes that are not a Kubernetes protobuf object or a malformed
   *     message, naming the field path; a {@code LimitExceededException} beyond the limits
   * @throws UnknownKindException when the schema has no message for the kind the envelope names
   */
  public Map<String, Object> decode(byte[] body) {
    return decodeEnvelope(Objects.requireNonNull(body, "body"), 0, null);
  }

  /**
   * Reads a tree from the envelope, taking the parts of the kind the envelope leaves empty from a
   * default, as Go's decoder does for a type it is told to expect: Go writes a {@code WatchEvent}
   * with empty type meta, for one. The tree holds {@code apiVersion} and {@code kind} only as the
   * envelope names them.
   *
   * @param body the bytes
   * @param defaultKind the kind to read when the envelope names none
   * @return the object as JSON values; a new, mutable map
   * @throws DecodeException as {@link #decode(byte[])}
   * @throws UnknownKindException as {@link #decode(byte[])}
   */
  public Map<String, Object> decode(byte[] body, GroupVersionKind defaultKind) {
    return decodeEnvelope(
        Objects.requireNonNull(body, "body"),
        0,
        Objects.requireNonNull(defaultKind, "defaultKind"));
  }

  /**
   * Writes a tree as a message, without the envelope.
   *
   * @param messageName the message's full name, such as {@code k8s.io.api.core.v1.PodSpec}
   * @param tree the message as JSON values
   * @return the message's bytes
   * @throws IllegalArgumentException when the schema has no such message
   * @throws EncodeException as {@link #encode}
   */
  public byte[] encodeMessage(String messageName, Map<String, ?> tree) {
    return trees.encode(Objects.requireNonNull(messageName, "messageName"), tree);
  }

  /**
   * Reads a message, without the envelope, into a tree. A message whose JSON form is not an object
   * (a time, a quantity) is returned under the key {@code value}, absent for a zero value.
   *
   * @param messageName the message's full name
   * @param bytes the message's bytes
   * @return the message as JSON values; a new, mutable map
   * @throws IllegalArgumentException when the schema has no such message
   * @throws DecodeException as {@link #decode}
   */
  public Map<String, Object> decodeMessage(String messageName, byte[] bytes) {
    Objects.requireNonNull(messageName, "messageName");
    Envelope.checkSize(bytes, limits);
    return trees.decode(messageName, new ProtoReader(bytes, 0, bytes.length), 0);
  }

  private Map<String, Object> decodeEmbedded(byte[] data, int depth) {
    return decodeEnvelope(data, depth, null);
  }

  private Map<String, Object> decodeEnvelope(byte[] body, int depth, GroupVersionKind defaultKind) {
    Envelope.Opened opened = Envelope.open(body, limits);
    GroupVersionKind kind;
    try {
      String apiVersion = opened.apiVersion();
      String kindName = opened.kind();
      if (defaultKind != null) {
        apiVersion = apiVersion.isEmpty() ? defaultKind.apiVersion() : apiVersion;
        kindName = kindName.isEmpty() ? defaultKind.kind() : kindName;
      }
      if (kindName.isEmpty()) {
        throw new DecodeException(
            "the envelope names no kind; decode it with the kind it should hold", "kind");
      }
      kind = GroupVersionKind.fromApiVersionAndKind(apiVersion, kindName);
    } catch (MalformedIdentifierException e) {
      throw new DecodeException(
          "the envelope's apiVersion \"" + opened.apiVersion() + "\" is malformed", "apiVersion");
    }
    MessageDescriptor message =
        messageFor(kind)
            .orElseThrow(
                () ->
                    new UnknownKindException(
                        kind,
                        new NotRegisteredException(
                            kind,
                            "no protobuf message for kind \""
                                + opened.kind()
                                + "\" of version \""
                                + opened.apiVersion()
                                + "\"")));
    Map<String, Object> content = trees.decode(message.fullName(), opened.raw(), depth);
    Map<String, Object> tree = new LinkedHashMap<>();
    if (!opened.apiVersion().isEmpty()) {
      tree.put("apiVersion", opened.apiVersion());
    }
    if (!opened.kind().isEmpty()) {
      tree.put("kind", opened.kind());
    }
    content.remove("apiVersion");
    content.remove("kind");
    tree.putAll(content);
    return tree;
  }
}
