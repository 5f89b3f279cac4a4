package dev.machinery.apiserver.rbac;

import dev.machinery.MachineryException;

/**
 * A binding refers to a role that does not exist, or to a kind that is not a role's: the message is
 * Kubernetes' ({@code clusterrole.rbac.authorization.k8s.io "x" not found}). Immutable.
 */
public final class RoleNotFoundException extends MachineryException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what was not found
   */
  public RoleNotFoundException(String message) {
    super(message);
  }
}
