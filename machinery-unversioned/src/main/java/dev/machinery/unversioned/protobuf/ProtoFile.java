package dev.machinery.unversioned.protobuf;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@code .proto} file declares about itself: its path, package, imports and file options
 * (such as {@code go_package}), the option names as written, parentheses included.
 *
 * @param path the file's path, the name other files import it by
 * @param packageName the package, empty when the file declares none
 * @param imports the paths the file imports, in order
 * @param options the file options, by name, with their values as text
 */
public record ProtoFile(
    String path, String packageName, List<String> imports, Map<String, String> options) {

  /**
   * Copies the collections.
   *
   * @param path see the record description
   * @param packageName see the record description
   * @param imports see the record description
   * @param options see the record description
   * @throws NullPointerException when a component is null
   */
  public ProtoFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(packageName, "packageName");
    imports = List.copyOf(imports);
    options = Map.copyOf(options);
  }

  /**
   * Returns a file option.
   *
   * @param name the option's name, such as {@code go_package}
   * @return its value as text, or empty when the file does not set it
   */
  public Optional<String> option(String name) {
    return Optional.ofNullable(options.get(name));
  }
}
