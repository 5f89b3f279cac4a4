package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * Writes the items of a {@link PartialObjectMetadataList} straight, with pre-encoded names and the
 * usual type values pre-encoded too: a list of metadata is the cheap representation of a large
 * list, so its items are worth writing without a bean serializer. The output is the bean
 * serializer's (the golden tests hold both to it). Stateless.
 */
public final class PartialObjectMetadataItemSerializer
    extends StdSerializer<PartialObjectMetadata> {
  private static final long serialVersionUID = 1L;
  private static final SerializedString API_VERSION = new SerializedString("apiVersion");
  private static final SerializedString KIND = new SerializedString("kind");
  private static final SerializedString METADATA = new SerializedString("metadata");
  private static final SerializedString META_V1 = new SerializedString("meta.k8s.io/v1");
  private static final SerializedString PARTIAL = new SerializedString("PartialObjectMetadata");
  private static final ObjectMetaSerializer OBJECT_META = new ObjectMetaSerializer();

  /** Creates the serializer; Jackson calls this. */
  public PartialObjectMetadataItemSerializer() {
    super(PartialObjectMetadata.class);
  }

  @Override
  public void serialize(PartialObjectMetadata item, JsonGenerator gen, SerializerProvider provider)
      throws IOException {
    gen.writeStartObject(item);
    String apiVersion = item.getApiVersion();
    if (apiVersion != null && !apiVersion.isEmpty()) {
      gen.writeFieldName(API_VERSION);
      if (apiVersion.equals(META_V1.getValue())) {
        gen.writeString(META_V1);
      } else {
        gen.writeString(apiVersion);
      }
    }
    String kind = item.getKind();
    if (kind != null && !kind.isEmpty()) {
      gen.writeFieldName(KIND);
      if (kind.equals(PARTIAL.getValue())) {
        gen.writeString(PARTIAL);
      } else {
        gen.writeString(kind);
      }
    }
    gen.writeFieldName(METADATA);
    if (item.getMetadata() == null) {
      gen.writeNull();
    } else {
      OBJECT_META.serialize(item.getMetadata(), gen, provider);
    }
    gen.writeEndObject();
  }
}
