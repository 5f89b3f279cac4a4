package dev.machinery.unversioned.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.merge.Conflict;
import dev.machinery.core.merge.ConflictException;
import dev.machinery.core.typed.Comparison;
import dev.machinery.core.typed.SchemaType;
import dev.machinery.core.typed.TypedException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * kubectl's move from client-side to server-side apply, as kube-apiserver's lastAppliedManager and
 * lastAppliedUpdater: the fields whose live values the {@code last-applied-configuration}
 * annotation already holds may be taken without a conflict, and the annotation follows each
 * server-side apply when the object has it. Stateless.
 */
final class LastApplied {
  private static final ObjectMapper JSON = ObjectJson.mapperBuilder().build();

  private LastApplied() {}

  /**
   * Returns the fields of the last applied configuration whose values the live object holds, or the
   * empty set when there is no usable annotation.
   */
  static FieldSet matchingFields(SchemaType type, ObjectNode live, String apiVersion) {
    String text =
        live.path("metadata").path("annotations").path(FieldManager.LAST_APPLIED).asText("");
    if (text.isEmpty()) {
      return FieldSet.empty();
    }
    try {
      JsonNode last = JSON.readTree(text);
      if (!(last instanceof ObjectNode) || !apiVersion.equals(last.path("apiVersion").asText())) {
        return FieldSet.empty();
      }
      FieldSet lastSet = type.toFieldSet(last, true);
      Comparison compare = type.compare(last, live);
      return lastSet.difference(compare.modified());
    } catch (IOException | TypedException e) {
      return FieldSet.empty();
    }
  }

  /** The conflicts outside the allowed fields, or {@code null} when every one is allowed. */
  static ConflictException notAllowed(ConflictException e, FieldSet allowed) {
    List<Conflict> rest = new ArrayList<>();
    for (Conflict c : e.conflicts()) {
      if (!allowed.has(c.path())) {
        rest.add(c);
      }
    }
    return rest.isEmpty() ? null : new ConflictException(rest);
  }

  /** Sets the annotation to the applied configuration when the object has it. */
  static void follow(ObjectNode object, ObjectNode applied) {
    JsonNode annotations = object.path("metadata").path("annotations");
    if (!(annotations instanceof ObjectNode map) || !map.has(FieldManager.LAST_APPLIED)) {
      return;
    }
    ObjectNode config = applied.deepCopy();
    if (config.path("metadata").path("annotations") instanceof ObjectNode own) {
      own.remove(FieldManager.LAST_APPLIED);
      if (own.isEmpty()) {
        ((ObjectNode) config.get("metadata")).remove("annotations");
      }
    }
    map.put(FieldManager.LAST_APPLIED, sorted(config).toString() + "\n");
  }

  /** The tree with every object's fields in name order, as Go writes a map. */
  private static JsonNode sorted(JsonNode node) {
    if (node.isObject()) {
      ObjectNode out = JSON.createObjectNode();
      List<String> names = new ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      names.sort(null);
      names.forEach(n -> out.set(n, sorted(node.get(n))));
      return out;
    }
    if (node.isArray()) {
      var out = JSON.createArrayNode();
      node.forEach(item -> out.add(sorted(item)));
      return out;
    }
    return node;
  }
}
