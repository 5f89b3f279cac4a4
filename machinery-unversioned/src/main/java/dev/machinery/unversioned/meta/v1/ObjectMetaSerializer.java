package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Writes {@link ObjectMeta} field by field, with Kubernetes' omission rules, without going through
 * a bean serializer: metadata is in every object and alone in every {@code PartialObjectMetadata},
 * so it is worth writing straight. The fields, their order and their rules are those the class's
 * annotations declare (kept for reading and for documentation); the golden tests hold both to the
 * same output. Stateless.
 */
public final class ObjectMetaSerializer extends StdSerializer<ObjectMeta> {
  private static final long serialVersionUID = 1L;

  /** Creates the serializer; Jackson calls this. */
  public ObjectMetaSerializer() {
    super(ObjectMeta.class);
  }

  @Override
  public void serialize(ObjectMeta meta, JsonGenerator gen, SerializerProvider provider)
      throws IOException {
    gen.writeStartObject(meta);
    string(gen, "name", meta.getName());
    string(gen, "generateName", meta.getGenerateName());
    string(gen, "namespace", meta.getNamespace());
    string(gen, "selfLink", meta.getSelfLink());
    string(gen, "uid", meta.getUid());
    string(gen, "resourceVersion", meta.getResourceVersion());
    if (meta.getGeneration() != 0) {
      gen.writeNumberField("generation", meta.getGeneration());
    }
    gen.writeFieldName("creationTimestamp");
    if (meta.getCreationTimestamp() == null) {
      gen.writeNull();
    } else {
      gen.writeString(Rfc3339.format(meta.getCreationTimestamp()));
    }
    if (meta.getDeletionTimestamp() != null) {
      gen.writeStringField("deletionTimestamp", Rfc3339.format(meta.getDeletionTimestamp()));
    }
    if (meta.getDeletionGracePeriodSeconds() != null) {
      gen.writeNumberField("deletionGracePeriodSeconds", meta.getDeletionGracePeriodSeconds());
    }
    strings(gen, "labels", meta.getLabels());
    strings(gen, "annotations", meta.getAnnotations());
    List<OwnerReference> owners = meta.getOwnerReferences();
    if (owners != null && !owners.isEmpty()) {
      gen.writeFieldName("ownerReferences");
      provider.defaultSerializeValue(owners, gen);
    }
    List<String> finalizers = meta.getFinalizers();
    if (finalizers != null && !finalizers.isEmpty()) {
      gen.writeArrayFieldStart("finalizers");
      for (String finalizer : finalizers) {
        gen.writeString(finalizer);
      }
      gen.writeEndArray();
    }
    List<Map<String, Object>> managed = meta.getManagedFields();
    if (managed != null && !managed.isEmpty()) {
      gen.writeFieldName("managedFields");
      provider.defaultSerializeValue(managed, gen);
    }
    gen.writeEndObject();
  }

  private static void string(JsonGenerator gen, String name, String value) throws IOException {
    if (value != null && !value.isEmpty()) {
      gen.writeStringField(name, value);
    }
  }

  private static void strings(JsonGenerator gen, String name, Map<String, String> map)
      throws IOException {
    if (map == null || map.isEmpty()) {
      return;
    }
    gen.writeObjectFieldStart(name);
    for (Map.Entry<String, String> entry : map.entrySet()) {
      gen.writeFieldName(entry.getKey());
      if (entry.getValue() == null) {
        gen.writeNull();
      } else {
        gen.writeString(entry.getValue());
      }
    }
    gen.writeEndObject();
  }
}
