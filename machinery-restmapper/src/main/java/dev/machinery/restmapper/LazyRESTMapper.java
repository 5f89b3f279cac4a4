package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A mapper built on first use from a supplier (usually reading discovery from a server), and
 * rebuilt when a lookup misses, in case the server has learned a new resource since; Kubernetes'
 * {@code DeferredDiscoveryRESTMapper}. As there, a mapper that is still fresh is not rebuilt: a
 * miss rebuilds only when the current mapper is older than the minimum refresh interval (10 seconds
 * unless given), so a client that keeps asking for a resource the server does not have fetches
 * discovery at most once per interval. A miss that does not rebuild, or that the rebuilt mapper
 * misses too, is thrown.
 *
 * <p>Safe for concurrent use: concurrent first uses build once, and concurrent misses share one
 * rebuild; lookups in between read the current mapper without locking.
 */
public final class LazyRESTMapper implements RESTMapper {
  /** The minimum refresh interval of {@link #LazyRESTMapper(Supplier)}. */
  public static final Duration DEFAULT_MIN_REFRESH_INTERVAL = Duration.ofSeconds(10);

  private final Supplier<? extends RESTMapper> supplier;
  private final long minRefreshNanos;
  private final LongSupplier nanoTime;
  private volatile RESTMapper current;
  private long builtAt;
  private int builds;

  /**
   * Creates the mapper with the {@link #DEFAULT_MIN_REFRESH_INTERVAL default} minimum refresh
   * interval; nothing is built until the first lookup.
   *
   * @param supplier builds a fresh mapper each time it is called
   */
  public LazyRESTMapper(Supplier<? extends RESTMapper> supplier) {
    this(supplier, DEFAULT_MIN_REFRESH_INTERVAL);
  }

  /**
   * Creates the mapper; nothing is built until the first lookup.
   *
   * @param supplier builds a fresh mapper each time it is called
   * @param minRefreshInterval how old the current mapper must be before a miss rebuilds it; zero
   *     rebuilds on every miss
   * @throws IllegalArgumentException if the interval is negative
   */
  public LazyRESTMapper(Supplier<? extends RESTMapper> supplier, Duration minRefreshInterval) {
    this(supplier, minRefreshInterval, System::nanoTime);
  }

  LazyRESTMapper(
      Supplier<? extends RESTMapper> supplier, Duration minRefreshInterval, LongSupplier nanoTime) {
    this.supplier = Objects.requireNonNull(supplier, "supplier");
    if (minRefreshInterval.isNegative()) {
      throw new IllegalArgumentException(
          "minRefreshInterval must not be negative, got " + minRefreshInterval);
    }
    this.minRefreshNanos = minRefreshInterval.toNanos();
    this.nanoTime = nanoTime;
  }

  /**
   * Returns how many times the supplier has been called.
   *
   * @return the count
   */
  public synchronized int builds() {
    return builds;
  }

  private RESTMapper mapper() {
    RESTMapper mapper = current;
    if (mapper == null) {
      synchronized (this) {
        mapper = current;
        if (mapper == null) {
          mapper = build();
        }
      }
    }
    return mapper;
  }

  private RESTMapper build() {
    RESTMapper fresh = Objects.requireNonNull(supplier.get(), "the supplier returned null");
    builds++;
    builtAt = nanoTime.getAsLong();
    current = fresh;
    return fresh;
  }

  private <T> T ask(Function<RESTMapper, T> lookup) {
    RESTMapper mapper = mapper();
    try {
      return lookup.apply(mapper);
    } catch (NoResourceMatchException | NoKindMatchException miss) {
      RESTMapper refreshed;
      synchronized (this) {
        if (current != mapper) {
          refreshed = current; // another caller rebuilt it meanwhile
        } else if (nanoTime.getAsLong() - builtAt < minRefreshNanos) {
          throw miss; // still fresh: the server did not have it a moment ago either
        } else {
          refreshed = build();
        }
      }
      return lookup.apply(refreshed);
    }
  }

  @Override
  public GroupVersionKind kindFor(GroupVersionResource resource) {
    return ask(mapper -> mapper.kindFor(resource));
  }

  @Override
  public List<GroupVersionKind> kindsFor(GroupVersionResource resource) {
    return ask(mapper -> mapper.kindsFor(resource));
  }

  @Override
  public GroupVersionResource resourceFor(GroupVersionResource resource) {
    return ask(mapper -> mapper.resourceFor(resource));
  }

  @Override
  public List<GroupVersionResource> resourcesFor(GroupVersionResource resource) {
    return ask(mapper -> mapper.resourcesFor(resource));
  }

  @Override
  public RESTMapping restMapping(GroupKind kind, String... versions) {
    return ask(mapper -> mapper.restMapping(kind, versions));
  }

  @Override
  public List<RESTMapping> restMappings(GroupKind kind, String... versions) {
    return ask(mapper -> mapper.restMappings(kind, versions));
  }

  @Override
  public String resourceSingularizer(String resource) {
    return ask(mapper -> mapper.resourceSingularizer(resource));
  }
}
