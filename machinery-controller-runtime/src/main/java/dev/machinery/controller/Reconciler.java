package dev.machinery.controller;

/**
 * Brings one object to its desired state ({@code reconcile.Reconciler}). A reconciler reads the
 * current state (usually from an informer's cache), acts, and returns; it must be idempotent, since
 * the same request comes again after every change and every failure.
 *
 * <p>Implementations must be thread-safe: a controller's workers call it concurrently, though never
 * with equal requests at once.
 */
@FunctionalInterface
public interface Reconciler {
  /**
   * Reconciles one object.
   *
   * @param request the object's namespace and name
   * @return what to do next
   * @throws TerminalException to give up on the request without a retry
   * @throws Exception any other failure: the request is retried through the rate limiter
   */
  Result reconcile(Request request) throws Exception;
}
