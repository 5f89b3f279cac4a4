package dev.machinery.api.generator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The field numbers of Kubernetes' {@code generated.proto} files, by message: {@code
 * apps.v1.Deployment} → {@code metadata} 1, {@code spec} 2, {@code status} 3. go-to-protobuf
 * numbers a struct's fields in the order Go declares them, and a field added later gets the next
 * number, so sorting by number writes JSON close to Go's own field order ({@code name}, {@code
 * image}, ... of a container).
 */
final class ProtoFieldOrder {
  private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;");
  private static final Pattern MESSAGE = Pattern.compile("^message\\s+(\\w+)\\s*\\{");
  private static final Pattern FIELD =
      Pattern.compile(
          "^(?:optional|repeated|required)?\\s*(map<[^>]+>|[\\w.]+)\\s+(\\w+)\\s*=\\s*(\\d+)");

  /** A field of a message: its Java name, number, and the key of its message type, if any. */
  record Field(String name, int number, String type) {}

  /** No files: every definition keeps the document's order. */
  static final ProtoFieldOrder NONE = new ProtoFieldOrder(Map.of());

  private final Map<String, List<Field>> messages;

  private ProtoFieldOrder(Map<String, List<Field>> messages) {
    this.messages = messages;
  }

  /**
   * Reads every {@code .proto} file under a directory.
   *
   * @param root the directory
   * @return the messages
   * @throws IOException when a file cannot be read
   */
  static ProtoFieldOrder read(Path root) throws IOException {
    Map<String, List<Field>> out = new HashMap<>();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(p -> p.toString().endsWith(".proto")).sorted().toList();
    }
    for (Path file : files) {
      parse(Files.readString(file, StandardCharsets.UTF_8), out);
    }
    return new ProtoFieldOrder(out);
  }

  /**
   * Parses files given as text.
   *
   * @param texts the files
   * @return the messages
   */
  static ProtoFieldOrder of(String... texts) {
    Map<String, List<Field>> out = new HashMap<>();
    for (String text : texts) {
      parse(text, out);
    }
    return new ProtoFieldOrder(out);
  }

  /** {@code k8s.io.api.core.v1} → {@code core.v1}. */
  private static String shortPackage(String name) {
    String[] parts = name.split("\\.");
    return parts.length < 2
        ? name
        : parts[parts.length - 2].toLowerCase(Locale.ROOT) + "." + parts[parts.length - 1];
  }

  private static void parse(String text, Map<String, List<Field>> out) {
    String prefix = "";
    String message = null;
    int depth = 0;
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (line.startsWith("//") || line.isEmpty()) {
        continue;
      }
      Matcher m;
      if (depth == 0 && (m = PACKAGE.matcher(line)).find()) {
        prefix = shortPackage(m.group(1));
      } else if (depth == 0 && (m = MESSAGE.matcher(line)).find()) {
        message = prefix + "." + m.group(1);
        out.putIfAbsent(message, new ArrayList<>());
      } else if (depth == 1 && message != null && (m = FIELD.matcher(line)).find()) {
        String type = m.group(1);
        String typeKey =
            type.startsWith("map<")
                ? null
                : type.indexOf('.') < 0
                    ? prefix + "." + type
                    : shortPackage(type.substring(0, type.lastIndexOf('.')))
                        + type.substring(type.lastIndexOf('.'));
        out.get(message)
            .add(
                new Field(ModelWriter.javaName(m.group(2)), Integer.parseInt(m.group(3)), typeKey));
      }
      for (int i = 0; i < line.length(); i++) {
        char c = line.charAt(i);
        if (c == '{') {
          depth++;
        } else if (c == '}') {
          depth--;
          if (depth == 0) {
            message = null;
          }
        }
      }
    }
  }

  /**
   * The position of each property of a definition in its message: {@code [number]}, or, for a
   * property of a struct Go embeds inline (a volume's source, a probe's handler), the embedding
   * field's number followed by the property's number in the embedded message.
   *
   * @param message the message key, such as {@code core.v1.Volume}
   * @param properties the Java names of the definition's properties
   * @return the positions of the properties found; empty when there is no such message
   */
  Map<String, List<Integer>> positions(String message, Set<String> properties) {
    Map<String, List<Integer>> out = new HashMap<>();
    collect(message, properties, List.of(), out, 0);
    return out;
  }

  private void collect(
      String message,
      Set<String> properties,
      List<Integer> prefix,
      Map<String, List<Integer>> out,
      int depth) {
    List<Field> fields = messages.get(message);
    if (fields == null || depth > 3) {
      return;
    }
    for (Field f : fields) {
      List<Integer> position = new ArrayList<>(prefix);
      position.add(f.number());
      if (properties.contains(f.name())) {
        out.putIfAbsent(f.name(), List.copyOf(position));
      } else if (f.type() != null) {
        // A field the JSON does not name: a struct embedded inline.
        collect(f.type(), properties, position, out, depth + 1);
      }
    }
  }
}
