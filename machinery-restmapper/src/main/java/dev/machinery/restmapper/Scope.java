package dev.machinery.restmapper;

/** Whether a resource's objects live in namespaces, Kubernetes' {@code RESTScope}. Immutable. */
public enum Scope {
  /** Objects live in a namespace ({@code pods}, {@code deployments}). */
  NAMESPACE,
  /** Objects are cluster-wide ({@code nodes}, {@code namespaces}). */
  ROOT
}
