package dev.machinery.unversioned.managedfields;

/**
 * {@code metadata.managedFields} that cannot be read: an entry without the fields kube-apiserver
 * needs, an operation other than {@code Apply} or {@code Update}, a fields type other than {@code
 * FieldsV1}, or a field set that is not valid FieldsV1. The message names the entry.
 */
public final class ManagedFieldsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is wrong, and in which entry
   * @param cause the underlying failure, or {@code null}
   */
  public ManagedFieldsException(String message, Throwable cause) {
    super(message, cause);
  }
}
