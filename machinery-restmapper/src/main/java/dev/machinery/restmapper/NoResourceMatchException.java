package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupVersionResource;
import java.util.Objects;

/**
 * No resource matches a partial resource. The message begins as Go's {@code NoResourceMatchError}
 * does ({@code no matches for apps/, Resource=deploymnets}), then says in words what was searched.
 * Immutable and safe to share between threads.
 */
public final class NoResourceMatchException extends NoMatchException {
  private static final long serialVersionUID = 1L;

  private final transient GroupVersionResource partialResource;

  /**
   * Creates the exception.
   *
   * @param partialResource what was looked up; empty parts were not given
   */
  public NoResourceMatchException(GroupVersionResource partialResource) {
    super(message(partialResource));
    this.partialResource = Objects.requireNonNull(partialResource, "partialResource");
  }

  /**
   * Returns what was looked up.
   *
   * @return the partial resource
   */
  public GroupVersionResource partialResource() {
    return partialResource;
  }

  static String message(GroupVersionResource r) {
    StringBuilder text =
        new StringBuilder("no matches for ").append(r).append(" (no resource type \"");
    text.append(r.resource()).append('"');
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
    return text.append("; searched plural, singular and short names)").toString();
  }
}
