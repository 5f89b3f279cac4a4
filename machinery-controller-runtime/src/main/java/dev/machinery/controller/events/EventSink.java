package dev.machinery.controller.events;

import java.util.Map;

/**
 * Where events are written ({@code events.EventSink}): usually the {@code events.k8s.io/v1} Events
 * resource through a client. Failures are thrown: a {@link
 * dev.machinery.unversioned.errors.StatusException} is the server's answer and is not retried; any
 * other runtime exception is taken as a transport failure and retried.
 *
 * <p>Implementations must be thread-safe.
 */
public interface EventSink {
  /**
   * Creates an event.
   *
   * @param event the event
   * @return the event as written, with its resource version
   */
  Event create(Event event);

  /**
   * Replaces an event.
   *
   * @param event the event
   * @return the event as written
   */
  Event update(Event event);

  /**
   * Applies a JSON merge patch to an event.
   *
   * @param event the event as last written (its namespace and name address it)
   * @param mergePatch the patch
   * @return the event as written
   */
  Event patch(Event event, Map<String, Object> mergePatch);
}
