package dev.machinery.restmapper;

import dev.machinery.MachineryException;
import dev.machinery.core.schema.GroupKind;
import java.util.List;
import java.util.Objects;

/** No version serves a group kind; names the kind and the versions searched. Immutable. */
public final class NoKindMatchException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final transient GroupKind groupKind;
  private final transient List<String> searchedVersions;

  /**
   * Creates the exception with a message naming the kind and the versions searched.
   *
   * @param groupKind the kind looked for
   * @param searchedVersions the versions tried; empty when every version was
   */
  public NoKindMatchException(GroupKind groupKind, List<String> searchedVersions) {
    super(message(groupKind, searchedVersions));
    this.groupKind = Objects.requireNonNull(groupKind, "groupKind");
    this.searchedVersions = List.copyOf(searchedVersions);
  }

  /**
   * Returns the kind looked for.
   *
   * @return the group kind
   */
  public GroupKind groupKind() {
    return groupKind;
  }

  /**
   * Returns the versions tried.
   *
   * @return the versions; empty when every version was tried
   */
  public List<String> searchedVersions() {
    return searchedVersions;
  }

  private static String message(GroupKind kind, List<String> versions) {
    String where = kind.group().isEmpty() ? "the core group" : "group \"" + kind.group() + "\"";
    return "no matches for kind \""
        + kind.kind()
        + "\" in "
        + where
        + (versions.isEmpty() ? "" : " (versions tried: " + String.join(", ", versions) + ")");
  }
}
