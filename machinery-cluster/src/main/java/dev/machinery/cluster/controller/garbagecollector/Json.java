package dev.machinery.cluster.controller.garbagecollector;

import java.util.List;
import java.util.stream.Collectors;

/** JSON text for the patches the garbage collector sends. Stateless; thread-safe. */
final class Json {
  private Json() {}

  /** A JSON string literal. */
  static String quote(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  /** A JSON array of strings. */
  static String strings(List<String> values) {
    return values.stream().map(Json::quote).collect(Collectors.joining(",", "[", "]"));
  }
}
