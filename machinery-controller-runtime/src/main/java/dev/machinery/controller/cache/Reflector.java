package dev.machinery.controller.cache;

import dev.machinery.controller.clock.Cancellable;
import dev.machinery.controller.clock.Clock;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.watch.Event;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * client-go's {@code cache.Reflector}: lists a resource into a {@link Store}, then watches from the
 * list's resource version and applies each event to the store.
 *
 * <ul>
 *   <li>The first list asks for resource version {@code "0"} (any cached state); later lists ask
 *       for the last resource version seen. A list that fails with {@code 410 Gone} or {@code
 *       Expired} is repeated at once with resource version {@code ""} (the latest state).
 *   <li>Pages are followed through their continue tokens.
 *   <li>Every event moves the last seen resource version forward, bookmarks included; a watch that
 *       ends is reopened from it without a relist.
 *   <li>A watch that fails with {@code 410 Gone} or {@code Expired} (as an error event or when
 *       opened) ends the round: the reflector relists.
 *   <li>Other failures wait an exponential back-off (800ms doubling to 30s, reset after a round
 *       that listed successfully) before the next round.
 *   <li>With a resync period, {@link Store#resync()} is called each period when {@code
 *       shouldResync} agrees.
 *   <li>With {@link #useWatchList(boolean) watch lists} on (off by default, as client-go's {@code
 *       WatchListClient} feature gate was until 1.32), a round starts with a watch asking for its
 *       initial events ({@code sendInitialEvents=true}, {@code resourceVersionMatch=NotOlderThan},
 *       the last resource version seen, or {@code ""} for the most recent state, and bookmarks):
 *       its events fill a temporary store until the bookmark annotated {@code
 *       k8s.io/initial-events-end}, whose resource version the store is replaced at, and the same
 *       watch goes on. A server that refuses it (an error, an {@code ERROR} event, a watch that
 *       ends before that bookmark) gets the list and watch of before, for that round.
 * </ul>
 *
 * <p>Thread-safe: {@link #run()} runs on one thread; {@link #stop()} and the getters on any.
 *
 * @param <T> the object type
 */
public final class Reflector<T> {
  private static final System.Logger LOG = System.getLogger(Reflector.class.getName());
  private static final Duration INITIAL_BACKOFF = Duration.ofMillis(800);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
  private static final long MIN_WATCH_TIMEOUT_SECONDS = 300;

  /** The annotation of the bookmark that ends a watch list's initial events. */
  public static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

  private final String name;
  private final ListerWatcher<T> listerWatcher;
  private final Store<T> store;
  private final Clock clock;
  private final Duration resyncPeriod;
  private final BooleanSupplier shouldResync;
  private final Object lock = new Object();
  private String lastSyncResourceVersion = "";
  private boolean lastSyncResourceVersionUnavailable;
  private boolean stopped;
  private Thread runner;
  private WatchStream currentWatch;
  private boolean useWatchList;

  /**
   * Creates a reflector.
   *
   * @param name a name for logs and threads
   * @param listerWatcher the source
   * @param store the store to fill, usually a {@link DeltaFIFO}
   * @param clock the clock back-offs and resyncs wait on
   * @param resyncPeriod how often to resync; zero for never
   * @param shouldResync asked before each resync, or null to always resync
   */
  public Reflector(
      String name,
      ListerWatcher<T> listerWatcher,
      Store<T> store,
      Clock clock,
      Duration resyncPeriod,
      BooleanSupplier shouldResync) {
    this.name = Objects.requireNonNull(name, "name");
    this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.resyncPeriod = Objects.requireNonNull(resyncPeriod, "resyncPeriod");
    if (resyncPeriod.isNegative()) {
      throw new IllegalArgumentException("resyncPeriod must not be negative: " + resyncPeriod);
    }
    this.shouldResync = shouldResync == null ? () -> true : shouldResync;
  }

  /**
   * Starts each round from a watch list ({@code sendInitialEvents}) instead of a list, falling back
   * to a list when the server refuses it. Off by default.
   *
   * @param enabled whether to start from a watch
   * @return this reflector
   */
  public Reflector<T> useWatchList(boolean enabled) {
    synchronized (lock) {
      useWatchList = enabled;
    }
    return this;
  }

  /**
   * Returns whether rounds start from a watch list.
   *
   * @return true when they do
   */
  public boolean usesWatchList() {
    synchronized (lock) {
      return useWatchList;
    }
  }

  /**
   * Returns the resource version last seen, in a list or an event.
   *
   * @return the resource version, empty before the first list
   */
  public String lastSyncResourceVersion() {
    synchronized (lock) {
      return lastSyncResourceVersion;
    }
  }

  /**
   * Lists and watches until {@link #stop()}, backing off between failed rounds. Blocks; returns at
   * once when already stopped. Failures are recognised through {@link ApiErrors}, so any exception
   * that carries a Status (or has one among its causes) counts, not only {@link StatusException}.
   *
   * @throws IllegalStateException when already running
   */
  public void run() {
    synchronized (lock) {
      if (stopped) {
        return;
      }
      if (runner != null) {
        throw new IllegalStateException("reflector " + name + " runs only once");
      }
      runner = Thread.currentThread();
    }
    Duration backoff = INITIAL_BACKOFF;
    try {
      while (!isStopped()) {
        boolean listed = false;
        try {
          listed = listAndWatch();
        } catch (InterruptedException e) {
          if (isStopped()) {
            return;
          }
          Thread.currentThread().interrupt();
          return;
        } catch (RuntimeException e) {
          if (isStopped()) {
            return;
          }
          LOG.log(System.Logger.Level.WARNING, "reflector " + name + ": " + e.getMessage(), e);
        }
        if (isStopped()) {
          return;
        }
        if (listed) {
          backoff = INITIAL_BACKOFF;
        }
        try {
          clock.sleep(jitter(backoff));
        } catch (InterruptedException e) {
          if (!isStopped()) {
            Thread.currentThread().interrupt();
          }
          return;
        }
        backoff = backoff.multipliedBy(2);
        if (backoff.compareTo(MAX_BACKOFF) > 0) {
          backoff = MAX_BACKOFF;
        }
      }
    } finally {
      synchronized (lock) {
        runner = null;
        stopped = true;
      }
    }
  }

  /** Stops the reflector: closes its watch and wakes its thread. */
  public void stop() {
    WatchStream watch;
    Thread thread;
    synchronized (lock) {
      stopped = true;
      watch = currentWatch;
      thread = runner;
    }
    if (watch != null) {
      watch.close();
    }
    if (thread != null && thread != Thread.currentThread()) {
      thread.interrupt();
    }
  }

  private boolean isStopped() {
    synchronized (lock) {
      return stopped;
    }
  }

  private static Duration jitter(Duration base) {
    // wait.Jitter with factor 1.0: between the base and twice the base
    double factor = 1 + ThreadLocalRandom.current().nextDouble();
    return Duration.ofNanos((long) (base.toNanos() * factor));
  }

  /**
   * One round: a list, then watches until one fails.
   *
   * @return true when the list succeeded (the back-off starts over)
   */
  boolean listAndWatch() throws InterruptedException {
    WatchStream started = null;
    if (usesWatchList()) {
      try {
        started = watchList();
      } catch (RuntimeException e) {
        if (isStopped()) {
          return false;
        }
        LOG.log(
            System.Logger.Level.WARNING,
            "reflector "
                + name
                + ": the watch list failed, falling back to a list and a watch: "
                + e.getMessage());
      }
    }
    if (started == null) {
      list();
    }
    Cancellable resync = scheduleResync();
    try {
      watchLoop(started);
    } finally {
      resync.cancel();
    }
    return true;
  }

  /**
   * A watch list: the initial events into a temporary store up to the bookmark that ends them, then
   * the store replaced at that bookmark's resource version.
   *
   * @return the watch, to go on with
   * @throws RuntimeException when the server refuses the watch, sends an error, or ends it before
   *     the bookmark (then the round falls back to a list)
   */
  private WatchStream watchList() throws InterruptedException {
    ListOptions options = new ListOptions();
    synchronized (lock) {
      options.setResourceVersion(lastSyncResourceVersionUnavailable ? "" : lastSyncResourceVersion);
    }
    options.setAllowWatchBookmarks(true);
    options.setSendInitialEvents(true);
    options.setResourceVersionMatch("NotOlderThan");
    options.setTimeoutSeconds(
        MIN_WATCH_TIMEOUT_SECONDS
            + ThreadLocalRandom.current().nextLong(MIN_WATCH_TIMEOUT_SECONDS));
    WatchStream watch = listerWatcher.watch(options);
    synchronized (lock) {
      if (stopped) {
        watch.close();
        throw new IllegalStateException("reflector " + name + " was stopped");
      }
      currentWatch = watch;
    }
    boolean handedOn = false;
    try {
      Map<String, T> initial = new LinkedHashMap<>();
      while (true) {
        Optional<Event> next = watch.next();
        if (next.isEmpty()) {
          throw new IllegalStateException(
              "the watch list ended before the bookmark annotated " + INITIAL_EVENTS_END);
        }
        Event event = next.get();
        switch (event.type()) {
          case ERROR -> {
            StatusException failure = errorOf(event.object());
            if (isExpired(failure)) {
              synchronized (lock) {
                lastSyncResourceVersionUnavailable = true;
              }
            }
            throw failure;
          }
          case BOOKMARK -> {
            Map<String, String> annotations = Accessor.of(event.object()).getAnnotations();
            if (annotations != null && "true".equals(annotations.get(INITIAL_EVENTS_END))) {
              String resourceVersion = Accessor.of(event.object()).getResourceVersion();
              store.replace(new ArrayList<>(initial.values()), resourceVersion);
              synchronized (lock) {
                lastSyncResourceVersion = resourceVersion;
                lastSyncResourceVersionUnavailable = false;
              }
              handedOn = true;
              return watch;
            }
          }
          case ADDED, MODIFIED -> initial.put(key(event.object()), cast(event.object()));
          case DELETED -> initial.remove(key(event.object()));
          default -> throw new IllegalStateException("unknown event type " + event.type());
        }
      }
    } finally {
      if (!handedOn) {
        synchronized (lock) {
          currentWatch = null;
        }
        watch.close();
      }
    }
  }

  private static String key(Object object) {
    var meta = Accessor.of(object);
    String namespace = meta.getNamespace();
    return namespace == null || namespace.isEmpty()
        ? meta.getName()
        : namespace + "/" + meta.getName();
  }

  private void list() {
    List<T> items;
    String resourceVersion;
    try {
      PageResult<T> result = listAllPages(relistResourceVersion());
      items = result.items;
      resourceVersion = result.resourceVersion;
    } catch (RuntimeException e) {
      if (!isExpired(e)) {
        throw e;
      }
      synchronized (lock) {
        lastSyncResourceVersionUnavailable = true;
      }
      PageResult<T> result = listAllPages(relistResourceVersion());
      items = result.items;
      resourceVersion = result.resourceVersion;
    }
    store.replace(items, resourceVersion);
    synchronized (lock) {
      lastSyncResourceVersion = resourceVersion;
      lastSyncResourceVersionUnavailable = false;
    }
  }

  private record PageResult<T>(List<T> items, String resourceVersion) {}

  private PageResult<T> listAllPages(String resourceVersion) {
    List<T> items = new ArrayList<>();
    String continueToken = null;
    String listedVersion;
    do {
      ListOptions options = new ListOptions();
      if (continueToken == null) {
        options.setResourceVersion(resourceVersion);
      } else {
        options.setContinue(continueToken);
      }
      ListResult<T> page = listerWatcher.list(options);
      items.addAll(page.items());
      listedVersion = page.resourceVersion();
      continueToken = page.continueToken();
    } while (continueToken != null && !continueToken.isEmpty());
    return new PageResult<>(items, listedVersion);
  }

  /** The resource version the next list asks for ({@code relistResourceVersion}). */
  String relistResourceVersion() {
    synchronized (lock) {
      if (lastSyncResourceVersionUnavailable) {
        return "";
      }
      if (lastSyncResourceVersion.isEmpty()) {
        return "0";
      }
      return lastSyncResourceVersion;
    }
  }

  private Cancellable scheduleResync() {
    if (resyncPeriod.isZero()) {
      return () -> false;
    }
    Periodic periodic = new Periodic();
    periodic.arm();
    return periodic;
  }

  private final class Periodic implements Cancellable {
    private final Object guard = new Object();
    private Cancellable next;
    private boolean cancelled;

    void arm() {
      synchronized (guard) {
        if (!cancelled) {
          next = clock.schedule(resyncPeriod, this::fire);
        }
      }
    }

    private void fire() {
      synchronized (guard) {
        if (cancelled) {
          return;
        }
      }
      if (shouldResync.getAsBoolean()) {
        store.resync();
      }
      arm();
    }

    @Override
    public boolean cancel() {
      synchronized (guard) {
        cancelled = true;
        return next != null && next.cancel();
      }
    }
  }

  private void watchLoop(WatchStream started) throws InterruptedException {
    if (started != null) {
      try {
        if (!handleWatch(started)) {
          return;
        }
      } finally {
        synchronized (lock) {
          currentWatch = null;
        }
        started.close();
      }
    }
    while (!isStopped()) {
      ListOptions options = new ListOptions();
      options.setResourceVersion(lastSyncResourceVersion());
      options.setAllowWatchBookmarks(true);
      options.setTimeoutSeconds(
          MIN_WATCH_TIMEOUT_SECONDS
              + ThreadLocalRandom.current().nextLong(MIN_WATCH_TIMEOUT_SECONDS));
      WatchStream watch;
      try {
        watch = listerWatcher.watch(options);
      } catch (RuntimeException e) {
        if (isExpired(e)) {
          return;
        }
        if (ApiErrors.isTooManyRequests(e)) {
          clock.sleep(jitter(INITIAL_BACKOFF));
          continue;
        }
        throw e;
      }
      synchronized (lock) {
        if (stopped) {
          watch.close();
          return;
        }
        currentWatch = watch;
      }
      try {
        if (!handleWatch(watch)) {
          return;
        }
      } finally {
        synchronized (lock) {
          currentWatch = null;
        }
        watch.close();
      }
    }
  }

  /**
   * Applies a watch's events to the store.
   *
   * @return true when the watch just ended (reopen it), false when the reflector must relist
   */
  private boolean handleWatch(WatchStream watch) throws InterruptedException {
    while (true) {
      Optional<Event> next = watch.next();
      if (next.isEmpty()) {
        return true;
      }
      Event event = next.get();
      switch (event.type()) {
        case ERROR -> {
          StatusException failure = errorOf(event.object());
          if (isExpired(failure)) {
            return false;
          }
          throw failure;
        }
        case BOOKMARK -> {}
        case ADDED -> store.add(cast(event.object()));
        case MODIFIED -> store.update(cast(event.object()));
        case DELETED -> store.delete(cast(event.object()));
        default -> throw new IllegalStateException("unknown event type " + event.type());
      }
      String resourceVersion = Accessor.of(event.object()).getResourceVersion();
      if (resourceVersion != null && !resourceVersion.isEmpty()) {
        synchronized (lock) {
          lastSyncResourceVersion = resourceVersion;
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private T cast(Object object) {
    return (T) object;
  }

  private static StatusException errorOf(Object object) {
    if (object instanceof Status status) {
      return new StatusException(status);
    }
    Status status = new Status();
    status.setStatus("Failure");
    status.setCode(500);
    status.setReason("InternalError");
    status.setMessage("watch error event with a " + object.getClass().getName());
    return new StatusException(status);
  }

  private static boolean isExpired(RuntimeException e) {
    return ApiErrors.isResourceExpired(e) || ApiErrors.isGone(e);
  }
}
