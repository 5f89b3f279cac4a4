package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * One event of a watch as kube-apiserver writes it ({@code metav1.WatchEvent}): a type ({@code
 * ADDED}, {@code MODIFIED}, {@code DELETED}, {@code BOOKMARK} or {@code ERROR}) and the object (a
 * {@link Status} for {@code ERROR}). The object is written as given (a typed object with its own
 * {@code apiVersion} and {@code kind}) and read as JSON values, to be decoded by its kind.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"type", "object"})
public final class WatchEvent {
  /** An object was added. */
  public static final String ADDED = "ADDED";

  /** An object was changed. */
  public static final String MODIFIED = "MODIFIED";

  /** An object was deleted; the object is its last state. */
  public static final String DELETED = "DELETED";

  /** A resource version was reached; the object carries only it. */
  public static final String BOOKMARK = "BOOKMARK";

  /** The watch failed; the object is a {@link Status}. */
  public static final String ERROR = "ERROR";

  private String type;
  private Object object;

  /** Creates an empty WatchEvent. */
  public WatchEvent() {}

  /**
   * Creates an event.
   *
   * @param type the event type
   * @param object the object
   */
  public WatchEvent(String type, Object object) {
    this.type = type;
    this.object = object;
  }

  /**
   * Returns the event type.
   *
   * @return the type
   */
  public String getType() {
    return type;
  }

  /**
   * Sets the event type.
   *
   * @param type the type
   */
  public void setType(String type) {
    this.type = type;
  }

  /**
   * Returns the object.
   *
   * @return the object: as given, or JSON values when read
   */
  public Object getObject() {
    return object;
  }

  /**
   * Sets the object.
   *
   * @param object the object
   */
  public void setObject(Object object) {
    this.object = object;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof WatchEvent that
        && Objects.equals(type, that.type)
        && Objects.equals(object, that.object);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, object);
  }

  @Override
  public String toString() {
    return "WatchEvent{type=" + type + ", object=" + object + "}";
  }
}
