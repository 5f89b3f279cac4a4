package dev.machinery.unversioned.protobuf;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A protobuf message: its full name, the file that declares it, its fields in number order, and the
 * {@code +tag} lines of the comment before it (Kubernetes' generator writes its directives there,
 * such as {@code protobuf.nullable=true}).
 *
 * @param fullName the full name, such as {@code k8s.io.api.apps.v1.Deployment}
 * @param file the path of the declaring file
 * @param fields the fields, sorted by number
 * @param commentTags the comment lines that start with {@code +}, without the {@code +}
 */
public record MessageDescriptor(
    String fullName, String file, List<FieldDescriptor> fields, Set<String> commentTags) {

  /**
   * Copies the collections and sorts the fields by number.
   *
   * @param fullName see the record description
   * @param file see the record description
   * @param fields see the record description
   * @param commentTags see the record description
   * @throws NullPointerException when a component is null
   */
  public MessageDescriptor {
    Objects.requireNonNull(fullName, "fullName");
    Objects.requireNonNull(file, "file");
    fields =
        fields.stream()
            .sorted((a, b) -> Integer.compare(a.number(), b.number()))
            .collect(Collectors.toUnmodifiableList());
    commentTags = Set.copyOf(commentTags);
  }

  /**
   * Returns the simple name, the last part of the full name.
   *
   * @return the name, such as {@code Deployment}
   */
  public String simpleName() {
    return fullName.substring(fullName.lastIndexOf('.') + 1);
  }

  /**
   * Finds a field by number.
   *
   * @param number the field number
   * @return the field, or empty
   */
  public Optional<FieldDescriptor> field(int number) {
    for (FieldDescriptor field : fields) {
      if (field.number() == number) {
        return Optional.of(field);
      }
    }
    return Optional.empty();
  }

  /**
   * Finds a field by its name in the {@code .proto} file.
   *
   * @param name the name
   * @return the field, or empty
   */
  public Optional<FieldDescriptor> field(String name) {
    for (FieldDescriptor field : fields) {
      if (field.name().equals(name)) {
        return Optional.of(field);
      }
    }
    return Optional.empty();
  }
}
