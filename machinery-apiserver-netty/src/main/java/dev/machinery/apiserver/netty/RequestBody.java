package dev.machinery.apiserver.netty;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A request body as the handler reads it: the event loop adds the parts it receives, the handler's
 * thread takes them. The event loop stops reading the connection while more than {@link
 * #HIGH_WATER} bytes wait, and is asked to go on once fewer than {@link #LOW_WATER} do, so a body
 * is never held in memory beyond that.
 *
 * <p>Thread-safe: {@link #offer}, {@link #end} and {@link #fail} are called on the event loop, the
 * reads and {@link #close} on the handler's thread.
 */
final class RequestBody extends InputStream {
  static final int HIGH_WATER = 256 * 1024;
  static final int LOW_WATER = 64 * 1024;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<ByteBuf> parts = new ArrayDeque<>();
  private final Runnable resume;
  private long waiting;
  private boolean ended;
  private boolean closed;
  private boolean failed;
  private boolean paused;

  /**
   * A body that calls {@code resume} (from the handler's thread) when the event loop should read
   * again after {@link #offer} returned false.
   */
  RequestBody(Runnable resume) {
    this.resume = resume;
  }

  /**
   * Adds a part; takes ownership of it.
   *
   * @return whether the event loop may read more now; when false, {@code resume} is called later
   */
  boolean offer(ByteBuf part) {
    lock.lock();
    try {
      if (closed || failed) {
        part.release();
        return true;
      }
      if (part.isReadable()) {
        parts.add(part);
        waiting += part.readableBytes();
        changed.signalAll();
      } else {
        part.release();
      }
      if (waiting > HIGH_WATER) {
        paused = true;
        return false;
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Marks the end of the body. */
  void end() {
    lock.lock();
    try {
      ended = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Marks the connection as gone: a read waiting for more fails. */
  void fail() {
    lock.lock();
    try {
      failed = true;
      releaseAll();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Whether the handler is done with the body (what arrives after is discarded). */
  boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] bytes, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    boolean wake = false;
    int n;
    lock.lock();
    try {
      while (parts.isEmpty()) {
        if (closed) {
          throw new IOException("the request body is closed");
        }
        if (failed) {
          throw new IOException("the connection ended before the request body did");
        }
        if (ended) {
          return -1;
        }
        changed.awaitUninterruptibly();
      }
      ByteBuf part = parts.peek();
      n = Math.min(length, part.readableBytes());
      part.readBytes(bytes, offset, n);
      if (!part.isReadable()) {
        parts.remove().release();
      }
      waiting -= n;
      if (paused && waiting < LOW_WATER) {
        paused = false;
        wake = true;
      }
    } finally {
      lock.unlock();
    }
    if (wake) {
      resume.run();
    }
    return n;
  }

  @Override
  public int available() {
    lock.lock();
    try {
      return (int) Math.min(Integer.MAX_VALUE, waiting);
    } finally {
      lock.unlock();
    }
  }

  /** Ends the handler's use of the body: what waits is released, and reading goes on if paused. */
  @Override
  public void close() {
    boolean wake;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      releaseAll();
      wake = paused;
      paused = false;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    if (wake) {
      resume.run();
    }
  }

  private void releaseAll() {
    ByteBuf part;
    while ((part = parts.poll()) != null) {
      part.release();
    }
    waiting = 0;
  }
}
