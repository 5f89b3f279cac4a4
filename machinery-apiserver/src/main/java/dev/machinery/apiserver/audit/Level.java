package dev.machinery.apiserver.audit;

import java.util.Optional;

/**
 * How much of a request an audit event records, as kube-apiserver's audit levels, from least to
 * most.
 */
public enum Level {
  /** The request is not recorded. */
  NONE("None"),
  /** Who made the request, what it was about and how it was answered, without the bodies. */
  METADATA("Metadata"),
  /** Also the request's object. */
  REQUEST("Request"),
  /** Also the response's object. */
  REQUEST_RESPONSE("RequestResponse");

  private final String wireName;

  Level(String wireName) {
    this.wireName = wireName;
  }

  /**
   * Returns the name in policy files and events, such as {@code RequestResponse}.
   *
   * @return the name
   */
  public String wireName() {
    return wireName;
  }

  /**
   * Whether this level records at least as much as another.
   *
   * @param other the other level
   * @return true when this level is {@code other} or above
   */
  public boolean atLeast(Level other) {
    return compareTo(other) >= 0;
  }

  /**
   * Finds a level by its name in policy files (case matters, as in Kubernetes).
   *
   * @param wireName the name, such as {@code Metadata}
   * @return the level, or empty when there is none of that name
   */
  public static Optional<Level> fromWireName(String wireName) {
    for (Level level : values()) {
      if (level.wireName.equals(wireName)) {
        return Optional.of(level);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
