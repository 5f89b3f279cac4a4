package dev.machinery.apiserver.authorization;

/** What an {@link Authorizer} decided, as Kubernetes' {@code authorizer.Decision}. Immutable. */
public enum Decision {
  /** The request is allowed; no later authorizer is asked. */
  ALLOW,
  /** The request is refused; no later authorizer is asked. */
  DENY,
  /** This authorizer neither allows nor refuses; the next one is asked, and none left refuses. */
  NO_OPINION
}
