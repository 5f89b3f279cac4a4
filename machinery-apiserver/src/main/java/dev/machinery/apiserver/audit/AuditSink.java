package dev.machinery.apiserver.audit;

/**
 * Where audit events go, as kube-apiserver's audit backends: the {@link AuditLogWriter}, or any
 * code a server embedding the library plugs in with {@link
 * dev.machinery.apiserver.ApiServer.Builder#audit}.
 *
 * <p>Called on the threads that answer requests, concurrently, once for each event in the order of
 * each request's stages: an implementation must be thread-safe and should return quickly (hand the
 * event to a queue, as {@link AuditLogWriter} does), since the request waits for it. An exception
 * it throws is logged and does not fail the request.
 */
@FunctionalInterface
public interface AuditSink {
  /**
   * Takes one event.
   *
   * @param event the event, immutable
   */
  void process(AuditEvent event);
}
