package dev.machinery.unversioned.protobuf;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one {@code .proto} file of the proto2 subset Kubernetes' generated files use: {@code
 * syntax}, {@code package}, {@code import}, {@code option}, messages (nested ones too) with {@code
 * optional}, {@code required}, {@code repeated} and {@code map<K, V>} fields and field options;
 * comments are skipped, except that the {@code +tag} lines of the comment before a message are
 * kept. Type names are left as written; {@link ProtoSchema} resolves them. Anything else (enums,
 * oneofs, services, extensions, proto3) is a {@link ProtoSchemaException} naming the line and what
 * was expected. One file, one thread.
 */
final class ProtoParser {
  /** A field as written, its type not yet resolved. */
  record ParsedField(
      String name,
      int number,
      FieldDescriptor.Label label,
      String type,
      ScalarType mapKey,
      boolean packed,
      int line) {}

  /** A message as written. */
  record ParsedMessage(String fullName, List<ParsedField> fields, Set<String> tags, int line) {}

  /** A file as written. */
  record ParsedFile(ProtoFile file, List<ParsedMessage> messages) {}

  private enum Kind {
    IDENT,
    INT,
    STRING,
    SYMBOL,
    END
  }

  private record Token(Kind kind, String text, int line, String comment) {}

  /** The largest field number protobuf allows. */
  private static final int MAX_FIELD_NUMBER = 536_870_911;

  private final String path;
  private final String text;
  private int at;
  private int line = 1;
  private Token current;

  private ProtoParser(String path, String text) {
    this.path = path;
    this.text = text;
  }

  /**
   * Parses a file.
   *
   * @throws ProtoSchemaException naming the line and what was expected
   */
  static ParsedFile parse(String path, String text) {
    return new ProtoParser(path, text).file();
  }

  // ---- grammar

  private ParsedFile file() {
    advance();
    String packageName = "";
    boolean packageSeen = false;
    List<String> imports = new ArrayList<>();
    Map<String, String> options = new LinkedHashMap<>();
    List<ParsedMessage> messages = new ArrayList<>();
    boolean first = true;
    while (current.kind() != Kind.END) {
      if (isWord("syntax")) {
        if (!first) {
          throw error("the syntax statement must come first");
        }
        advance();
        expectSymbol("=");
        Token value = expect(Kind.STRING, "a quoted syntax such as \"proto2\"");
        if (!value.text().equals("proto2")) {
          throw new ProtoSchemaException(
              path,
              value.line(),
              "expected syntax \"proto2\", found \""
                  + value.text()
                  + "\": only proto2 files are supported");
        }
        expectSymbol(";");
      } else if (isWord("package")) {
        if (packageSeen) {
          throw error("a second package statement");
        }
        advance();
        packageName = qualifiedName("a package name");
        packageSeen = true;
        expectSymbol(";");
      } else if (isWord("import")) {
        advance();
        if (isWord("public") || isWord("weak")) {
          advance();
        }
        imports.add(expect(Kind.STRING, "a quoted file name").text());
        expectSymbol(";");
      } else if (isWord("option")) {
        advance();
        Map.Entry<String, String> option = optionBody();
        options.put(option.getKey(), option.getValue());
        expectSymbol(";");
      } else if (isWord("message")) {
        message(packageName, messages);
      } else if (isSymbol(";")) {
        advance();
      } else {
        throw error("expected syntax, package, import, option or message");
      }
      first = false;
    }
    return new ParsedFile(new ProtoFile(path, packageName, imports, options), messages);
  }

  private void message(String scope, List<ParsedMessage> out) {
    Token keyword = current;
    Set<String> tags = tags(keyword.comment());
    advance();
    String name = expect(Kind.IDENT, "a message name").text();
    if (name.contains(".")) {
      throw new ProtoSchemaException(
          path, keyword.line(), "expected a message name without dots, found \"" + name + "\"");
    }
    String fullName = scope.isEmpty() ? name : scope + "." + name;
    expectSymbol("{");
    List<ParsedField> fields = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Map<Integer, String> numbers = new LinkedHashMap<>();
    int index = out.size();
    out.add(null);
    while (!isSymbol("}")) {
      if (current.kind() == Kind.END) {
        throw error("expected } to close message " + name);
      }
      if (isWord("message")) {
        message(fullName, out);
      } else if (isWord("option")) {
        advance();
        optionBody();
        expectSymbol(";");
      } else if (isSymbol(";")) {
        advance();
      } else if (isWord("optional") || isWord("required") || isWord("repeated") || isWord("map")) {
        ParsedField field = field();
        if (!names.add(field.name())) {
          throw new ProtoSchemaException(
              path,
              field.line(),
              "field \"" + field.name() + "\" is declared twice in message " + fullName);
        }
        String previous = numbers.putIfAbsent(field.number(), field.name());
        if (previous != null) {
          throw new ProtoSchemaException(
              path,
              field.line(),
              "field number "
                  + field.number()
                  + " of \""
                  + field.name()
                  + "\" is already used by \""
                  + previous
                  + "\" in message "
                  + fullName);
        }
        fields.add(field);
      } else {
        throw error(
            "expected a field (optional, required, repeated or map), a nested message, an option"
                + " or } in message "
                + name);
      }
    }
    advance();
    out.set(index, new ParsedMessage(fullName, List.copyOf(fields), tags, keyword.line()));
  }

  private ParsedField field() {
    int fieldLine = current.line();
    FieldDescriptor.Label label;
    String type;
    ScalarType mapKey = null;
    if (isWord("map")) {
      advance();
      label = FieldDescriptor.Label.MAP;
      expectSymbol("<");
      Token key = expect(Kind.IDENT, "a map key type");
      mapKey =
          ScalarType.forProtoName(key.text())
              .filter(t -> t != ScalarType.DOUBLE && t != ScalarType.FLOAT && t != ScalarType.BYTES)
              .orElseThrow(
                  () ->
                      new ProtoSchemaException(
                          path,
                          key.line(),
                          "expected an integer, bool or string map key type, found \""
                              + key.text()
                              + "\""));
      expectSymbol(",");
      type = expect(Kind.IDENT, "a map value type").text();
      expectSymbol(">");
    } else {
      label =
          switch (current.text()) {
            case "optional" -> FieldDescriptor.Label.OPTIONAL;
            case "required" -> FieldDescriptor.Label.REQUIRED;
            default -> FieldDescriptor.Label.REPEATED;
          };
      advance();
      if (isWord("map")) {
        throw error("expected a field type, found map after a label: a map takes no label");
      }
      type = expect(Kind.IDENT, "a field type").text();
    }
    Token nameToken = expect(Kind.IDENT, "a field name");
    if (nameToken.text().contains(".")) {
      throw new ProtoSchemaException(
          path, nameToken.line(), "expected a field name, found \"" + nameToken.text() + "\"");
    }
    expectSymbol("=");
    Token numberToken = expect(Kind.INT, "a field number");
    long number;
    try {
      number = Long.decode(numberToken.text());
    } catch (NumberFormatException e) {
      number = -1;
    }
    if (number < 1 || number > MAX_FIELD_NUMBER || (number >= 19_000 && number <= 19_999)) {
      throw new ProtoSchemaException(
          path,
          numberToken.line(),
          "expected a field number from 1 to "
              + MAX_FIELD_NUMBER
              + " outside 19000-19999, found "
              + numberToken.text());
    }
    boolean packed = false;
    if (isSymbol("[")) {
      advance();
      while (true) {
        Map.Entry<String, String> option = optionBody();
        if (option.getKey().equals("packed")) {
          packed = option.getValue().equals("true");
        }
        if (isSymbol(",")) {
          advance();
        } else {
          break;
        }
      }
      expectSymbol("]");
    }
    expectSymbol(";");
    if (packed
        && (label != FieldDescriptor.Label.REPEATED
            || ScalarType.forProtoName(type).map(t -> t.wireType() == 2).orElse(true))) {
      throw new ProtoSchemaException(
          path,
          fieldLine,
          "[packed = true] is only for repeated numeric fields (" + nameToken.text() + ")");
    }
    return new ParsedField(nameToken.text(), (int) number, label, type, mapKey, packed, fieldLine);
  }

  /** {@code name = constant}, the name with its parentheses as written. */
  private Map.Entry<String, String> optionBody() {
    StringBuilder name = new StringBuilder();
    if (isSymbol("(")) {
      advance();
      name.append('(').append(qualifiedName("an option name")).append(')');
      expectSymbol(")");
      while (current.kind() == Kind.IDENT && current.text().startsWith(".")) {
        name.append(current.text());
        advance();
      }
    } else {
      name.append(expect(Kind.IDENT, "an option name").text());
    }
    expectSymbol("=");
    String value;
    if (isSymbol("-")) {
      advance();
      value = "-" + expect(Kind.INT, "a number").text();
    } else if (current.kind() == Kind.STRING
        || current.kind() == Kind.INT
        || current.kind() == Kind.IDENT) {
      value = current.text();
      advance();
    } else {
      throw error("expected an option value (a string, number or identifier)");
    }
    return Map.entry(name.toString(), value);
  }

  private String qualifiedName(String what) {
    Token name = expect(Kind.IDENT, what);
    if (name.text().startsWith(".") || name.text().endsWith(".") || name.text().contains("..")) {
      throw new ProtoSchemaException(
          path, name.line(), "expected " + what + ", found \"" + name.text() + "\"");
    }
    return name.text();
  }

  private static Set<String> tags(String comment) {
    Set<String> tags = new LinkedHashSet<>();
    for (String commentLine : comment.split("\n", -1)) {
      String trimmed = commentLine.strip();
      if (trimmed.startsWith("+")) {
        tags.add(trimmed.substring(1));
      }
    }
    return tags;
  }

  // ---- tokens

  private boolean isWord(String word) {
    return current.kind() == Kind.IDENT && current.text().equals(word);
  }

  private boolean isSymbol(String symbol) {
    return current.kind() == Kind.SYMBOL && current.text().equals(symbol);
  }

  private void expectSymbol(String symbol) {
    if (!isSymbol(symbol)) {
      throw error("expected " + symbol);
    }
    advance();
  }

  private Token expect(Kind kind, String what) {
    if (current.kind() != kind) {
      throw error("expected " + what);
    }
    Token token = current;
    advance();
    return token;
  }

  private ProtoSchemaException error(String expected) {
    String found =
        switch (current.kind()) {
          case END -> "the end of the file";
          case STRING -> "\"" + shorten(current.text()) + "\"";
          default -> "\"" + shorten(current.text()) + "\"";
        };
    return new ProtoSchemaException(path, current.line(), expected + ", found " + found);
  }

  private static String shorten(String text) {
    return text.length() > 64 ? text.substring(0, 64) + "..." : text;
  }

  private void advance() {
    StringBuilder comment = new StringBuilder();
    while (true) {
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
        if (text.charAt(at) == '\n') {
          line++;
        }
        at++;
      }
      if (text.startsWith("//", at)) {
        int end = text.indexOf('\n', at);
        end = end < 0 ? text.length() : end;
        comment.append(text, at + 2, end).append('\n');
        at = end;
      } else if (text.startsWith("/*", at)) {
        int startLine = line;
        int end = text.indexOf("*/", at + 2);
        if (end < 0) {
          throw new ProtoSchemaException(path, startLine, "expected */ to close the comment");
        }
        for (int i = at; i < end; i++) {
          if (text.charAt(i) == '\n') {
            line++;
          }
        }
        comment.append(text, at + 2, end).append('\n');
        at = end + 2;
      } else {
        break;
      }
    }
    String leading = comment.toString();
    if (at >= text.length()) {
      current = new Token(Kind.END, "", line, leading);
      return;
    }
    char c = text.charAt(at);
    int start = at;
    if (Character.isLetter(c)
        || c == '_'
        || (c == '.'
            && at + 1 < text.length()
            && (Character.isLetter(text.charAt(at + 1)) || text.charAt(at + 1) == '_'))) {
      at++;
      while (at < text.length()
          && (Character.isLetterOrDigit(text.charAt(at))
              || text.charAt(at) == '_'
              || text.charAt(at) == '.')) {
        at++;
      }
      current = new Token(Kind.IDENT, text.substring(start, at), line, leading);
    } else if (c >= '0' && c <= '9') {
      while (at < text.length()
          && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '.')) {
        at++;
      }
      current = new Token(Kind.INT, text.substring(start, at), line, leading);
    } else if (c == '"' || c == '\'') {
      current = new Token(Kind.STRING, string(c), line, leading);
    } else {
      at++;
      current = new Token(Kind.SYMBOL, String.valueOf(c), line, leading);
    }
  }

  private String string(char quote) {
    int startLine = line;
    StringBuilder value = new StringBuilder();
    at++;
    while (true) {
      if (at >= text.length() || text.charAt(at) == '\n') {
        throw new ProtoSchemaException(
            path, startLine, "expected " + quote + " to close the string");
      }
      char c = text.charAt(at++);
      if (c == quote) {
        return value.toString();
      }
      if (c == '\\' && at < text.length()) {
        char escaped = text.charAt(at++);
        value.append(
            switch (escaped) {
              case 'n' -> '\n';
              case 't' -> '\t';
              case 'r' -> '\r';
              case '0' -> '\0';
              default -> escaped;
            });
      } else {
        value.append(c);
      }
    }
  }
}
