package dev.machinery.unversioned.validation;

import java.util.List;

/**
 * The rule a kind's names follow ({@code ValidateNameFunc}): given a name, or a {@code
 * generateName} prefix, the messages of what is wrong with it. The rules Kubernetes uses are {@link
 * Validation#nameIsDNSSubdomain} (most kinds), {@link Validation#nameIsDNSLabel} (namespaces) and
 * {@link Validation#nameIsDNS1035Label} (services).
 *
 * <p>Implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface NameValidator {
  /**
   * Validates a name or a generateName prefix.
   *
   * @param name the name
   * @param prefix true for a generateName prefix (which may end in '-')
   * @return the messages; empty when valid
   */
  List<String> validate(String name, boolean prefix);
}
