package dev.machinery.unversioned.meta.v1;

import dev.machinery.MachineryException;

/**
 * An object whose metadata cannot be reached: it neither is a {@link MetaObject} nor has a {@code
 * metadata} property of type {@link ObjectMeta} (Go's {@code meta.Accessor} error). Names the
 * class.
 *
 * <p>Immutable once thrown; safe to share between threads.
 */
public final class MetadataAccessException extends MachineryException {
  private static final long serialVersionUID = 1L;

  MetadataAccessException(Class<?> type) {
    super(
        "object does not implement the Object interfaces: "
            + type.getName()
            + " has no metadata property of type ObjectMeta");
  }

  /**
   * A server fault: the object's class is the program's.
   *
   * @return {@code InternalError}
   */
  @Override
  public String statusReason() {
    return "InternalError";
  }

  /**
   * A server fault: 500.
   *
   * @return 500
   */
  @Override
  public int statusCode() {
    return 500;
  }
}
