package dev.machinery.apiserver.storage.encryption;

import dev.machinery.MachineryException;

/**
 * Stored bytes that no configured provider or key can read (a wrong or removed key, data written by
 * another server's configuration, corruption): an {@code InternalError} (500) naming the key and
 * the resource, as kube-apiserver answers {@code unable to transform key ...}. Immutable.
 */
public final class ValueTransformException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the error.
   *
   * @param message what could not be read, and why
   */
  public ValueTransformException(String message) {
    super(message);
  }

  @Override
  public String statusReason() {
    return "InternalError";
  }

  @Override
  public int statusCode() {
    return 500;
  }
}
