package dev.machinery.controller.events;

import dev.machinery.controller.clock.Clock;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * Writes recorded events to a sink on a thread of its own ({@code record.EventBroadcaster} with
 * {@code StartRecordingToSink}): each event goes through the {@link EventCorrelator}; a repeat
 * patches the written event, falling back to creating it when the patch finds nothing. An answer
 * from the server ({@link StatusException}) ends an event's attempts; other failures are retried up
 * to 12 times, 10 seconds apart. At most 1000 events wait; more are dropped, as client-go drops
 * them when its channel is full.
 *
 * <p>Thread-safe.
 */
public final class EventBroadcaster implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(EventBroadcaster.class.getName());
  static final int MAX_QUEUED = 1000;
  static final int MAX_TRIES_PER_EVENT = 12;
  static final Duration SLEEP_BETWEEN_TRIES = Duration.ofSeconds(10);

  private final EventSink sink;
  private final Clock clock;
  private final EventCorrelator correlator;
  private final ArrayDeque<Event> queue = new ArrayDeque<>();
  private final Thread worker;
  private boolean busy;
  private boolean closed;
  private long dropped;

  /**
   * Creates a broadcaster and starts its thread.
   *
   * @param sink where events go
   * @param clock the clock events are timed on
   */
  public EventBroadcaster(EventSink sink, Clock clock) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.correlator = new EventCorrelator(clock);
    this.worker = new Thread(this::work, "event-broadcaster");
    worker.setDaemon(true);
    worker.start();
  }

  /**
   * Returns a recorder for one controller replica.
   *
   * @param reportingController the controller's name, such as {@code example.com/widget-controller}
   * @param reportingInstance the replica's name, such as its pod or host name
   * @return the recorder
   */
  public EventRecorder newRecorder(String reportingController, String reportingInstance) {
    return new EventRecorder(this, clock, reportingController, reportingInstance);
  }

  void submit(Event event) {
    synchronized (queue) {
      if (closed) {
        return;
      }
      if (queue.size() >= MAX_QUEUED) {
        dropped++;
        return;
      }
      queue.addLast(event);
      queue.notifyAll();
    }
  }

  /**
   * Returns how many events were dropped because too many waited.
   *
   * @return the count
   */
  public long dropped() {
    synchronized (queue) {
      return dropped;
    }
  }

  /**
   * Blocks until every event submitted so far has been written or given up on.
   *
   * @throws InterruptedException when interrupted
   */
  public void flush() throws InterruptedException {
    synchronized (queue) {
      while ((!queue.isEmpty() || busy) && !closed) {
        queue.wait();
      }
    }
  }

  /** Stops the thread; events still waiting are dropped. */
  @Override
  public void close() {
    synchronized (queue) {
      closed = true;
      queue.clear();
      queue.notifyAll();
    }
    worker.interrupt();
  }

  private void work() {
    while (true) {
      Event next;
      synchronized (queue) {
        while (queue.isEmpty() && !closed) {
          try {
            queue.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        next = queue.removeFirst();
        busy = true;
      }
      try {
        recordToSink(next);
      } catch (InterruptedException e) {
        return;
      } finally {
        synchronized (queue) {
          busy = false;
          queue.notifyAll();
        }
      }
    }
  }

  private void recordToSink(Event event) throws InterruptedException {
    EventCorrelator.Result result = correlator.correlate(event);
    if (result.skip()) {
      return;
    }
    for (int tries = 1; tries <= MAX_TRIES_PER_EVENT; tries++) {
      if (writeEvent(result)) {
        return;
      }
      if (tries == MAX_TRIES_PER_EVENT) {
        LOG.log(System.Logger.Level.ERROR, "unable to write event " + event.name() + ", giving up");
        return;
      }
      clock.sleep(SLEEP_BETWEEN_TRIES);
    }
  }

  /** Writes one event; true when done (written, or refused by the server), false to retry. */
  private boolean writeEvent(EventCorrelator.Result result) {
    Event event = result.event();
    try {
      Event written = null;
      boolean update = result.patch() != null && event.count() > 1;
      if (update) {
        try {
          written = sink.patch(event, result.patch());
        } catch (StatusException e) {
          if (!ApiErrors.isNotFound(e)) {
            throw e;
          }
        }
      }
      if (written == null) {
        written = sink.create(event.withIdentity(event.name(), ""));
      }
      correlator.updateState(written);
      return true;
    } catch (StatusException e) {
      if (!ApiErrors.isAlreadyExists(e)) {
        LOG.log(System.Logger.Level.ERROR, "server rejected event " + event.name(), e);
      }
      return true;
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "unable to write event " + event.name(), e);
      return false;
    }
  }
}
