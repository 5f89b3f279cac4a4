package dev.machinery.cel;

import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.Map;

/**
 * The {@code fieldPath} of a rule: a relative JSON path of field names ({@code .spec.foo}) and
 * quoted map keys or field names ({@code ['a.b']}) that must name a field the schema declares, as
 * kube-apiserver reads it. Stateless.
 */
final class RuleFieldPaths {
  private RuleFieldPaths() {}

  /**
   * Resolves a rule's field path against the schema the rule is on.
   *
   * @param jsonPath the rule's {@code fieldPath}
   * @param schema the schema of the value the rule is on
   * @return the path, relative, in Kubernetes' form ({@code spec.foo}, {@code labels[a.b]})
   * @throws IllegalArgumentException when the path is malformed or names no declared field
   */
  static String resolve(String jsonPath, JSONSchemaProps schema) {
    FieldPath path = null;
    JSONSchemaProps at = schema;
    int i = 0;
    int n = jsonPath.length();
    if (n == 0) {
      throw new IllegalArgumentException("unexpected end of JSON path");
    }
    while (i < n) {
      char c = jsonPath.charAt(i);
      String name;
      if (c == '.') {
        int start = ++i;
        while (i < n && jsonPath.charAt(i) != '.' && jsonPath.charAt(i) != '[') {
          i++;
        }
        if (start == i) {
          throw new IllegalArgumentException("unexpected end of JSON path");
        }
        name = jsonPath.substring(start, i);
      } else if (c == '[') {
        i++;
        if (i >= n || jsonPath.charAt(i) != '\'') {
          throw new IllegalArgumentException("expected single quoted string");
        }
        StringBuilder key = new StringBuilder();
        i++;
        while (i < n && jsonPath.charAt(i) != '\'') {
          if (jsonPath.charAt(i) == '\\' && i + 1 < n) {
            key.append(jsonPath.charAt(i + 1));
            i += 2;
          } else {
            key.append(jsonPath.charAt(i++));
          }
        }
        if (i + 1 >= n || jsonPath.charAt(i + 1) != ']') {
          throw new IllegalArgumentException("expected ]");
        }
        i += 2;
        name = key.toString();
      } else {
        throw new IllegalArgumentException("expected [ or . but got: " + c);
      }
      Map<String, JSONSchemaProps> properties = at.properties();
      if (properties != null && !properties.isEmpty()) {
        JSONSchemaProps next = properties.get(name);
        if (next == null) {
          throw new IllegalArgumentException("does not refer to a valid field");
        }
        path = path == null ? FieldPath.of(name) : path.child(name);
        at = next;
      } else if (at.additionalProperties() != null && at.additionalProperties().schema() != null) {
        if (path == null) {
          throw new IllegalArgumentException("does not refer to a valid field");
        }
        path = path.key(name);
        at = at.additionalProperties().schema();
      } else {
        throw new IllegalArgumentException("does not refer to a valid field");
      }
    }
    return path.toString();
  }
}
