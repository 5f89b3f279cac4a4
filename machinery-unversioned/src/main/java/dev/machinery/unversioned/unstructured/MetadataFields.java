package dev.machinery.unversioned.unstructured;

import dev.machinery.core.codec.TimeFormats;
import dev.machinery.unversioned.meta.v1.ManagedFieldsEntry;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The typed values of an unstructured object's metadata fields, read from and written to JSON
 * values: times as RFC 3339 text, owner references as maps. Stateless; thread-safe.
 */
final class MetadataFields {
  private MetadataFields() {}

  static Instant time(Unstructured object, String field) {
    String text = object.nestedString("metadata", field).orElse(null);
    if (text == null) {
      return null;
    }
    try {
      return TimeFormats.parse(text).toInstant();
    } catch (DateTimeException e) {
      throw new UnstructuredFieldException(
          "metadata." + field, "metadata." + field + " is \"" + text + "\", not an RFC 3339 time");
    }
  }

  static String timeText(Instant time) {
    return time == null ? null : TimeFormats.formatSeconds(time);
  }

  static List<OwnerReference> ownerReferences(Unstructured object) {
    List<Object> items = object.nestedList("metadata", "ownerReferences").orElse(null);
    if (items == null) {
      return null;
    }
    List<OwnerReference> references = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof Map<?, ?> map)) {
        throw new UnstructuredFieldException(
            "metadata.ownerReferences[" + i + "]",
            "metadata.ownerReferences[" + i + "] is not an object");
      }
      OwnerReference reference = new OwnerReference();
      reference.setApiVersion(text(map, "apiVersion", i));
      reference.setKind(text(map, "kind", i));
      reference.setName(text(map, "name", i));
      reference.setUid(text(map, "uid", i));
      reference.setController(flag(map, "controller", i));
      reference.setBlockOwnerDeletion(flag(map, "blockOwnerDeletion", i));
      references.add(reference);
    }
    return references;
  }

  static List<Object> ownerReferenceValues(List<OwnerReference> references) {
    if (references == null) {
      return null;
    }
    List<Object> values = new ArrayList<>(references.size());
    for (OwnerReference reference : references) {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("apiVersion", reference.getApiVersion());
      map.put("kind", reference.getKind());
      map.put("name", reference.getName());
      map.put("uid", reference.getUid());
      if (reference.getController() != null) {
        map.put("controller", reference.getController());
      }
      if (reference.getBlockOwnerDeletion() != null) {
        map.put("blockOwnerDeletion", reference.getBlockOwnerDeletion());
      }
      values.add(map);
    }
    return values;
  }

  static List<String> strings(Unstructured object, String field) {
    List<Object> items = object.nestedList("metadata", field).orElse(null);
    if (items == null) {
      return null;
    }
    List<String> strings = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof String text)) {
        throw new UnstructuredFieldException(
            "metadata." + field + "[" + i + "]",
            "metadata." + field + "[" + i + "] is not a string");
      }
      strings.add(text);
    }
    return strings;
  }

  private static String text(Map<?, ?> map, String field, int index) {
    Object value = map.get(field);
    if (value == null || value instanceof String) {
      return (String) value;
    }
    String path = "metadata.ownerReferences[" + index + "]." + field;
    throw new UnstructuredFieldException(path, path + " is not a string");
  }

  private static Boolean flag(Map<?, ?> map, String field, int index) {
    Object value = map.get(field);
    if (value == null || value instanceof Boolean) {
      return (Boolean) value;
    }
    String path = "metadata.ownerReferences[" + index + "]." + field;
    throw new UnstructuredFieldException(path, path + " is not a boolean");
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper ENTRIES =
      new com.fasterxml.jackson.databind.ObjectMapper()
          .configure(
              com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
              false);

  /** {@code metadata.managedFields} as entries, or null when absent or not a list. */
  static List<ManagedFieldsEntry> managedFields(Unstructured object) {
    List<Object> list = object.nestedList("metadata", "managedFields").orElse(null);
    if (list == null) {
      return null;
    }
    List<ManagedFieldsEntry> entries = new java.util.ArrayList<>();
    for (Object item : list) {
      entries.add(ENTRIES.convertValue(item, ManagedFieldsEntry.class));
    }
    return entries;
  }

  /** Entries as the plain values of an unstructured object, or null for none. */
  static List<Object> managedFieldValues(List<ManagedFieldsEntry> entries) {
    if (entries == null) {
      return null;
    }
    List<Object> values = new java.util.ArrayList<>();
    for (ManagedFieldsEntry entry : entries) {
      values.add(
          ENTRIES.convertValue(
              entry,
              new com.fasterxml.jackson.core.type.TypeReference<
                  java.util.LinkedHashMap<String, Object>>() {}));
    }
    return values;
  }
}
