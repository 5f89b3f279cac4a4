package dev.machinery.unversioned.watch;

import java.util.Optional;

/** The kinds of watch event ({@code watch.EventType}), with the names written on the wire. */
public enum EventType {
  /** An object was added. */
  ADDED,
  /** An object changed. */
  MODIFIED,
  /** An object was deleted; the event holds its last state. */
  DELETED,
  /** The watch reached a resource version; the object carries only that. */
  BOOKMARK,
  /** The watch failed; the object is a {@code Status}. */
  ERROR;

  /**
   * Finds the type a wire name names.
   *
   * @param name the name, such as {@code ADDED}
   * @return the type, or empty
   */
  public static Optional<EventType> fromWireName(String name) {
    for (EventType type : values()) {
      if (type.name().equals(name)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }
}
