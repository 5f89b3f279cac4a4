/**
 * Events ({@code events.k8s.io/v1}) recorded about objects, after client-go's {@code tools/events}
 * and {@code tools/record}.
 *
 * <p>An {@link dev.machinery.controller.events.EventRecorder} builds events; an {@link
 * dev.machinery.controller.events.EventBroadcaster} correlates them through an {@link
 * dev.machinery.controller.events.EventCorrelator} (a repeated event becomes a count patch, similar
 * events are combined, a source that reports too much about one object is throttled) and writes
 * them through an {@link dev.machinery.controller.events.EventSink} on a thread of its own.
 */
package dev.machinery.controller.events;
