package dev.machinery.controller.workqueue;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * client-go's work queue ({@code workqueue.Type}): a FIFO of distinct items with a <em>dirty</em>
 * set (items waiting) and a <em>processing</em> set (items handed out). Adding an item that is
 * dirty does nothing; adding an item being processed marks it dirty only, and {@link #done} queues
 * it again, so no item is ever processed by two workers at once.
 *
 * <p>Thread-safe: one lock guards the three structures.
 *
 * @param <T> the item type; items are compared with {@code equals}
 */
public class WorkQueue<T> implements Queue<T> {
  /** Guards the queue's state; the delaying queue waits on a condition of it. */
  final ReentrantLock lock = new ReentrantLock();

  private final Condition changed = lock.newCondition();
  private final ArrayDeque<T> queue = new ArrayDeque<>();
  private final Set<T> dirty = new HashSet<>();
  private final Set<T> processing = new HashSet<>();
  private boolean shuttingDown;
  private boolean drain;

  /** Creates an empty queue. */
  public WorkQueue() {}

  @Override
  public void add(T item) {
    if (item == null) {
      throw new NullPointerException("a work queue holds no null item");
    }
    lock.lock();
    try {
      if (shuttingDown || !dirty.add(item)) {
        return;
      }
      if (processing.contains(item)) {
        return;
      }
      queue.addLast(item);
      changed.signal();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int len() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<T> get() throws InterruptedException {
    lock.lock();
    try {
      while (queue.isEmpty() && !shuttingDown) {
        changed.await();
      }
      if (queue.isEmpty()) {
        return Optional.empty();
      }
      T item = queue.removeFirst();
      processing.add(item);
      dirty.remove(item);
      return Optional.of(item);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void done(T item) {
    lock.lock();
    try {
      if (!processing.remove(item)) {
        return;
      }
      if (dirty.contains(item)) {
        queue.addLast(item);
        changed.signal();
      } else if (processing.isEmpty()) {
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void shutDown() {
    lock.lock();
    try {
      drain = false;
      shuttingDown = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    onShutDown();
  }

  @Override
  public void shutDownWithDrain() throws InterruptedException {
    lock.lock();
    try {
      drain = true;
      shuttingDown = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    onShutDown();
    lock.lock();
    try {
      while (drain && !processing.isEmpty()) {
        changed.await();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean isShuttingDown() {
    lock.lock();
    try {
      return shuttingDown;
    } finally {
      lock.unlock();
    }
  }

  /** Called once the queue is marked shut down, outside the lock; the delaying queue stops. */
  void onShutDown() {}
}
