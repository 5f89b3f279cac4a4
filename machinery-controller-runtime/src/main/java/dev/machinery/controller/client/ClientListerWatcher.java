package dev.machinery.controller.client;

import dev.machinery.client.ListPage;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.Watch;
import dev.machinery.controller.cache.ListResult;
import dev.machinery.controller.cache.ListerWatcher;
import dev.machinery.controller.cache.WatchStream;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.watch.Event;
import dev.machinery.unversioned.watch.EventType;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link ListerWatcher} over a {@link ResourceClient} ({@code cache.NewListWatchFromClient}): in
 * the client's namespace (all namespaces when it has none), narrowed by a label and a field
 * selector. A watch's failure that carries a Status (an {@code ERROR} event, a 410) becomes an
 * {@code ERROR} event with that Status, so the {@link dev.machinery.controller.cache.Reflector}
 * handles it as client-go's does.
 *
 * <p>Thread-safe when the client is (the library's client is).
 *
 * @param <T> the object type
 */
public final class ClientListerWatcher<T> implements ListerWatcher<T> {
  private final ResourceClient<T> client;
  private final String labelSelector;
  private final String fieldSelector;

  /**
   * Lists and watches every object the client reaches.
   *
   * @param client the client
   */
  public ClientListerWatcher(ResourceClient<T> client) {
    this(client, null, null);
  }

  /**
   * Lists and watches the objects that match selectors.
   *
   * @param client the client
   * @param labelSelector a label selector, or null
   * @param fieldSelector a field selector, or null
   */
  public ClientListerWatcher(ResourceClient<T> client, String labelSelector, String fieldSelector) {
    this.client = Objects.requireNonNull(client, "client");
    this.labelSelector = labelSelector;
    this.fieldSelector = fieldSelector;
  }

  private ListOptions narrowed(ListOptions options) {
    if (labelSelector != null) {
      options.setLabelSelector(labelSelector);
    }
    if (fieldSelector != null) {
      options.setFieldSelector(fieldSelector);
    }
    return options;
  }

  @Override
  public ListResult<T> list(ListOptions options) {
    ListPage<T> page = client.list(narrowed(options));
    return new ListResult<>(page.items(), page.resourceVersion(), page.continueToken());
  }

  @Override
  public WatchStream watch(ListOptions options) {
    Watch<T> watch = client.watch(narrowed(options));
    return new WatchStream() {
      private volatile boolean closed;

      @Override
      public Optional<Event> next() {
        if (closed) {
          return Optional.empty();
        }
        try {
          return watch.hasNext() ? Optional.of(watch.next()) : Optional.empty();
        } catch (RuntimeException e) {
          if (closed) {
            return Optional.empty();
          }
          if (ApiErrors.reasonFor(e).isEmpty()) {
            throw e;
          }
          return Optional.of(new Event(EventType.ERROR, ApiErrors.statusFor(e)));
        }
      }

      @Override
      public void close() {
        closed = true;
        watch.close();
      }
    };
  }
}
