package dev.machinery.restmapper;

import dev.machinery.MachineryException;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.Objects;

/** No resource matches a (possibly partial) resource; names what was searched. Immutable. */
public final class NoResourceMatchException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final transient GroupVersionResource partialResource;

  /**
   * Creates the exception with a message naming the query.
   *
   * @param partialResource what was looked for
   */
  public NoResourceMatchException(GroupVersionResource partialResource) {
    super(message(partialResource));
    this.partialResource = Objects.requireNonNull(partialResource, "partialResource");
  }

  /**
   * Returns what was looked for.
   *
   * @return the partial resource
   */
  public GroupVersionResource partialResource() {
    return partialResource;
  }

  static String message(GroupVersionResource r) {
    StringBuilder text = new StringBuilder("no resource type \"").append(r.resource()).append('"');
    if (!r.group().isEmpty() || !r.version().isEmpty()) {
      text.append(" in ");
      if (r.version().isEmpty()) {
        text.append("group \"").append(r.group()).append("\" (any version)");
      } else if (r.group().isEmpty()) {
        text.append("version \"").append(r.version()).append("\" of any group");
      } else {
        text.append('"').append(r.groupVersion()).append('"');
      }
    } else {
      text.append(" in any group or version");
    }
    return text.append(" (searched plural, singular and short names)").toString();
  }
}
