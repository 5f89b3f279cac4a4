package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * No mapping exists for a group and kind in the versions searched. The message is Go's {@code
 * NoKindMatchError}'s: {@code no matches for kind "Foo" in version "apps/v1"}, {@code ... in
 * versions ["apps/v1" "apps/v2"]}, or {@code ... in group "apps"} when no version was named.
 * Immutable and safe to share between threads.
 */
public final class NoKindMatchException extends NoMatchException {
  private static final long serialVersionUID = 1L;

  private final transient GroupKind groupKind;
  private final transient List<String> searchedVersions;

  /**
   * Creates the exception.
   *
   * @param groupKind the group and kind looked up
   * @param searchedVersions the versions the search was restricted to; empty for none
   */
  public NoKindMatchException(GroupKind groupKind, List<String> searchedVersions) {
    super(message(groupKind, searchedVersions));
    this.groupKind = Objects.requireNonNull(groupKind, "groupKind");
    this.searchedVersions = List.copyOf(searchedVersions);
  }

  /**
   * Returns the group and kind looked up.
   *
   * @return the group kind
   */
  public GroupKind groupKind() {
    return groupKind;
  }

  /**
   * Returns the versions the search was restricted to.
   *
   * @return the versions, possibly empty
   */
  public List<String> searchedVersions() {
    return searchedVersions;
  }

  private static String message(GroupKind kind, List<String> versions) {
    TreeSet<String> searched = new TreeSet<>();
    for (String version : versions) {
      // As Go's GroupVersion.String(): the bare version for the core group.
      searched.add(kind.group().isEmpty() ? version : kind.group() + "/" + version);
    }
    switch (searched.size()) {
      case 0:
        return "no matches for kind \"" + kind.kind() + "\" in group \"" + kind.group() + "\"";
      case 1:
        return "no matches for kind \""
            + kind.kind()
            + "\" in version \""
            + searched.first()
            + "\"";
      default:
        StringBuilder list = new StringBuilder("[");
        for (String version : searched) {
          list.append(list.length() > 1 ? " " : "").append('"').append(version).append('"');
        }
        return "no matches for kind \"" + kind.kind() + "\" in versions " + list.append(']');
    }
  }
}
