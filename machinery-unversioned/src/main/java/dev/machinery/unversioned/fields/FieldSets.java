package dev.machinery.unversioned.fields;

import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The selectable fields of an object ({@code fields.Set}, as {@code ObjectMetaFieldsSet} builds
 * it): {@code metadata.name}, and {@code metadata.namespace} for namespaced kinds, plus whatever
 * fields a kind adds (a Pod's {@code status.phase}, say).
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class FieldSets {
  private FieldSets() {}

  /**
   * The fields every kind can be selected by.
   *
   * @param meta the object's metadata
   * @param namespaced whether the kind is namespaced
   * @return a new mutable map, to which a kind may add its own fields
   */
  public static Map<String, String> of(ObjectMeta meta, boolean namespaced) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("metadata.name", meta.getName() == null ? "" : meta.getName());
    if (namespaced) {
      fields.put("metadata.namespace", meta.getNamespace() == null ? "" : meta.getNamespace());
    }
    return fields;
  }
}
