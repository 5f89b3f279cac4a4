package dev.machinery.apiserver.admission;

import dev.machinery.MachineryException;

/**
 * An admission plugin refuses a write; the server answers {@code 403 Forbidden} with {@code
 * RESOURCE "NAME" is forbidden: MESSAGE}, as Kubernetes' {@code admission.NewForbidden}. Immutable.
 */
public final class AdmissionException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the refusal.
   *
   * @param message why, for people
   */
  public AdmissionException(String message) {
    super(message);
  }
}
