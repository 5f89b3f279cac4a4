package dev.machinery.apiserver.audit;

import java.util.Optional;

/** The points of a request's handling at which an audit event is made, as kube-apiserver's. */
public enum Stage {
  /** As soon as the request is received (and authenticated), before it is handled. */
  REQUEST_RECEIVED("RequestReceived"),
  /**
   * When the response's headers are sent and before its body, for long-running requests (watches,
   * refused ones too, and any streamed response); and for a request refused by authentication, its
   * only event.
   */
  RESPONSE_STARTED("ResponseStarted"),
  /** When the response has been written whole. */
  RESPONSE_COMPLETE("ResponseComplete"),
  /** When handling failed unexpectedly (answered {@code 500}). */
  PANIC("Panic");

  private final String wireName;

  Stage(String wireName) {
    this.wireName = wireName;
  }

  /**
   * Returns the name in policy files and events, such as {@code ResponseComplete}.
   *
   * @return the name
   */
  public String wireName() {
    return wireName;
  }

  /**
   * Finds a stage by its name in policy files.
   *
   * @param wireName the name, such as {@code RequestReceived}
   * @return the stage, or empty when there is none of that name
   */
  public static Optional<Stage> fromWireName(String wireName) {
    for (Stage stage : values()) {
      if (stage.wireName.equals(wireName)) {
        return Optional.of(stage);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
