package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.machinery.core.codec.yaml.YamlNode;
import dev.machinery.core.internal.FieldPaths;
import java.io.IOException;

/**
 * Finds where a field path stands in a document, for errors found after binding (a conversion that
 * fails on a value). Only called on the way to an error, so it may take a second pass. Stateless.
 */
final class FieldLocations {
  /** No location: line and column 0. */
  static final int[] UNKNOWN = {0, 0};

  /** Finds a path in a document; answers {@link #UNKNOWN} where it is not found. */
  interface Locator {
    int[] locate(String path);
  }

  private FieldLocations() {}

  /** The line and column of the field at {@code path} in a JSON document. */
  static int[] inJson(JsonFactory factory, byte[] data, int start, int length, String path) {
    try (JsonParser p = factory.createParser(data, start, length - start)) {
      for (JsonToken token = p.nextToken(); token != null; token = p.nextToken()) {
        if (token == JsonToken.FIELD_NAME && FieldPaths.of(p.getParsingContext()).equals(path)) {
          JsonLocation at = p.currentTokenLocation();
          return new int[] {at.getLineNr(), at.getColumnNr()};
        }
      }
    } catch (IOException e) {
      // The document was read once already; a second failure leaves the location unknown.
    }
    return UNKNOWN;
  }

  /** The line and column of the node at {@code path} in a YAML document. */
  static int[] inYaml(YamlNode root, String path) {
    YamlNode node = root;
    int i = 0;
    while (node != null && i < path.length()) {
      if (path.charAt(i) == '[') {
        int end = path.indexOf(']', i);
        if (end < 0 || !(node instanceof YamlNode.Sequence)) {
          return UNKNOWN;
        }
        int index;
        try {
          index = Integer.parseInt(path.substring(i + 1, end));
        } catch (NumberFormatException e) {
          return UNKNOWN;
        }
        java.util.List<YamlNode> items = ((YamlNode.Sequence) node).items;
        node = index >= 0 && index < items.size() ? items.get(index) : null;
        i = end + 1;
      } else {
        if (path.charAt(i) == '.') {
          i++;
        }
        int end = i;
        while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
          end++;
        }
        if (!(node instanceof YamlNode.Mapping)) {
          return UNKNOWN;
        }
        YamlNode.Mapping mapping = (YamlNode.Mapping) node;
        int at = mapping.keys.indexOf(path.substring(i, end));
        node = at < 0 ? null : mapping.values.get(at);
        i = end;
      }
    }
    return node == null ? UNKNOWN : new int[] {node.line, node.column};
  }
}
