package dev.machinery.core.schema;

import java.util.Objects;
import java.util.Optional;

/**
 * The two readings of a dotted kind argument such as {@code Deployment.v1.apps}, as a command-line
 * tool meets it.
 *
 * <p>With two or more dots the text may name a fully specified kind ({@code Deployment}, version
 * {@code v1}, group {@code apps}) or a kind in a longer group ({@code Deployment} in group {@code
 * v1.apps}); only a mapper that knows which groups exist can tell, so both readings are kept, as
 * Kubernetes' {@code ParseKindArg} does. Immutable and safe to share between threads.
 *
 * @param fullySpecified the {@code Kind.version.group} reading, present when the text has two or
 *     more dots and that reading is well formed
 * @param groupKind the {@code Kind.group} reading
 */
public record KindArg(Optional<GroupVersionKind> fullySpecified, GroupKind groupKind) {
  /**
   * Checks for nulls.
   *
   * @param fullySpecified see the record description
   * @param groupKind see the record description
   */
  public KindArg {
    Objects.requireNonNull(fullySpecified, "fullySpecified");
    Objects.requireNonNull(groupKind, "groupKind");
  }

  /**
   * Parses {@code Kind}, {@code Kind.group} or {@code Kind.version.group}.
   *
   * @param text the argument
   * @return both readings
   * @throws MalformedIdentifierException if not even the {@code Kind.group} reading is well formed
   */
  public static KindArg parse(String text) {
    GroupKind groupKind = GroupKind.parse(text);
    Optional<GroupVersionKind> full = Optional.empty();
    String[] parts = DottedArgs.splitThree(text);
    if (parts != null) {
      try {
        full = Optional.of(new GroupVersionKind(parts[2], parts[1], parts[0]));
      } catch (MalformedIdentifierException notAVersion) {
        full = Optional.empty();
      }
    }
    return new KindArg(full, groupKind);
  }
}
