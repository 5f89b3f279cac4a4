package dev.machinery.cluster;

import java.util.List;
import java.util.Objects;

/**
 * A controller a {@link ControllerManager} can run: its name (kube-controller-manager's, such as
 * {@code deployment-controller}), the older names {@code --controllers} also accepts (such as
 * {@code deployment}), whether {@code *} includes it, and how it is set up.
 *
 * @param name the name
 * @param aliases other names it answers to
 * @param enabledByDefault whether {@code *} (the default) runs it
 * @param initializer sets it up
 */
public record ControllerDescriptor(
    String name,
    List<String> aliases,
    boolean enabledByDefault,
    ControllerInitializer initializer) {
  /**
   * Checks for nulls and copies the aliases.
   *
   * @param name see the record description
   * @param aliases see the record description
   * @param enabledByDefault see the record description
   * @param initializer see the record description
   */
  public ControllerDescriptor {
    Objects.requireNonNull(name, "name");
    aliases = List.copyOf(aliases);
    Objects.requireNonNull(initializer, "initializer");
  }

  /**
   * Tells whether the name or an alias is the given one.
   *
   * @param candidate a name from {@code --controllers}
   * @return true when it names this controller
   */
  public boolean answersTo(String candidate) {
    return name.equals(candidate) || aliases.contains(candidate);
  }
}
