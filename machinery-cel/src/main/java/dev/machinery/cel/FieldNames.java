package dev.machinery.cel;

import java.util.Set;

/**
 * Property names as CEL rules spell them, by Kubernetes' escaping: a name that is a CEL reserved
 * word is written {@code __name__} ({@code namespace} becomes {@code __namespace__}), and in other
 * names {@code __} becomes {@code __underscores__}, {@code .} {@code __dot__}, {@code -} {@code
 * __dash__} and {@code /} {@code __slash__}. A name that starts with a digit or holds any other
 * character cannot be reached from a rule. Stateless.
 */
final class FieldNames {
  private static final Set<String> RESERVED =
      Set.of(
          "true",
          "false",
          "null",
          "in",
          "as",
          "break",
          "const",
          "continue",
          "else",
          "for",
          "function",
          "if",
          "import",
          "let",
          "loop",
          "package",
          "namespace",
          "return",
          "var",
          "void",
          "while");

  private FieldNames() {}

  /**
   * The name a rule reads a property by.
   *
   * @param name the property's name
   * @return the escaped name, or null when no rule can read the property
   */
  static String escape(String name) {
    if (name.isEmpty() || Character.isDigit(name.charAt(0)) && name.charAt(0) <= '9') {
      return null;
    }
    if (RESERVED.contains(name)) {
      return "__" + name + "__";
    }
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '_' && i + 1 < name.length() && name.charAt(i + 1) == '_') {
        out.append("__underscores__");
        i++;
      } else if (c == '.') {
        out.append("__dot__");
      } else if (c == '-') {
        out.append("__dash__");
      } else if (c == '/') {
        out.append("__slash__");
      } else if (c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
        out.append(c);
      } else {
        return null;
      }
    }
    return out.toString();
  }
}
