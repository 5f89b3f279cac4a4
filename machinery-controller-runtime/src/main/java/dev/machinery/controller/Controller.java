package dev.machinery.controller;

import dev.machinery.controller.cache.ResourceEventHandler;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.workqueue.RateLimiter;
import dev.machinery.controller.workqueue.RateLimiters;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.controller.workqueue.RateLimitingWorkQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * controller-runtime's controller ({@code controller.Controller}): watches informers, turns their
 * notifications into {@link Request}s on a rate-limited work queue, and runs a {@link Reconciler}
 * on N workers.
 *
 * <ul>
 *   <li>A reconcile that throws is requeued through the rate limiter (5ms doubling to 1000s per
 *       request, 10 per second overall, by default); a {@link TerminalException} is not.
 *   <li>{@link Result#requeueAfter()} forgets the failures and requeues after the delay; {@link
 *       Result#requeue()} requeues through the rate limiter; otherwise the request is forgotten.
 *   <li>The queue never hands equal requests to two workers at once.
 * </ul>
 *
 * <p>Thread-safe. {@link #start()} returns once the watched informers have synced and the workers
 * run.
 */
public final class Controller {
  private static final System.Logger LOG = System.getLogger(Controller.class.getName());

  private final String name;
  private final Reconciler reconciler;
  private final int workers;
  private final RateLimitingQueue<Request> queue;
  private final List<Watch<?>> watches;
  private final List<Thread> threads = new ArrayList<>();
  private final List<Runnable> unregister = new ArrayList<>();
  private boolean started;
  private boolean stopped;

  private Controller(Builder builder) {
    this.name = builder.name;
    this.reconciler = builder.reconciler;
    this.workers = builder.workers;
    RateLimiter<Request> limiter =
        builder.rateLimiter != null
            ? builder.rateLimiter
            : RateLimiters.defaultControllerRateLimiter(builder.clock);
    this.queue = new RateLimitingWorkQueue<>(limiter, builder.clock, name);
    this.watches = List.copyOf(builder.watches);
  }

  /**
   * Starts building a controller.
   *
   * @param name the controller's name, for logs and threads
   * @param reconciler the reconciler
   * @return the builder
   */
  public static Builder builder(String name, Reconciler reconciler) {
    return new Builder(name, reconciler);
  }

  /**
   * Returns the controller's name.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * Returns the controller's queue, for handlers and tests that add requests themselves.
   *
   * @return the queue
   */
  public RateLimitingQueue<Request> queue() {
    return queue;
  }

  private record Watch<T>(
      SharedIndexInformer<T> informer, EventHandler<T> handler, List<Predicate<T>> predicates) {
    Runnable register(RateLimitingQueue<Request> queue) {
      SharedIndexInformer.Registration registration =
          informer.addEventHandler(
              new ResourceEventHandler<T>() {
                @Override
                public void onAdd(T object, boolean isInInitialList) {
                  if (predicates.stream().allMatch(p -> p.create(object))) {
                    handler.create(object, queue);
                  }
                }

                @Override
                public void onUpdate(T oldObject, T newObject) {
                  if (predicates.stream().allMatch(p -> p.update(oldObject, newObject))) {
                    handler.update(oldObject, newObject, queue);
                  }
                }

                @Override
                public void onDelete(T object, boolean finalStateUnknown) {
                  if (predicates.stream().allMatch(p -> p.delete(object))) {
                    handler.delete(object, finalStateUnknown, queue);
                  }
                }
              });
      return () -> informer.removeEventHandler(registration);
    }
  }

  /**
   * Registers the handlers on the informers, waits for the informers to sync, and starts the
   * workers. The informers must be started (a {@link Manager} does that).
   *
   * @throws InterruptedException when interrupted while waiting for the caches
   * @throws IllegalStateException when started twice, or an informer stopped before syncing
   */
  public void start() throws InterruptedException {
    synchronized (this) {
      if (started || stopped) {
        throw new IllegalStateException("controller " + name + " starts once");
      }
      started = true;
      for (Watch<?> watch : watches) {
        unregister.add(watch.register(queue));
      }
    }
    for (Watch<?> watch : watches) {
      if (!watch.informer().awaitSynced()) {
        throw new IllegalStateException(
            "controller " + name + ": an informer stopped before its cache synced");
      }
    }
    synchronized (this) {
      if (stopped) {
        return;
      }
      for (int i = 0; i < workers; i++) {
        Thread worker = new Thread(this::work, "controller-" + name + "-" + i);
        worker.setDaemon(true);
        threads.add(worker);
        worker.start();
      }
    }
  }

  /**
   * Stops the controller: unregisters its handlers, lets the workers finish the requests in hand
   * (requests still queued are dropped), and waits for them.
   *
   * @throws InterruptedException when interrupted while waiting
   */
  public void stop() throws InterruptedException {
    List<Thread> toJoin;
    synchronized (this) {
      if (stopped) {
        return;
      }
      stopped = true;
      unregister.forEach(Runnable::run);
      toJoin = new ArrayList<>(threads);
    }
    queue.shutDown();
    for (Thread thread : toJoin) {
      thread.join();
    }
  }

  private void work() {
    while (true) {
      Optional<Request> next;
      try {
        next = queue.get();
      } catch (InterruptedException e) {
        return;
      }
      if (next.isEmpty()) {
        return;
      }
      Request request = next.get();
      try {
        if (queue.isShuttingDown()) {
          continue;
        }
        reconcileHandler(request);
      } finally {
        queue.done(request);
      }
    }
  }

  private void reconcileHandler(Request request) {
    Result result;
    try {
      result = reconciler.reconcile(request);
    } catch (TerminalException e) {
      LOG.log(
          System.Logger.Level.ERROR, "controller " + name + ": " + request + " failed for good", e);
      queue.forget(request);
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      queue.addRateLimited(request);
      return;
    } catch (Exception e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "controller " + name + ": reconciling " + request + " failed",
          e);
      queue.addRateLimited(request);
      return;
    }
    if (result == null) {
      result = Result.done();
    }
    if (result.requeueAfter().compareTo(Duration.ZERO) > 0) {
      queue.forget(request);
      queue.addAfter(request, result.requeueAfter());
    } else if (result.requeue()) {
      queue.addRateLimited(request);
    } else {
      queue.forget(request);
    }
  }

  /**
   * Builds a {@link Controller}.
   *
   * <p>Not thread-safe; confine a builder to one thread.
   */
  public static final class Builder {
    private final String name;
    private final Reconciler reconciler;
    private final List<Watch<?>> watches = new ArrayList<>();
    private int workers = 1;
    private Clock clock = Clock.system();
    private RateLimiter<Request> rateLimiter;

    private Builder(String name, Reconciler reconciler) {
      this.name = Objects.requireNonNull(name, "name");
      this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
    }

    /**
     * Watches an informer with a handler, passing only notifications every predicate passes.
     *
     * @param informer the informer
     * @param handler the handler, such as {@link EventHandlers#enqueueRequestForObject()}
     * @param predicates the predicates
     * @param <T> the object type
     * @return this builder
     */
    public <T> Builder watches(
        SharedIndexInformer<T> informer,
        EventHandler<T> handler,
        List<? extends Predicate<T>> predicates) {
      watches.add(
          new Watch<>(
              Objects.requireNonNull(informer, "informer"),
              Objects.requireNonNull(handler, "handler"),
              List.copyOf(predicates)));
      return this;
    }

    /**
     * Watches an informer with a handler, passing every notification.
     *
     * @param informer the informer
     * @param handler the handler
     * @param <T> the object type
     * @return this builder
     */
    public <T> Builder watches(SharedIndexInformer<T> informer, EventHandler<T> handler) {
      return watches(informer, handler, List.of());
    }

    /**
     * Sets how many requests are reconciled at once ({@code MaxConcurrentReconciles}).
     *
     * @param count the count; at least one
     * @return this builder
     */
    public Builder workers(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("workers must be at least 1, not " + count);
      }
      this.workers = count;
      return this;
    }

    /**
     * Sets the clock of the queue's delays.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Sets the rate limiter; by default {@link RateLimiters#defaultControllerRateLimiter}.
     *
     * @param rateLimiter the rate limiter
     * @return this builder
     */
    public Builder rateLimiter(RateLimiter<Request> rateLimiter) {
      this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
      return this;
    }

    /**
     * Builds the controller.
     *
     * @return the controller, not started
     * @throws IllegalStateException when nothing is watched
     */
    public Controller build() {
      if (watches.isEmpty()) {
        throw new IllegalStateException("controller " + name + " watches nothing");
      }
      return new Controller(this);
    }
  }
}
