package dev.machinery.restmapper;

import java.util.Objects;
import java.util.Optional;

/**
 * What a kubectl-style argument names: a REST mapping and, for {@code type/name} arguments, the
 * object's name. Immutable.
 *
 * @param mapping the resource, kind and scope
 * @param name the object's name, if the argument gave one
 */
public record ResolvedResource(RESTMapping mapping, Optional<String> name) {
  /**
   * Checks for nulls.
   *
   * @param mapping see the record description
   * @param name see the record description
   */
  public ResolvedResource {
    Objects.requireNonNull(mapping, "mapping");
    Objects.requireNonNull(name, "name");
  }
}
