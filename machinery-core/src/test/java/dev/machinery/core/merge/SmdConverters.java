package dev.machinery.core.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The version converters structured-merge-diff's merge tests run with, rebuilt on JSON trees. Each
 * takes a function from an API version to the type of that version (the table's parser).
 */
final class SmdConverters {
  private SmdConverters() {}

  /**
   * Returns the named converter of the tables: {@code identity}, {@code renaming}, {@code
   * repeating}, {@code reliantFields}, or {@code specificVersions} (which accepts the versions in
   * {@code accepted}, changed as a table's steps say).
   */
  static VersionConverter named(
      String name,
      Function<String, TypedValue> typeOf,
      Function<TypedValue, String> versionOf,
      Set<String> accepted) {
    return switch (name) {
      case "identity" -> (value, version) -> Optional.of(value);
      case "renaming" -> renaming(typeOf, versionOf);
      case "repeating" -> repeating(typeOf);
      case "reliantFields" -> reliantFields(typeOf, versionOf);
      case "specificVersions" ->
          (value, version) -> accepted.contains(version) ? Optional.of(value) : Optional.empty();
      default -> throw new IllegalArgumentException("no converter " + name);
    };
  }

  /**
   * Renames every map key ending in the value's version (told by its root type) to end in the
   * target version instead: {@code scalarField_v1} in v1 is {@code scalarField_v2} in v2.
   */
  private static VersionConverter renaming(
      Function<String, TypedValue> typeOf, Function<TypedValue, String> versionOf) {
    return (value, version) -> {
      String from = versionOf.apply(value);
      return Optional.of(typeOf.apply(version).with(rename(value.value(), from, version)));
    };
  }

  private static JsonNode rename(JsonNode node, String from, String to) {
    if (node.isObject()) {
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      node.properties()
          .forEach(
              e -> {
                String key = e.getKey();
                String renamed =
                    key.endsWith(from) ? key.substring(0, key.length() - from.length()) + to : key;
                out.set(renamed, rename(e.getValue(), from, to));
              });
      return out;
    }
    if (node.isArray()) {
      var out = JsonNodeFactory.instance.arrayNode();
      node.forEach(item -> out.add(rename(item, from, to)));
      return out;
    }
    return node;
  }

  /**
   * Structured-merge-diff's converter that makes each version's keys differ: in version {@code vN}
   * the value keeps its first top-level key (sorted, as YAML writes it), and every key below it
   * becomes its first letter written N times; values that are not non-empty maps become null. A
   * version not of the form {@code vN} is missing.
   */
  private static VersionConverter repeating(Function<String, TypedValue> typeOf) {
    return (value, version) -> {
      if (version.length() < 2 || version.charAt(0) != 'v') {
        return Optional.empty();
      }
      int times;
      try {
        times = Integer.parseInt(version.substring(1));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
      JsonNode v = value.value();
      if (!v.isObject() || v.isEmpty()) {
        return Optional.of(typeOf.apply(version).with(v));
      }
      String first = sortedKeys(v).get(0);
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      JsonNode inner = v.get(first);
      out.set(first, inner.isObject() && !inner.isEmpty() ? repeat(inner, times) : inner);
      return Optional.of(typeOf.apply(version).with(out));
    };
  }

  private static JsonNode repeat(JsonNode node, int times) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    for (String key : sortedKeys(node)) {
      JsonNode child = node.get(key);
      out.set(
          key.substring(0, 1).repeat(times),
          child.isObject() && !child.isEmpty() ? repeat(child, times) : NullNode.getInstance());
    }
    return out;
  }

  private static List<String> sortedKeys(JsonNode node) {
    List<String> keys = new ArrayList<>();
    node.fieldNames().forEachRemaining(keys::add);
    Collections.sort(keys);
    return keys;
  }

  /**
   * Structured-merge-diff's converter between a v1 with {@code field_foo_rely_on_bar} and a v2 with
   * {@code required_field_bar}: the field is renamed; converting to v1 fails without it. The
   * version of a value is told by its type (types named by version, or as the table maps them).
   */
  private static VersionConverter reliantFields(
      Function<String, TypedValue> typeOf, Function<TypedValue, String> versionOf) {
    Map<String, String[]> names =
        Map.of(
            "v1", new String[] {"required_field_bar", "field_foo_rely_on_bar"},
            "v2", new String[] {"field_foo_rely_on_bar", "required_field_bar"});
    return (value, version) -> {
      if (versionOf.apply(value).equals(version)) {
        return Optional.of(value);
      }
      String[] rename = names.get(version);
      if (rename == null) {
        return Optional.empty();
      }
      if (version.equals("v1") && !value.value().has(rename[0])) {
        throw new IllegalStateException("missing required field bar");
      }
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      value
          .value()
          .properties()
          .forEach(
              e -> out.set(e.getKey().equals(rename[0]) ? rename[1] : e.getKey(), e.getValue()));
      return Optional.of(typeOf.apply(version).with(out));
    };
  }
}
