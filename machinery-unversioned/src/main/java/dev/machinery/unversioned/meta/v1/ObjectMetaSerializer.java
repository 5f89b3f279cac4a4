package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes {@link ObjectMeta} field by field, with Kubernetes' omission rules, without going through
 * a bean serializer: metadata is in every object and alone in every {@code PartialObjectMetadata},
 * so it is worth writing straight. The fields, their order and their rules are those the class's
 * annotations declare (kept for reading and for documentation); the golden tests hold both to the
 * same output. Stateless.
 */
public final class ObjectMetaSerializer extends StdSerializer<ObjectMeta> {
  private static final long serialVersionUID = 1L;
  private static final int MAX_KEYS = 4096;
  private static final int MAX_KEY_LENGTH = 320;
  private static final ConcurrentHashMap<String, SerializedString> KEYS = new ConcurrentHashMap<>();
  private static final SerializedString NAME = new SerializedString("name");
  private static final SerializedString GENERATE_NAME = new SerializedString("generateName");
  private static final SerializedString NAMESPACE = new SerializedString("namespace");
  private static final SerializedString SELF_LINK = new SerializedString("selfLink");
  private static final SerializedString UID = new SerializedString("uid");
  private static final SerializedString RESOURCE_VERSION = new SerializedString("resourceVersion");
  private static final SerializedString GENERATION = new SerializedString("generation");
  private static final SerializedString CREATION_TIMESTAMP =
      new SerializedString("creationTimestamp");
  private static final SerializedString DELETION_TIMESTAMP =
      new SerializedString("deletionTimestamp");
  private static final SerializedString DELETION_GRACE_PERIOD_SECONDS =
      new SerializedString("deletionGracePeriodSeconds");
  private static final SerializedString LABELS = new SerializedString("labels");
  private static final SerializedString ANNOTATIONS = new SerializedString("annotations");
  private static final SerializedString OWNER_REFERENCES = new SerializedString("ownerReferences");
  private static final SerializedString FINALIZERS = new SerializedString("finalizers");
  private static final SerializedString MANAGED_FIELDS = new SerializedString("managedFields");

  /** Creates the serializer; Jackson calls this. */
  public ObjectMetaSerializer() {
    super(ObjectMeta.class);
  }

  @Override
  public void serialize(ObjectMeta meta, JsonGenerator gen, SerializerProvider provider)
      throws IOException {
    gen.writeStartObject(meta);
    string(gen, NAME, meta.getName());
    string(gen, GENERATE_NAME, meta.getGenerateName());
    string(gen, NAMESPACE, meta.getNamespace());
    string(gen, SELF_LINK, meta.getSelfLink());
    string(gen, UID, meta.getUid());
    string(gen, RESOURCE_VERSION, meta.getResourceVersion());
    if (meta.getGeneration() != 0) {
      gen.writeFieldName(GENERATION);
      gen.writeNumber(meta.getGeneration());
    }
    gen.writeFieldName(CREATION_TIMESTAMP);
    if (meta.getCreationTimestamp() == null) {
      gen.writeNull();
    } else {
      gen.writeString(Rfc3339.format(meta.getCreationTimestamp()));
    }
    if (meta.getDeletionTimestamp() != null) {
      gen.writeFieldName(DELETION_TIMESTAMP);
      gen.writeString(Rfc3339.format(meta.getDeletionTimestamp()));
    }
    if (meta.getDeletionGracePeriodSeconds() != null) {
      gen.writeFieldName(DELETION_GRACE_PERIOD_SECONDS);
      gen.writeNumber(meta.getDeletionGracePeriodSeconds());
    }
    strings(gen, LABELS, meta.getLabels());
    strings(gen, ANNOTATIONS, meta.getAnnotations());
    List<OwnerReference> owners = meta.getOwnerReferences();
    if (owners != null && !owners.isEmpty()) {
      gen.writeFieldName(OWNER_REFERENCES);
      provider.defaultSerializeValue(owners, gen);
    }
    List<String> finalizers = meta.getFinalizers();
    if (finalizers != null && !finalizers.isEmpty()) {
      gen.writeFieldName(FINALIZERS);
      gen.writeStartArray();
      for (String finalizer : finalizers) {
        gen.writeString(finalizer);
      }
      gen.writeEndArray();
    }
    List<ManagedFieldsEntry> managed = meta.getManagedFields();
    if (managed != null && !managed.isEmpty()) {
      gen.writeFieldName(MANAGED_FIELDS);
      provider.defaultSerializeValue(managed, gen);
    }
    gen.writeEndObject();
  }

  private static void string(JsonGenerator gen, SerializedString name, String value)
      throws IOException {
    if (value != null && !value.isEmpty()) {
      gen.writeFieldName(name);
      gen.writeString(value);
    }
  }

  /**
   * Label and annotation keys repeat across objects; each is encoded once and kept, up to a bound,
   * so that a flood of distinct keys cannot grow the cache without limit.
   */
  private static SerializedString key(String key) {
    SerializedString encoded = KEYS.get(key);
    if (encoded == null) {
      encoded = new SerializedString(key);
      if (KEYS.size() < MAX_KEYS && key.length() <= MAX_KEY_LENGTH) {
        KEYS.putIfAbsent(key, encoded);
      }
    }
    return encoded;
  }

  private static void strings(JsonGenerator gen, SerializedString name, Map<String, String> map)
      throws IOException {
    if (map == null || map.isEmpty()) {
      return;
    }
    gen.writeFieldName(name);
    gen.writeStartObject();
    for (Map.Entry<String, String> entry : map.entrySet()) {
      gen.writeFieldName(key(entry.getKey()));
      if (entry.getValue() == null) {
        gen.writeNull();
      } else {
        gen.writeString(key(entry.getValue()));
      }
    }
    gen.writeEndObject();
  }
}
