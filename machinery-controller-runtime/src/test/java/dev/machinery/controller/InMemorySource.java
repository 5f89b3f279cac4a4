package dev.machinery.controller;

import dev.machinery.controller.cache.ListResult;
import dev.machinery.controller.cache.ListerWatcher;
import dev.machinery.controller.cache.WatchStream;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.watch.Event;
import dev.machinery.unversioned.watch.EventType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** A resource held in memory: writes bump a resource version and reach every open watch. */
final class InMemorySource implements ListerWatcher<Unstructured> {
  private final Map<String, Unstructured> objects = new LinkedHashMap<>();
  private final List<MemoryWatch> watches = new ArrayList<>();
  private long version;

  static Unstructured object(String kind, String namespace, String name) {
    Unstructured object = new Unstructured();
    object.setApiVersion("example.com/v1");
    object.setKind(kind);
    object.setNamespace(namespace);
    object.setName(name);
    object.setGeneration(1);
    return object;
  }

  synchronized Unstructured put(Unstructured object) {
    Unstructured copy = new Unstructured(object.content());
    copy.setResourceVersion(String.valueOf(++version));
    String key = copy.getNamespace() + "/" + copy.getName();
    EventType type = objects.containsKey(key) ? EventType.MODIFIED : EventType.ADDED;
    objects.put(key, copy);
    for (MemoryWatch watch : watches) {
      watch.events.add(new Event(type, copy));
    }
    return copy;
  }

  synchronized void delete(String namespace, String name) {
    Unstructured gone = objects.remove(namespace + "/" + name);
    if (gone != null) {
      Unstructured copy = new Unstructured(gone.content());
      copy.setResourceVersion(String.valueOf(++version));
      for (MemoryWatch watch : watches) {
        watch.events.add(new Event(EventType.DELETED, copy));
      }
    }
  }

  @Override
  public synchronized ListResult<Unstructured> list(ListOptions options) {
    return new ListResult<>(new ArrayList<>(objects.values()), String.valueOf(version));
  }

  @Override
  public synchronized WatchStream watch(ListOptions options) {
    MemoryWatch watch = new MemoryWatch();
    watches.add(watch);
    return watch;
  }

  private final class MemoryWatch implements WatchStream {
    final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    @Override
    public Optional<Event> next() throws InterruptedException {
      Event event = events.take();
      return closed ? Optional.empty() : Optional.of(event);
    }

    @Override
    public void close() {
      closed = true;
      synchronized (InMemorySource.this) {
        watches.remove(this);
      }
      events.add(new Event(EventType.BOOKMARK, "closed"));
    }
  }
}
