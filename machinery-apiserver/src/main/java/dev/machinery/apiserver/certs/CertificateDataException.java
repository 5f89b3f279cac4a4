package dev.machinery.apiserver.certs;

import dev.machinery.MachineryException;

/**
 * Refuses data a certificate or key cannot be made or read from: an alternate name that is not a
 * DNS name or an IP address, a PEM block that does not decode, an encrypted or unsupported private
 * key. Carries what was refused and the value. Immutable once thrown, and so safe to share.
 */
public final class CertificateDataException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /** What was refused, such as {@code alternate DNS name}. */
  private final String subject;

  /** The refused value, or the empty string where there is none to quote. */
  private final String value;

  /**
   * Creates the exception.
   *
   * @param subject what was refused, such as {@code alternate DNS name}
   * @param value the refused value, or the empty string
   * @param message the whole message
   */
  public CertificateDataException(String subject, String value, String message) {
    super(message);
    this.subject = subject;
    this.value = value;
  }

  /**
   * Creates the exception with its cause.
   *
   * @param subject what was refused
   * @param value the refused value, or the empty string
   * @param message the whole message
   * @param cause the underlying failure
   */
  public CertificateDataException(String subject, String value, String message, Throwable cause) {
    super(message, cause);
    this.subject = subject;
    this.value = value;
  }

  /**
   * Returns what was refused, such as {@code alternate DNS name} or {@code private key}.
   *
   * @return the subject
   */
  public String subject() {
    return subject;
  }

  /**
   * Returns the refused value, or the empty string where there is none to quote.
   *
   * @return the value
   */
  public String value() {
    return value;
  }
}
