package dev.machinery.unversioned.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.fieldpath.FieldPathException;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.FieldsV1;
import dev.machinery.core.merge.VersionedSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes {@code metadata.managedFields} as kube-apiserver does: each entry becomes a
 * manager identifier with its {@link VersionedSet} and time; entries are written back ordered by
 * operation ({@code Apply} first), time, manager, API version and subresource, each with {@code
 * fieldsType: FieldsV1} and its field set byte for byte in FieldsV1's order. Stateless;
 * thread-safe.
 */
public final class ManagedFields {
  /** The operation of an apply. */
  public static final String APPLY = "Apply";

  /** The operation of any other write. */
  public static final String UPDATE = "Update";

  private static final ObjectMapper JSON = ObjectJson.mapperBuilder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ManagedFields() {}

  /**
   * Returns the identifier kube-apiserver keys a manager by: a JSON object of the manager's name,
   * its operation, the API version for updates only (an applier is one manager whatever version it
   * applies in) and the subresource when there is one.
   *
   * @param manager the manager's name
   * @param operation {@link #APPLY} or {@link #UPDATE}
   * @param apiVersion the API version of the write
   * @param subresource the subresource written, or {@code null} or empty for the object itself
   * @return the identifier
   */
  public static String identifier(
      String manager, String operation, String apiVersion, String subresource) {
    ObjectNode id = NODES.objectNode();
    if (manager != null && !manager.isEmpty()) {
      id.put("manager", manager);
    }
    if (operation != null && !operation.isEmpty()) {
      id.put("operation", operation);
    }
    if (!APPLY.equals(operation) && apiVersion != null && !apiVersion.isEmpty()) {
      id.put("apiVersion", apiVersion);
    }
    if (subresource != null && !subresource.isEmpty()) {
      id.put("subresource", subresource);
    }
    return id.toString();
  }

  /**
   * Reads the parts of an identifier back: its {@code manager}, {@code operation}, {@code
   * apiVersion} and {@code subresource} fields (absent ones missing).
   *
   * @param identifier the identifier
   * @return the parts, as a JSON object (empty when the identifier is not one)
   */
  public static ObjectNode parts(String identifier) {
    try {
      JsonNode node = JSON.readTree(identifier);
      return node instanceof ObjectNode object ? object : NODES.objectNode();
    } catch (IOException e) {
      return NODES.objectNode();
    }
  }

  /**
   * Reads the entries of {@code metadata.managedFields}.
   *
   * @param entries the JSON array (missing or null for none)
   * @return the managers
   * @throws ManagedFieldsException naming the entry that cannot be read
   */
  public static Managed decode(JsonNode entries) {
    if (entries == null || entries.isMissingNode() || entries.isNull()) {
      return Managed.empty();
    }
    if (!entries.isArray()) {
      throw new ManagedFieldsException(
          "metadata.managedFields: expected a list of entries, got " + entries.getNodeType(), null);
    }
    Map<String, VersionedSet> fields = new HashMap<>();
    Map<String, Instant> times = new HashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      JsonNode entry = entries.get(i);
      String where = "metadata.managedFields[" + i + "]";
      if (!entry.isObject()) {
        throw new ManagedFieldsException(where + ": expected an object", null);
      }
      String operation = entry.path("operation").asText("");
      if (!operation.isEmpty() && !operation.equals(APPLY) && !operation.equals(UPDATE)) {
        throw new ManagedFieldsException(
            where + ".operation: must be `Apply` or `Update`, got \"" + operation + "\"", null);
      }
      String fieldsType = entry.path("fieldsType").asText("");
      if (!fieldsType.isEmpty() && !fieldsType.equals("FieldsV1")) {
        throw new ManagedFieldsException(
            where + ".fieldsType: must be `FieldsV1`, got \"" + fieldsType + "\"", null);
      }
      String apiVersion = entry.path("apiVersion").asText("");
      String id =
          identifier(
              entry.path("manager").asText(""),
              operation,
              apiVersion,
              entry.path("subresource").asText(""));
      FieldSet set;
      JsonNode v1 = entry.get("fieldsV1");
      try {
        set =
            v1 == null || v1.isNull()
                ? FieldSet.empty()
                : FieldsV1.parse(JSON.writeValueAsBytes(v1));
      } catch (FieldPathException e) {
        throw new ManagedFieldsException(where + ".fieldsV1: " + e.getMessage(), e);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      fields.put(id, new VersionedSet(set, apiVersion, operation.equals(APPLY)));
      JsonNode time = entry.get("time");
      if (time != null && time.isTextual()) {
        try {
          times.put(id, Instant.parse(time.asText()));
        } catch (DateTimeParseException e) {
          throw new ManagedFieldsException(
              where + ".time: not an RFC 3339 time: \"" + time.asText() + "\"", e);
        }
      }
    }
    return new Managed(fields, times);
  }

  /**
   * Writes the managers as {@code metadata.managedFields} entries, in kube-apiserver's order.
   *
   * @param managed the managers
   * @return the entries, or {@code null} when there are none (the field is then left out)
   */
  public static ArrayNode encode(Managed managed) {
    if (managed.isEmpty()) {
      return null;
    }
    List<ObjectNode> entries = new ArrayList<>();
    for (var e : managed.fields().entrySet()) {
      ObjectNode parts = parts(e.getKey());
      VersionedSet set = e.getValue();
      ObjectNode entry = NODES.objectNode();
      putText(entry, "manager", parts.path("manager").asText(""));
      entry.put("operation", set.applied() ? APPLY : UPDATE);
      putText(entry, "apiVersion", set.apiVersion());
      Instant time = managed.times().get(e.getKey());
      if (time != null) {
        entry.put("time", time.truncatedTo(ChronoUnit.SECONDS).toString());
      }
      entry.put("fieldsType", "FieldsV1");
      try {
        entry.set("fieldsV1", JSON.readTree(FieldsV1.toBytes(set.set())));
      } catch (IOException ex) {
        throw new UncheckedIOException(ex);
      }
      putText(entry, "subresource", parts.path("subresource").asText(""));
      entries.add(entry);
    }
    entries.sort(
        Comparator.<ObjectNode, String>comparing(n -> n.path("operation").asText())
            .thenComparingLong(ManagedFields::seconds)
            .thenComparing(n -> n.path("manager").asText())
            .thenComparing(n -> n.path("apiVersion").asText())
            .thenComparing(n -> n.path("subresource").asText()));
    ArrayNode out = NODES.arrayNode();
    entries.forEach(out::add);
    return out;
  }

  private static long seconds(ObjectNode entry) {
    JsonNode time = entry.get("time");
    return time == null ? 0 : Instant.parse(time.asText()).getEpochSecond();
  }

  private static void putText(ObjectNode entry, String name, String value) {
    if (value != null && !value.isEmpty()) {
      entry.put(name, value);
    }
  }
}
