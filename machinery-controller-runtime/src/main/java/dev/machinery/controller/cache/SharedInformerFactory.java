package dev.machinery.controller.cache;

import dev.machinery.controller.clock.Clock;
import dev.machinery.core.schema.GroupVersionResource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Keeps one {@link SharedIndexInformer} per resource ({@code informers.SharedInformerFactory}):
 * every controller that asks for a resource's informer gets the same one, so one list and one watch
 * serve them all.
 *
 * <p>Thread-safe.
 */
public final class SharedInformerFactory {
  private final Duration defaultResync;
  private final Clock clock;
  private final Map<GroupVersionResource, Entry<?>> informers = new LinkedHashMap<>();
  private boolean shutDown;

  /**
   * Creates a factory.
   *
   * @param defaultResync the resync period of the informers it creates; zero for none
   * @param clock the clock
   */
  public SharedInformerFactory(Duration defaultResync, Clock clock) {
    this.defaultResync = Objects.requireNonNull(defaultResync, "defaultResync");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  private record Entry<T>(Class<T> type, SharedIndexInformer<T> informer) {}

  /**
   * Returns the resource's informer, creating it the first time with a namespace index.
   *
   * @param resource the resource
   * @param type the class of its objects (a typed class or {@code Unstructured})
   * @param listerWatcher creates the source, called once
   * @param <T> the object type
   * @return the informer
   * @throws IllegalArgumentException when the resource's informer holds another type
   * @throws IllegalStateException after {@link #shutdown()}
   */
  public synchronized <T> SharedIndexInformer<T> informerFor(
      GroupVersionResource resource, Class<T> type, Supplier<ListerWatcher<T>> listerWatcher) {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(type, "type");
    if (shutDown) {
      throw new IllegalStateException("the informer factory was shut down");
    }
    Entry<?> existing = informers.get(resource);
    if (existing == null) {
      SharedIndexInformer<T> informer =
          new SharedIndexInformer<>(
              resource.toString(),
              listerWatcher.get(),
              defaultResync,
              CacheIndexer.namespaceIndexers(),
              clock);
      informers.put(resource, new Entry<>(type, informer));
      return informer;
    }
    if (existing.type() != type) {
      throw new IllegalArgumentException(
          "the informer of "
              + resource
              + " holds "
              + existing.type().getName()
              + ", not "
              + type.getName());
    }
    return existing.informer().asType(type);
  }

  /** Starts every informer not yet started; informers created later need another call. */
  public synchronized void start() {
    for (Entry<?> entry : informers.values()) {
      entry.informer().start();
    }
  }

  /**
   * Blocks until every informer has synced.
   *
   * @return the resources whose informers synced (all but those stopped first)
   * @throws InterruptedException when interrupted
   */
  public Map<GroupVersionResource, Boolean> waitForCacheSync() throws InterruptedException {
    Map<GroupVersionResource, SharedIndexInformer<?>> snapshot = new LinkedHashMap<>();
    synchronized (this) {
      informers.forEach((resource, entry) -> snapshot.put(resource, entry.informer()));
    }
    Map<GroupVersionResource, Boolean> result = new LinkedHashMap<>();
    for (Map.Entry<GroupVersionResource, SharedIndexInformer<?>> entry : snapshot.entrySet()) {
      result.put(entry.getKey(), entry.getValue().awaitSynced());
    }
    return result;
  }

  /**
   * Stops every informer and refuses new ones.
   *
   * @throws InterruptedException when interrupted while waiting for their threads
   */
  public void shutdown() throws InterruptedException {
    List<SharedIndexInformer<?>> toStop = new ArrayList<>();
    synchronized (this) {
      shutDown = true;
      informers.values().forEach(entry -> toStop.add(entry.informer()));
    }
    for (SharedIndexInformer<?> informer : toStop) {
      informer.stop();
    }
  }
}
