package dev.machinery.unversioned.watch;

import java.util.Objects;

/**
 * One watch event: its type and the object ({@code watch.Event}).
 *
 * @param type the type
 * @param object the object; a {@code Status} for {@link EventType#ERROR}
 */
public record Event(EventType type, Object object) {
  /**
   * Checks the parts.
   *
   * @param type the type
   * @param object the object
   */
  public Event {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(object, "object");
  }
}
