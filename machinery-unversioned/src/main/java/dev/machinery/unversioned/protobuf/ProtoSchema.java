package dev.machinery.unversioned.protobuf;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A closed set of parsed {@code .proto} files: every message by its full name, each field's type
 * resolved as protoc resolves it (a name with a leading dot is absolute; any other is looked up
 * from the innermost enclosing scope outwards, the first scope that defines its first part decides)
 * and visible only when its file is the same file or one it imports. Build one with {@link
 * #builder()}; the files are the proto2 subset Kubernetes' generated files use.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class ProtoSchema {
  private final Map<String, ProtoFile> files;
  private final Map<String, MessageDescriptor> messages;

  private ProtoSchema(Map<String, ProtoFile> files, Map<String, MessageDescriptor> messages) {
    this.files = Map.copyOf(files);
    this.messages = Map.copyOf(messages);
  }

  /**
   * Starts a schema.
   *
   * @return an empty builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Finds a message.
   *
   * @param fullName the full name without a leading dot, such as {@code
   *     k8s.io.api.apps.v1.Deployment}
   * @return the message, or empty when no file declares it
   */
  public Optional<MessageDescriptor> message(String fullName) {
    return Optional.ofNullable(messages.get(Objects.requireNonNull(fullName, "fullName")));
  }

  /**
   * Returns every message.
   *
   * @return the messages, in no particular order
   */
  public Collection<MessageDescriptor> messages() {
    return messages.values();
  }

  /**
   * Returns every file.
   *
   * @return the files, in no particular order
   */
  public Collection<ProtoFile> files() {
    return files.values();
  }

  /**
   * Finds a file by its path.
   *
   * @param path the path it was added with
   * @return the file, or empty
   */
  public Optional<ProtoFile> file(String path) {
    return Optional.ofNullable(files.get(Objects.requireNonNull(path, "path")));
  }

  /** Collects {@code .proto} files and resolves them at {@link #build()}. Not thread-safe. */
  public static final class Builder {
    private final Map<String, ProtoParser.ParsedFile> parsed = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Parses a file and adds it.
     *
     * @param path the path other files import it by, such as {@code
     *     k8s.io/api/core/v1/generated.proto}
     * @param text the file's text
     * @return this builder
     * @throws ProtoSchemaException when the file does not parse, naming the line and what was
     *     expected
     * @throws IllegalArgumentException when a file of that path was added already
     */
    public Builder add(String path, String text) {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(text, "text");
      if (parsed.containsKey(path)) {
        throw new IllegalArgumentException("the file " + path + " was added already");
      }
      parsed.put(path, ProtoParser.parse(path, text));
      return this;
    }

    /**
     * Resolves every field's type and builds the schema.
     *
     * @return the schema
     * @throws ProtoSchemaException when an import is missing, a message is declared twice, or a
     *     type name does not resolve to a visible message; one exception names every problem (the
     *     first, then the others in its message and as suppressed exceptions)
     */
    public ProtoSchema build() {
      List<ProtoSchemaException> problems = new ArrayList<>();
      Map<String, ProtoParser.ParsedMessage> byName = new HashMap<>();
      Map<String, String> fileOf = new HashMap<>();
      Set<String> packages = new HashSet<>();
      for (ProtoParser.ParsedFile file : parsed.values()) {
        String pkg = file.file().packageName();
        for (int i = 0; i < pkg.length(); i++) {
          if (pkg.charAt(i) == '.') {
            packages.add(pkg.substring(0, i));
          }
        }
        packages.add(pkg);
        for (String imported : file.file().imports()) {
          if (!parsed.containsKey(imported)) {
            problems.add(
                new ProtoSchemaException(
                    file.file().path(),
                    0,
                    "imports \"" + imported + "\", which is not among the files given"));
          }
        }
        for (ProtoParser.ParsedMessage message : file.messages()) {
          String previous = fileOf.putIfAbsent(message.fullName(), file.file().path());
          if (previous != null) {
            problems.add(
                new ProtoSchemaException(
                    file.file().path(),
                    message.line(),
                    "message " + message.fullName() + " is already declared in " + previous));
          } else {
            byName.put(message.fullName(), message);
          }
        }
      }
      Map<String, MessageDescriptor> messages = new HashMap<>();
      Map<String, ProtoFile> files = new LinkedHashMap<>();
      for (ProtoParser.ParsedFile file : parsed.values()) {
        files.put(file.file().path(), file.file());
        Set<String> visible = new HashSet<>(file.file().imports());
        visible.add(file.file().path());
        for (ProtoParser.ParsedMessage message : file.messages()) {
          List<FieldDescriptor> fields = new ArrayList<>();
          for (ProtoParser.ParsedField field : message.fields()) {
            Optional<ScalarType> scalar = ScalarType.forProtoName(field.type());
            String messageType = null;
            if (scalar.isEmpty()) {
              try {
                messageType =
                    resolve(
                        field,
                        message.fullName(),
                        file.file().path(),
                        visible,
                        byName,
                        fileOf,
                        packages);
              } catch (ProtoSchemaException e) {
                problems.add(e);
                continue;
              }
            }
            fields.add(
                new FieldDescriptor(
                    field.name(),
                    field.number(),
                    field.label(),
                    scalar.orElse(null),
                    messageType,
                    field.mapKey(),
                    field.packed()));
          }
          messages.put(
              message.fullName(),
              new MessageDescriptor(
                  message.fullName(), file.file().path(), fields, message.tags()));
        }
      }
      if (!problems.isEmpty()) {
        ProtoSchemaException first = problems.get(0);
        if (problems.size() == 1) {
          throw first;
        }
        ProtoSchemaException all =
            new ProtoSchemaException(
                first.file(),
                first.line(),
                first.problem()
                    + " (and "
                    + (problems.size() - 1)
                    + " more: "
                    + problems.subList(1, problems.size()).stream()
                        .map(Throwable::getMessage)
                        .collect(java.util.stream.Collectors.joining("; "))
                    + ")");
        problems.subList(1, problems.size()).forEach(all::addSuppressed);
        throw all;
      }
      return new ProtoSchema(files, messages);
    }

    private static String resolve(
        ProtoParser.ParsedField field,
        String scope,
        String path,
        Set<String> visible,
        Map<String, ProtoParser.ParsedMessage> byName,
        Map<String, String> fileOf,
        Set<String> packages) {
      String name = field.type();
      String found = null;
      if (name.startsWith(".")) {
        found = name.substring(1);
      } else {
        int dot = name.indexOf('.');
        String first = dot < 0 ? name : name.substring(0, dot);
        for (String at = scope; ; at = parent(at)) {
          String candidate = at.isEmpty() ? first : at + "." + first;
          if (byName.containsKey(candidate) || packages.contains(candidate)) {
            found = at.isEmpty() ? name : at + "." + name;
            break;
          }
          if (at.isEmpty()) {
            break;
          }
        }
      }
      if (found == null || !byName.containsKey(found)) {
        throw new ProtoSchemaException(
            path,
            field.line(),
            "expected a scalar or message type for field \""
                + field.name()
                + "\", found \""
                + name
                + "\", which is not defined"
                + (found != null && !found.equals(name) ? " (looked up as " + found + ")" : ""));
      }
      String declaredIn = fileOf.get(found);
      if (!visible.contains(declaredIn)) {
        throw new ProtoSchemaException(
            path,
            field.line(),
            "field \""
                + field.name()
                + "\" uses "
                + found
                + ", declared in "
                + declaredIn
                + ", which this file does not import");
      }
      return found;
    }

    private static String parent(String scope) {
      int dot = scope.lastIndexOf('.');
      return dot < 0 ? "" : scope.substring(0, dot);
    }
  }
}
