package dev.machinery.controller.cache;

import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.watch.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/**
 * A scripted source: lists answer from a function of the options; each watch is a queue the test
 * feeds. Records every call's options.
 */
final class FakeListerWatcher implements ListerWatcher<Unstructured> {
  final List<ListOptions> lists = new ArrayList<>();
  final List<ListOptions> watches = new ArrayList<>();
  final List<FakeWatch> opened = new ArrayList<>();
  private volatile Function<ListOptions, ListResult<Unstructured>> lister;

  FakeListerWatcher(Function<ListOptions, ListResult<Unstructured>> lister) {
    this.lister = lister;
  }

  void lister(Function<ListOptions, ListResult<Unstructured>> lister) {
    this.lister = lister;
  }

  @Override
  public ListResult<Unstructured> list(ListOptions options) {
    synchronized (this) {
      lists.add(options);
    }
    return lister.apply(options);
  }

  @Override
  public WatchStream watch(ListOptions options) {
    FakeWatch watch = new FakeWatch();
    synchronized (this) {
      watches.add(options);
      opened.add(watch);
      notifyAll();
    }
    return watch;
  }

  synchronized int listCount() {
    return lists.size();
  }

  synchronized int watchCount() {
    return watches.size();
  }

  synchronized ListOptions list(int i) {
    return lists.get(i);
  }

  synchronized ListOptions watchOptions(int i) {
    return watches.get(i);
  }

  /** Waits for the n-th watch (from 0) to be opened and returns it. */
  FakeWatch awaitWatch(int n) throws InterruptedException {
    Poll.until("watch " + n + " opened", () -> watchCount() > n);
    synchronized (this) {
      return opened.get(n);
    }
  }

  static final class FakeWatch implements WatchStream {
    private static final Event END =
        new Event(dev.machinery.unversioned.watch.EventType.BOOKMARK, "end");
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    void send(Event event) {
      events.add(event);
    }

    /** The server ends the watch. */
    void end() {
      events.add(END);
    }

    boolean closed() {
      return closed;
    }

    @Override
    public Optional<Event> next() throws InterruptedException {
      if (closed) {
        return Optional.empty();
      }
      Event event = events.take();
      if (event == END) {
        closed = true;
        return Optional.empty();
      }
      return Optional.of(event);
    }

    @Override
    public void close() {
      closed = true;
      events.add(END);
    }
  }
}
