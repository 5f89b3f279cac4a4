package dev.machinery.controller.cache;

import dev.machinery.controller.clock.Clock;
import dev.machinery.unversioned.meta.v1.Accessor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * client-go's {@code cache.SharedIndexInformer}: one {@link Reflector} and one cache for a
 * resource, however many handlers listen.
 *
 * <ul>
 *   <li>Deltas popped from the {@link DeltaFIFO} update the {@link Indexer} first, then go to every
 *       handler as add, update or delete.
 *   <li>A handler added after the informer started first receives a synthetic add for every object
 *       in the cache ({@code isInInitialList} true), then the live stream.
 *   <li>Each handler may ask for its own resync period (at least one second); the reflector checks
 *       at the shortest, and a resync's update notifications go only to the handlers whose period
 *       has come round.
 *   <li>{@link #hasSynced()} turns true once the first list's content has been processed.
 * </ul>
 *
 * <p>Thread-safe. Each handler runs on its own thread, in order.
 *
 * @param <T> the object type
 */
public final class SharedIndexInformer<T> {
  private static final System.Logger LOG = System.getLogger(SharedIndexInformer.class.getName());
  private static final Duration MINIMUM_RESYNC_PERIOD = Duration.ofSeconds(1);

  private final String name;
  private final ListerWatcher<T> listerWatcher;
  private final Clock clock;
  private final Duration defaultResyncPeriod;
  private final CacheIndexer<T> indexer;
  private final Object blockDeltas = new Object();
  private final List<Listener> listeners = new ArrayList<>();
  private final List<Listener> syncingListeners = new ArrayList<>();
  private Duration resyncCheckPeriod;
  private DeltaFIFO<T> fifo;
  private Reflector<T> reflector;
  private final List<Thread> threads = new ArrayList<>();
  private boolean started;
  private boolean stopped;
  private boolean useWatchList;

  /**
   * Creates an informer.
   *
   * @param name a name for logs and threads, such as the resource's
   * @param listerWatcher the source
   * @param defaultResyncPeriod the resync period of handlers added without one; zero for none
   * @param indexers the cache's index functions, such as {@link CacheIndexer#namespaceIndexers()}
   * @param clock the clock
   */
  public SharedIndexInformer(
      String name,
      ListerWatcher<T> listerWatcher,
      Duration defaultResyncPeriod,
      Map<String, IndexFunc<T>> indexers,
      Clock clock) {
    this.name = Objects.requireNonNull(name, "name");
    this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
    this.defaultResyncPeriod = Objects.requireNonNull(defaultResyncPeriod, "defaultResyncPeriod");
    this.resyncCheckPeriod = defaultResyncPeriod;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.indexer = new CacheIndexer<>(indexers);
  }

  /**
   * A handler's registration, to remove it or ask whether it has seen the initial content.
   *
   * <p>Thread-safe.
   */
  public interface Registration {
    /**
     * Tells whether the informer has synced and this handler has received the initial content.
     *
     * @return true once synced
     */
    boolean hasSynced();
  }

  /**
   * Adds a handler with the informer's default resync period.
   *
   * @param handler the handler
   * @return its registration
   */
  public Registration addEventHandler(ResourceEventHandler<T> handler) {
    return addEventHandler(handler, defaultResyncPeriod);
  }

  /**
   * Adds a handler with its own resync period.
   *
   * @param handler the handler
   * @param resyncPeriod the period; zero for none; below one second means one second
   * @return its registration
   * @throws IllegalStateException when the informer was stopped
   */
  public Registration addEventHandler(ResourceEventHandler<T> handler, Duration resyncPeriod) {
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(resyncPeriod, "resyncPeriod");
    synchronized (blockDeltas) {
      if (stopped) {
        throw new IllegalStateException("informer " + name + " was stopped");
      }
      Duration period = resyncPeriod;
      if (!period.isZero() && period.compareTo(MINIMUM_RESYNC_PERIOD) < 0) {
        period = MINIMUM_RESYNC_PERIOD;
      }
      if (!period.isZero()) {
        if (period.compareTo(resyncCheckPeriod) < 0 || resyncCheckPeriod.isZero()) {
          if (started) {
            period = resyncCheckPeriod.isZero() ? period : resyncCheckPeriod;
          } else {
            resyncCheckPeriod = period;
          }
        }
      }
      Listener listener = new Listener(handler, period);
      listeners.add(listener);
      if (started) {
        for (T object : indexer.list()) {
          listener.initialPending++;
          listener.enqueue(h -> h.onAdd(object, true), true);
        }
        listener.start();
      }
      return listener;
    }
  }

  /**
   * Removes a handler; it receives nothing more.
   *
   * @param registration the registration {@link #addEventHandler} returned
   */
  public void removeEventHandler(Registration registration) {
    synchronized (blockDeltas) {
      for (Listener listener : listeners) {
        if (listener == registration) {
          listeners.remove(listener);
          syncingListeners.remove(listener);
          listener.stop();
          return;
        }
      }
    }
  }

  /**
   * Returns this informer typed for a class its objects belong to; the factory checks the class.
   *
   * @param type the class
   * @param <U> the type
   * @return this informer
   */
  @SuppressWarnings("unchecked")
  <U> SharedIndexInformer<U> asType(Class<U> type) {
    return (SharedIndexInformer<U>) this;
  }

  /**
   * Returns the cache.
   *
   * @return the indexer; read it, never change it
   */
  public Indexer<T> indexer() {
    return indexer;
  }

  /**
   * Returns a lister over the cache.
   *
   * @return the lister
   */
  public Lister<T> lister() {
    return new Lister<>(indexer);
  }

  /**
   * Tells whether the first list's content has reached the cache and the handlers' queues.
   *
   * @return true once synced
   */
  public boolean hasSynced() {
    synchronized (blockDeltas) {
      return fifo != null && fifo.hasSynced();
    }
  }

  /**
   * Returns the resource version the reflector last saw.
   *
   * @return the resource version, empty before the first list
   */
  public String lastSyncResourceVersion() {
    synchronized (blockDeltas) {
      return reflector == null ? "" : reflector.lastSyncResourceVersion();
    }
  }

  /**
   * Has the reflector start from a watch list ({@code sendInitialEvents}) instead of a list, as
   * client-go's informers do with its {@code WatchListClient} feature; off by default. Takes effect
   * at {@link #start()}.
   *
   * @param enabled whether to start from a watch
   * @return this informer
   * @throws IllegalStateException when the informer was started
   */
  public SharedIndexInformer<T> useWatchList(boolean enabled) {
    synchronized (blockDeltas) {
      if (started) {
        throw new IllegalStateException("informer " + name + " was started");
      }
      useWatchList = enabled;
    }
    return this;
  }

  /**
   * Starts the reflector, the delta processing and the handlers' threads; returns at once. Does
   * nothing when already started.
   *
   * @throws IllegalStateException when the informer was stopped
   */
  public void start() {
    synchronized (blockDeltas) {
      if (stopped) {
        throw new IllegalStateException("informer " + name + " was stopped");
      }
      if (started) {
        return;
      }
      started = true;
      fifo = new DeltaFIFO<>(Keys::metaNamespaceKey, indexer);
      reflector =
          new Reflector<>(name, listerWatcher, fifo, clock, resyncCheckPeriod, this::shouldResync)
              .useWatchList(useWatchList);
      for (Listener listener : listeners) {
        listener.start();
      }
      Thread processing = new Thread(this::processLoop, "informer-" + name);
      Thread reflecting = new Thread(reflector::run, "reflector-" + name);
      for (Thread thread : List.of(processing, reflecting)) {
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
      }
    }
  }

  /**
   * Blocks until the informer has synced or is stopped. client-go's {@code WaitForCacheSync} checks
   * every 100 milliseconds; this wakes as soon as the last object of the first list has been
   * handled (and checks at least as often, for a stop).
   *
   * @return true when synced, false when stopped first
   * @throws InterruptedException when interrupted
   */
  public boolean awaitSynced() throws InterruptedException {
    while (true) {
      if (hasSynced()) {
        return true;
      }
      if (isStopped()) {
        return false;
      }
      DeltaFIFO<T> queue;
      synchronized (blockDeltas) {
        queue = fifo;
      }
      if (queue == null) {
        Thread.sleep(10);
      } else {
        queue.awaitSynced(Duration.ofMillis(100));
      }
    }
  }

  /**
   * Tells whether {@link #stop()} was called.
   *
   * @return true once stopped
   */
  public boolean isStopped() {
    synchronized (blockDeltas) {
      return stopped;
    }
  }

  /**
   * Stops the reflector, the processing and the handlers, and waits for their threads to end.
   *
   * @throws InterruptedException when interrupted while waiting
   */
  public void stop() throws InterruptedException {
    List<Thread> toJoin;
    synchronized (blockDeltas) {
      if (stopped) {
        return;
      }
      stopped = true;
      if (reflector != null) {
        reflector.stop();
      }
      if (fifo != null) {
        fifo.close();
      }
      toJoin = new ArrayList<>(threads);
      for (Listener listener : listeners) {
        listener.stop();
        if (listener.thread != null) {
          toJoin.add(listener.thread);
        }
      }
    }
    for (Thread thread : toJoin) {
      thread.join();
    }
  }

  private void processLoop() {
    try {
      while (fifo.pop(this::handleDeltas)) {
        // one key at a time
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private boolean shouldResync() {
    synchronized (blockDeltas) {
      Instant now = clock.now();
      syncingListeners.clear();
      for (Listener listener : listeners) {
        if (listener.resyncPeriod.isZero()) {
          continue;
        }
        if (!now.isBefore(listener.nextResync)) {
          syncingListeners.add(listener);
          listener.nextResync = now.plus(listener.resyncPeriod);
        }
      }
      return !syncingListeners.isEmpty();
    }
  }

  private void handleDeltas(List<Delta<T>> deltas, boolean isInInitialList) {
    synchronized (blockDeltas) {
      for (Delta<T> delta : deltas) {
        T object = delta.object();
        switch (delta.type()) {
          case SYNC, REPLACED, ADDED, UPDATED -> {
            var old = indexer.get(object);
            if (old.isPresent()) {
              indexer.update(object);
              boolean isSync =
                  delta.type() == DeltaType.SYNC
                      || (delta.type() == DeltaType.REPLACED
                          && Objects.equals(
                              Accessor.of(old.get()).getResourceVersion(),
                              Accessor.of(object).getResourceVersion()));
              T before = old.get();
              distribute(h -> h.onUpdate(before, object), isSync);
            } else {
              indexer.add(object);
              distribute(h -> h.onAdd(object, isInInitialList), false);
            }
          }
          case DELETED -> {
            indexer.delete(object);
            boolean unknown = delta.finalStateUnknown();
            distribute(h -> h.onDelete(object, unknown), false);
          }
          default -> throw new IllegalStateException("unknown delta type " + delta.type());
        }
      }
    }
  }

  private void distribute(Consumer<ResourceEventHandler<T>> notification, boolean isSync) {
    for (Listener listener : isSync ? syncingListeners : listeners) {
      listener.enqueue(notification, false);
    }
  }

  /** A handler, its buffer of notifications and the thread that delivers them. */
  private final class Listener implements Registration {
    private final ResourceEventHandler<T> handler;
    private final Duration resyncPeriod;
    private final ArrayDeque<Pending<T>> buffer = new ArrayDeque<>();
    private Instant nextResync;
    private int initialPending;
    private boolean done;
    private Thread thread;

    Listener(ResourceEventHandler<T> handler, Duration resyncPeriod) {
      this.handler = handler;
      this.resyncPeriod = resyncPeriod;
      this.nextResync = clock.now().plus(resyncPeriod);
    }

    synchronized void enqueue(Consumer<ResourceEventHandler<T>> notification, boolean initial) {
      if (!done) {
        buffer.addLast(new Pending<>(notification, initial));
        notifyAll();
      }
    }

    synchronized void start() {
      if (thread == null && !done) {
        thread = new Thread(this::deliver, "informer-" + name + "-handler");
        thread.setDaemon(true);
        thread.start();
      }
    }

    synchronized void stop() {
      done = true;
      buffer.clear();
      notifyAll();
    }

    @Override
    public boolean hasSynced() {
      synchronized (this) {
        if (initialPending > 0) {
          return false;
        }
      }
      return SharedIndexInformer.this.hasSynced();
    }

    private void deliver() {
      while (true) {
        Pending<T> next;
        synchronized (this) {
          while (buffer.isEmpty() && !done) {
            try {
              wait();
            } catch (InterruptedException e) {
              return;
            }
          }
          if (done) {
            return;
          }
          next = buffer.removeFirst();
        }
        try {
          next.notification.accept(handler);
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.ERROR, "handler of informer " + name + " failed", e);
        }
        if (next.initial) {
          synchronized (this) {
            initialPending--;
          }
        }
      }
    }
  }

  private record Pending<T>(Consumer<ResourceEventHandler<T>> notification, boolean initial) {}
}
