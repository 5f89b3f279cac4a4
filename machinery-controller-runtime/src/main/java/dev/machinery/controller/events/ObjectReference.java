package dev.machinery.controller.events;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A reference to the object an event is about ({@code core/v1 ObjectReference}).
 *
 * <p>Immutable; thread-safe.
 *
 * @param apiVersion the object's API version
 * @param kind its kind
 * @param namespace its namespace, or empty
 * @param name its name
 * @param uid its UID, or empty
 * @param resourceVersion its resource version, or empty
 * @param fieldPath the part of it meant, such as {@code spec.containers{app}}, or empty
 */
public record ObjectReference(
    String apiVersion,
    String kind,
    String namespace,
    String name,
    String uid,
    String resourceVersion,
    String fieldPath) {
  /**
   * Normalises missing parts to empty.
   *
   * @param apiVersion the API version
   * @param kind the kind
   * @param namespace the namespace
   * @param name the name
   * @param uid the UID
   * @param resourceVersion the resource version
   * @param fieldPath the field path
   */
  public ObjectReference {
    apiVersion = orEmpty(apiVersion);
    kind = orEmpty(kind);
    namespace = orEmpty(namespace);
    name = orEmpty(name);
    uid = orEmpty(uid);
    resourceVersion = orEmpty(resourceVersion);
    fieldPath = orEmpty(fieldPath);
  }

  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }

  /**
   * Returns a reference to an object, from its type and metadata.
   *
   * @param object the object
   * @return the reference
   */
  public static ObjectReference of(ApiObject object) {
    MetaObject meta = Accessor.of(object);
    return new ObjectReference(
        object.getApiVersion(),
        object.getKind(),
        meta.getNamespace(),
        meta.getName(),
        meta.getUid(),
        meta.getResourceVersion(),
        "");
  }

  /**
   * Returns this reference with a field path.
   *
   * @param path the field path
   * @return the reference
   */
  public ObjectReference withFieldPath(String path) {
    return new ObjectReference(apiVersion, kind, namespace, name, uid, resourceVersion, path);
  }

  /**
   * Returns the reference as JSON fields, leaving out empty ones.
   *
   * @return the fields
   */
  public Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    put(map, "apiVersion", apiVersion);
    put(map, "kind", kind);
    put(map, "namespace", namespace);
    put(map, "name", name);
    put(map, "uid", uid);
    put(map, "resourceVersion", resourceVersion);
    put(map, "fieldPath", fieldPath);
    return map;
  }

  static void put(Map<String, Object> map, String key, String value) {
    if (value != null && !value.isEmpty()) {
      map.put(key, value);
    }
  }
}
