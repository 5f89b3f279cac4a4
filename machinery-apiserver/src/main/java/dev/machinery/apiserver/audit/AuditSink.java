package dev.machinery.apiserver.audit;

import java.util.List;

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

  /**
   * A sink that hands each event to several, in order, as kube-apiserver's union of backends (a log
   * and a webhook, say): one that throws does not keep the event from the others; the first
   * exception is thrown after all have had it.
   *
   * @param sinks the sinks
   * @return the union; thread-safe when each sink is
   */
  static AuditSink union(List<AuditSink> sinks) {
    List<AuditSink> all = List.copyOf(sinks);
    if (all.size() == 1) {
      return all.get(0);
    }
    return event -> {
      RuntimeException first = null;
      for (AuditSink sink : all) {
        try {
          sink.process(event);
        } catch (RuntimeException e) {
          if (first == null) {
            first = e;
          } else {
            first.addSuppressed(e);
          }
        }
      }
      if (first != null) {
        throw first;
      }
    };
  }
}
