package dev.machinery.unversioned.unstructured;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.core.codec.PreserveUnknownFields;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.meta.v1.ManagedFieldsEntry;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An API object held as JSON values (maps, lists, strings, numbers, booleans, null) rather than a
 * typed class, Kubernetes' {@code unstructured.Unstructured}: for kinds the program has no class
 * for, and for generic tools. Every field of the document is kept, known or not, in document order,
 * so that an unstructured object re-encodes to what it was decoded from.
 *
 * <p>Decode one with {@code codec.decode(bytes, Unstructured.class)} (any kind), and encode it with
 * {@code codec.encode}; {@link UnstructuredConverter} converts to and from typed objects. Accessors
 * read and write the top-level fields and nested paths, and throw {@link
 * UnstructuredFieldException} when a field holds another type than the one asked for.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@PreserveUnknownFields
public final class Unstructured implements ApiObject, MetaObject {
  private static final String API_VERSION = "apiVersion";
  private static final String KIND = "kind";

  private final Map<String, Object> content;

  /** Creates an empty object. */
  public Unstructured() {
    this.content = new LinkedHashMap<>();
  }

  /**
   * Creates an object holding a copy of the given JSON values.
   *
   * @param content the fields; nested maps and lists are copied
   * @throws UnstructuredFieldException if a value is not a JSON value
   */
  public Unstructured(Map<String, ?> content) {
    this.content = copyMap(content, "");
  }

  /**
   * Returns the object's fields, live: changes to the map change the object. Values are maps
   * ({@code Map<String, Object>}), lists, strings, {@code Long}, {@code BigInteger}, {@code
   * Double}, booleans or {@code null}.
   *
   * @return the fields, {@code apiVersion} and {@code kind} included
   */
  @JsonIgnore
  public Map<String, Object> content() {
    return content;
  }

  @Override
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getApiVersion() {
    return stringField(API_VERSION);
  }

  @Override
  public void setApiVersion(String apiVersion) {
    setField(API_VERSION, apiVersion);
  }

  @Override
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getKind() {
    return stringField(KIND);
  }

  @Override
  public void setKind(String kind) {
    setField(KIND, kind);
  }

  /**
   * Returns the fields other than {@code apiVersion} and {@code kind}, for the encoder.
   *
   * @return the fields, in order
   */
  @JsonAnyGetter
  Map<String, Object> otherFields() {
    if (!content.containsKey(API_VERSION) && !content.containsKey(KIND)) {
      return content;
    }
    Map<String, Object> rest = new LinkedHashMap<>(content);
    rest.remove(API_VERSION);
    rest.remove(KIND);
    return rest;
  }

  /**
   * Sets a top-level field to a copy of a JSON value, with integers held as {@code Long} (as
   * Kubernetes' unstructured objects hold every integer as int64); the decoder calls this for every
   * field but the type fields.
   *
   * @param name the field name
   * @param value the JSON value
   * @throws UnstructuredFieldException if the value is not a JSON value
   */
  @JsonAnySetter
  public void setField(String name, Object value) {
    Objects.requireNonNull(name, "name");
    if (value == null && (name.equals(API_VERSION) || name.equals(KIND))) {
      content.remove(name);
    } else {
      content.put(name, copyValue(value, name));
    }
  }

  /**
   * Returns {@code metadata.name}.
   *
   * @return the name, or {@code null}
   */
  @JsonIgnore
  public String getName() {
    return nestedString("metadata", "name").orElse(null);
  }

  /**
   * Sets {@code metadata.name}, creating {@code metadata} when needed.
   *
   * @param name the name
   */
  public void setName(String name) {
    setNested(name, "metadata", "name");
  }

  /**
   * Returns {@code metadata.namespace}.
   *
   * @return the namespace, or {@code null}
   */
  @JsonIgnore
  public String getNamespace() {
    return nestedString("metadata", "namespace").orElse(null);
  }

  /**
   * Sets {@code metadata.namespace}, creating {@code metadata} when needed.
   *
   * @param namespace the namespace
   */
  public void setNamespace(String namespace) {
    setNested(namespace, "metadata", "namespace");
  }

  /**
   * Returns {@code metadata.uid}.
   *
   * @return the uid, or {@code null}
   */
  @JsonIgnore
  public String getUid() {
    return nestedString("metadata", "uid").orElse(null);
  }

  /**
   * Returns {@code metadata.resourceVersion}.
   *
   * @return the resource version, or {@code null}
   */
  @JsonIgnore
  public String getResourceVersion() {
    return nestedString("metadata", "resourceVersion").orElse(null);
  }

  /**
   * Sets {@code metadata.resourceVersion}, creating {@code metadata} when needed.
   *
   * @param resourceVersion the resource version
   */
  public void setResourceVersion(String resourceVersion) {
    setNested(resourceVersion, "metadata", "resourceVersion");
  }

  /**
   * Returns {@code metadata.generation}.
   *
   * @return the generation, or 0 when absent
   */
  @JsonIgnore
  public long getGeneration() {
    return nestedLong("metadata", "generation").orElse(0L);
  }

  /**
   * Returns {@code metadata.labels}, a copy.
   *
   * @return the labels; empty when absent
   */
  @JsonIgnore
  public Map<String, String> getLabels() {
    return stringMap("metadata", "labels");
  }

  /**
   * Replaces {@code metadata.labels}.
   *
   * @param labels the labels
   */
  public void setLabels(Map<String, String> labels) {
    setNested(new LinkedHashMap<String, Object>(labels), "metadata", "labels");
  }

  /**
   * Returns {@code metadata.annotations}, a copy.
   *
   * @return the annotations; empty when absent
   */
  @JsonIgnore
  public Map<String, String> getAnnotations() {
    return stringMap("metadata", "annotations");
  }

  /**
   * Replaces {@code metadata.annotations}.
   *
   * @param annotations the annotations
   */
  public void setAnnotations(Map<String, String> annotations) {
    setNested(new LinkedHashMap<String, Object>(annotations), "metadata", "annotations");
  }

  @Override
  @JsonIgnore
  public String getGenerateName() {
    return nestedString("metadata", "generateName").orElse(null);
  }

  @Override
  public void setGenerateName(String generateName) {
    setMetadata("generateName", generateName);
  }

  @Override
  public void setUid(String uid) {
    setMetadata("uid", uid);
  }

  @Override
  public void setGeneration(long generation) {
    // As Go's ObjectMeta writes it: a zero generation is left out.
    setMetadata("generation", generation == 0 ? null : generation);
  }

  @Override
  @JsonIgnore
  public Instant getCreationTimestamp() {
    return MetadataFields.time(this, "creationTimestamp");
  }

  @Override
  public void setCreationTimestamp(Instant creationTimestamp) {
    setMetadata("creationTimestamp", MetadataFields.timeText(creationTimestamp));
  }

  @Override
  @JsonIgnore
  public Instant getDeletionTimestamp() {
    return MetadataFields.time(this, "deletionTimestamp");
  }

  @Override
  public void setDeletionTimestamp(Instant deletionTimestamp) {
    setMetadata("deletionTimestamp", MetadataFields.timeText(deletionTimestamp));
  }

  @Override
  @JsonIgnore
  public Long getDeletionGracePeriodSeconds() {
    return nestedLong("metadata", "deletionGracePeriodSeconds").orElse(null);
  }

  @Override
  public void setDeletionGracePeriodSeconds(Long seconds) {
    setMetadata("deletionGracePeriodSeconds", seconds);
  }

  /**
   * Returns {@code metadata.ownerReferences}, converted (a copy).
   *
   * @return the references, or null when absent
   */
  @Override
  @JsonIgnore
  public List<OwnerReference> getOwnerReferences() {
    return MetadataFields.ownerReferences(this);
  }

  @Override
  public void setOwnerReferences(List<OwnerReference> ownerReferences) {
    setMetadata("ownerReferences", MetadataFields.ownerReferenceValues(ownerReferences));
  }

  /**
   * Returns {@code metadata.finalizers}, a copy.
   *
   * @return the finalizers, or null when absent
   */
  @Override
  @JsonIgnore
  public List<String> getFinalizers() {
    return MetadataFields.strings(this, "finalizers");
  }

  @Override
  public void setFinalizers(List<String> finalizers) {
    setMetadata("finalizers", finalizers == null ? null : new ArrayList<Object>(finalizers));
  }

  /**
   * Returns {@code metadata.managedFields}, read into entries (a copy).
   *
   * @return the entries, or null when absent
   */
  @Override
  @JsonIgnore
  public List<ManagedFieldsEntry> getManagedFields() {
    return MetadataFields.managedFields(this);
  }

  @Override
  public void setManagedFields(List<ManagedFieldsEntry> managedFields) {
    setMetadata("managedFields", MetadataFields.managedFieldValues(managedFields));
  }

  /** Sets a metadata field, or removes it for null, as Kubernetes omits an empty field. */
  private void setMetadata(String field, Object value) {
    if (value == null) {
      removeNested("metadata", field);
    } else {
      setNested(value, "metadata", field);
    }
  }

  /**
   * Returns the value at a path of object fields.
   *
   * @param path the field names, such as {@code "spec", "replicas"}
   * @return the value, or empty when a field on the way is absent or {@code null}
   * @throws UnstructuredFieldException if a field on the way is not an object
   */
  public Optional<Object> nested(String... path) {
    Object current = content;
    for (int i = 0; i < path.length; i++) {
      if (!(current instanceof Map)) {
        throw wrongType(path, i, current, "an object");
      }
      current = ((Map<?, ?>) current).get(path[i]);
      if (current == null) {
        return Optional.empty();
      }
    }
    return Optional.of(current);
  }

  /**
   * Returns the string at a path.
   *
   * @param path the field names
   * @return the string, or empty when absent
   * @throws UnstructuredFieldException if the value, or a field on the way, has another type
   */
  public Optional<String> nestedString(String... path) {
    return typed(path, String.class, "a string");
  }

  /**
   * Returns the integer at a path.
   *
   * @param path the field names
   * @return the number, or empty when absent
   * @throws UnstructuredFieldException if the value is not an integer that fits in a long
   */
  public Optional<Long> nestedLong(String... path) {
    return typed(path, Long.class, "an integer");
  }

  /**
   * Returns the boolean at a path.
   *
   * @param path the field names
   * @return the boolean, or empty when absent
   * @throws UnstructuredFieldException if the value has another type
   */
  public Optional<Boolean> nestedBoolean(String... path) {
    return typed(path, Boolean.class, "a boolean");
  }

  /**
   * Returns the object at a path, live.
   *
   * @param path the field names
   * @return the object, or empty when absent
   * @throws UnstructuredFieldException if the value has another type
   */
  @SuppressWarnings("unchecked")
  public Optional<Map<String, Object>> nestedMap(String... path) {
    return typed(path, Map.class, "an object").map(map -> (Map<String, Object>) map);
  }

  /**
   * Returns the list at a path, live.
   *
   * @param path the field names
   * @return the list, or empty when absent
   * @throws UnstructuredFieldException if the value has another type
   */
  @SuppressWarnings("unchecked")
  public Optional<List<Object>> nestedList(String... path) {
    return typed(path, List.class, "a list").map(list -> (List<Object>) list);
  }

  /**
   * Sets the value at a path, creating the objects on the way.
   *
   * @param value a JSON value (copied when it is a map or a list)
   * @param path the field names; at least one
   * @throws UnstructuredFieldException if a field on the way holds something other than an object,
   *     or the value is not a JSON value
   */
  @SuppressWarnings("unchecked")
  public void setNested(Object value, String... path) {
    if (path.length == 0) {
      throw new IllegalArgumentException("setNested needs a path");
    }
    Map<String, Object> current = content;
    for (int i = 0; i < path.length - 1; i++) {
      Object next = current.get(path[i]);
      if (next == null) {
        next = new LinkedHashMap<String, Object>();
        current.put(path[i], next);
      } else if (!(next instanceof Map)) {
        throw wrongType(path, i + 1, next, "an object");
      }
      current = (Map<String, Object>) next;
    }
    current.put(path[path.length - 1], copyValue(value, String.join(".", path)));
  }

  /**
   * Removes the value at a path, if present.
   *
   * @param path the field names; at least one
   * @throws UnstructuredFieldException if a field on the way holds something other than an object
   */
  public void removeNested(String... path) {
    if (path.length == 0) {
      throw new IllegalArgumentException("removeNested needs a path");
    }
    String[] parent = java.util.Arrays.copyOf(path, path.length - 1);
    Optional<Object> holder = parent.length == 0 ? Optional.of(content) : nested(parent);
    holder.ifPresent(
        map -> {
          if (!(map instanceof Map)) {
            throw wrongType(path, parent.length, map, "an object");
          }
          ((Map<?, ?>) map).remove(path[path.length - 1]);
        });
  }

  /**
   * Returns a copy that shares no mutable state with this object.
   *
   * @return the copy
   */
  public Unstructured deepCopy() {
    return new Unstructured(content);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Unstructured && ((Unstructured) other).content.equals(content);
  }

  @Override
  public int hashCode() {
    return content.hashCode();
  }

  @Override
  public String toString() {
    return "Unstructured" + content;
  }

  private String stringField(String name) {
    Object value = content.get(name);
    if (value == null || value instanceof String) {
      return (String) value;
    }
    throw wrongType(new String[] {name}, 1, value, "a string");
  }

  private Map<String, String> stringMap(String... path) {
    Optional<Map<String, Object>> map = nestedMap(path);
    if (map.isEmpty()) {
      return Collections.emptyMap();
    }
    Map<String, String> strings = new LinkedHashMap<>();
    for (Map.Entry<String, Object> entry : map.get().entrySet()) {
      if (!(entry.getValue() instanceof String)) {
        String[] full = java.util.Arrays.copyOf(path, path.length + 1);
        full[path.length] = entry.getKey();
        throw wrongType(full, full.length, entry.getValue(), "a string");
      }
      strings.put(entry.getKey(), (String) entry.getValue());
    }
    return strings;
  }

  private <T> Optional<T> typed(String[] path, Class<T> type, String expected) {
    Optional<Object> value = nested(path);
    if (value.isPresent() && !type.isInstance(value.get())) {
      throw wrongType(path, path.length, value.get(), expected);
    }
    return value.map(type::cast);
  }

  private static UnstructuredFieldException wrongType(
      String[] path, int depth, Object found, String expected) {
    String where = String.join(".", java.util.Arrays.copyOf(path, depth));
    return new UnstructuredFieldException(
        where,
        "field "
            + (where.isEmpty() ? "(the object itself)" : where)
            + " holds "
            + describe(found)
            + ", expected "
            + expected);
  }

  private static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof List) {
      return "a list";
    }
    if (value instanceof String) {
      String text = (String) value;
      return "the string \"" + (text.length() > 64 ? text.substring(0, 64) + "…" : text) + "\"";
    }
    return "the "
        + value.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT)
        + " "
        + value;
  }

  private static Map<String, Object> copyMap(Map<String, ?> map, String path) {
    Map<String, Object> copy = new LinkedHashMap<>();
    for (Map.Entry<String, ?> entry : map.entrySet()) {
      String key = Objects.requireNonNull(entry.getKey(), "a map key is null at " + path);
      copy.put(key, copyValue(entry.getValue(), path.isEmpty() ? key : path + "." + key));
    }
    return copy;
  }

  @SuppressWarnings("unchecked")
  private static Object copyValue(Object value, String path) {
    if (value == null
        || value instanceof String
        || value instanceof Boolean
        || value instanceof Long
        || value instanceof BigInteger
        || value instanceof Double) {
      return value;
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof Float) {
      return ((Float) value).doubleValue();
    }
    if (value instanceof Map) {
      for (Object key : ((Map<?, ?>) value).keySet()) {
        if (!(key instanceof String)) {
          throw new UnstructuredFieldException(
              path, "field " + path + " has the key " + key + ", expected string keys");
        }
      }
      return copyMap((Map<String, ?>) value, path);
    }
    if (value instanceof List) {
      List<Object> copy = new ArrayList<>();
      int index = 0;
      for (Object item : (List<?>) value) {
        copy.add(copyValue(item, path + "[" + index++ + "]"));
      }
      return copy;
    }
    throw new UnstructuredFieldException(
        path,
        "field "
            + path
            + " holds a "
            + value.getClass().getName()
            + ", expected a JSON value (map, list, string, number, boolean or null)");
  }
}
