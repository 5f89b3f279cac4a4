package dev.machinery.apiserver.registry.rest;

/**
 * What a delete that names no propagation does with an object's dependents, as Go's {@code
 * rest.GarbageCollectionPolicy} a resource's delete strategy declares: the garbage collector's
 * default for the resource.
 *
 * <p>Immutable; thread-safe.
 */
public enum GarbageCollectionPolicy {
  /**
   * The dependents are deleted in the background (no finalizer is added): kube-apiserver's default
   * for every resource it serves.
   */
  DELETE_DEPENDENTS,
  /**
   * The dependents are orphaned: a delete naming no policy adds the {@code orphan} finalizer (as
   * kube-apiserver's strategies of legacy group versions, such as {@code extensions/v1beta1}
   * ReplicaSets, declared).
   */
  ORPHAN_DEPENDENTS,
  /**
   * The resource takes no part in garbage collection: a delete never adds the {@code orphan} or
   * {@code foregroundDeletion} finalizer, whatever its options say.
   */
  UNSUPPORTED
}
