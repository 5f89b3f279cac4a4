package dev.machinery.apiserver.storage;

import dev.machinery.MachineryException;
import java.util.Objects;

/**
 * A storage operation that could not be done as asked. {@link #kind()} says which condition it is,
 * so that the caller answers it as Kubernetes does (an existing key is {@code 409 AlreadyExists}, a
 * revision mismatch {@code 409 Conflict}, a compacted revision {@code 410 Expired}).
 *
 * <p>Immutable once thrown.
 */
public final class StorageException extends MachineryException {
  private static final long serialVersionUID = 1L;

  private final Kind kind;
  private final String key;
  private final long revision;

  /**
   * Creates the exception.
   *
   * @param kind the condition
   * @param key the key concerned, or the prefix of a range
   * @param revision the revision concerned: the current one for a conflict, the oldest kept for a
   *     compacted one, otherwise 0
   * @param message what went wrong
   */
  public StorageException(Kind kind, String key, long revision, String message) {
    super(message);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.key = key;
    this.revision = revision;
  }

  /**
   * Returns the condition.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }

  /**
   * Returns the key or prefix concerned.
   *
   * @return the key
   */
  public String key() {
    return key;
  }

  /**
   * Returns the revision concerned (see the constructor).
   *
   * @return the revision
   */
  public long revision() {
    return revision;
  }

  @Override
  public String statusReason() {
    return switch (kind) {
      case KEY_EXISTS -> "AlreadyExists";
      case KEY_NOT_FOUND -> "NotFound";
      case CONFLICT -> "Conflict";
      case COMPACTED -> "Expired";
      case UNAVAILABLE -> "ServiceUnavailable";
    };
  }

  @Override
  public int statusCode() {
    return switch (kind) {
      case KEY_EXISTS, CONFLICT -> 409;
      case KEY_NOT_FOUND -> 404;
      case COMPACTED -> 410;
      case UNAVAILABLE -> 503;
    };
  }

  /** The conditions. Immutable. */
  public enum Kind {
    /** A create found the key present. */
    KEY_EXISTS,
    /** The key is absent. */
    KEY_NOT_FOUND,
    /** The key's revision is not the one the caller expected. */
    CONFLICT,
    /** The revision asked for has been compacted away. */
    COMPACTED,
    /** The store cannot answer now (closed, or its backend is unreachable). */
    UNAVAILABLE
  }
}
