package dev.machinery.core.schema;

import java.util.Objects;
import java.util.Optional;

/**
 * The two readings of a dotted resource argument such as {@code deployments.v1.apps}, as {@code
 * kubectl get deployments.v1.apps} meets it.
 *
 * <p>With two or more dots the text may name a fully specified resource (version {@code v1} of
 * group {@code apps}) or a resource in a longer group ({@code deployments} in group {@code
 * v1.apps}); both readings are kept, as Kubernetes' {@code ParseResourceArg} does, for a mapper to
 * decide. Immutable and safe to share between threads.
 *
 * @param fullySpecified the {@code resource.version.group} reading, present when the text has two
 *     or more dots and that reading is well formed
 * @param groupResource the {@code resource.group} reading
 */
public record ResourceArg(
    Optional<GroupVersionResource> fullySpecified, GroupResource groupResource) {
  /**
   * Checks for nulls.
   *
   * @param fullySpecified see the record description
   * @param groupResource see the record description
   */
  public ResourceArg {
    Objects.requireNonNull(fullySpecified, "fullySpecified");
    Objects.requireNonNull(groupResource, "groupResource");
  }

  /**
   * Parses {@code resource}, {@code resource.group} or {@code resource.version.group}.
   *
   * @param text the argument
   * @return both readings
   * @throws MalformedIdentifierException if not even the {@code resource.group} reading is well
   *     formed
   */
  public static ResourceArg parse(String text) {
    GroupResource groupResource = GroupResource.parse(text);
    Optional<GroupVersionResource> full = Optional.empty();
    String[] parts = DottedArgs.splitThree(text);
    if (parts != null) {
      try {
        full = Optional.of(new GroupVersionResource(parts[2], parts[1], parts[0]));
      } catch (MalformedIdentifierException notAVersion) {
        full = Optional.empty();
      }
    }
    return new ResourceArg(full, groupResource);
  }
}
