package dev.machinery.restmapper;

import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A mapper built on first use from a supplier (usually reading discovery from a server), and
 * rebuilt once when a lookup misses, in case the server has learned a new resource since;
 * Kubernetes' {@code DeferredDiscoveryRESTMapper}. If the rebuilt mapper misses too, its miss is
 * thrown.
 *
 * <p>Safe for concurrent use: concurrent first uses build once, and a miss rebuilds once however
 * many threads meet it together; lookups in between read the current mapper without locking.
 */
public final class LazyRESTMapper implements RESTMapper {
  private final Supplier<? extends RESTMapper> supplier;
  private volatile RESTMapper current;
  private int builds;

  /**
   * Creates the mapper; nothing is built until the first lookup.
   *
   * @param supplier builds a fresh mapper each time it is called
   */
  public LazyRESTMapper(Supplier<? extends RESTMapper> supplier) {
    this.supplier = Objects.requireNonNull(supplier, "supplier");
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
        refreshed = current == mapper ? build() : current;
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
