package dev.machinery.apiserver.audit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's log backend ({@code --audit-log-path}): each event as one line of JSON, written
 * by a thread of its own from a bounded queue, so that a slow disk never holds a request up.
 *
 * <p>It works as kube-apiserver's {@code batch} mode, not its default {@code blocking} one: {@link
 * #process} only puts the event in the queue ({@value #DEFAULT_QUEUE_SIZE} events by default,
 * kube-apiserver's batch buffer size); when the queue is full the event is dropped, counted in
 * {@link #dropped()}, and a warning is logged (the first drop, then at most once a minute). The
 * writer flushes whenever the queue runs empty, so lines reach the file within moments of their
 * requests. {@link #close()} writes what is queued, then closes the file.
 *
 * <p>Thread-safe: {@link #process} may be called from any number of threads at once.
 */
public final class AuditLogWriter implements AuditSink, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AuditLogWriter.class);

  /** The events queued by default, kube-apiserver's {@code --audit-log-batch-buffer-size}. */
  public static final int DEFAULT_QUEUE_SIZE = 10_000;

  private static final long WARN_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final String name;
  private final BlockingQueue<AuditEvent> queue;
  private final Writer out;
  private final boolean closeOut;
  private final Thread thread;
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong lastWarning = new AtomicLong();
  private volatile boolean closed;

  private AuditLogWriter(String name, OutputStream out, boolean closeOut, int queueSize) {
    if (queueSize <= 0) {
      throw new IllegalArgumentException("the queue size must be positive, got " + queueSize);
    }
    this.name = name;
    this.queue = new ArrayBlockingQueue<>(queueSize);
    this.out = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    this.closeOut = closeOut;
    this.thread = new Thread(this::run, "machinery-audit-log");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Opens a log file, appending to it (created when missing), with the default queue size.
   *
   * @param file the file
   * @return the writer; close it to write what is queued and close the file
   * @throws UncheckedIOException when the file cannot be opened
   */
  public static AuditLogWriter open(Path file) {
    return open(file, DEFAULT_QUEUE_SIZE);
  }

  /**
   * Opens a log file, appending to it (created when missing).
   *
   * @param file the file
   * @param queueSize the most events waiting to be written; more are dropped
   * @return the writer; close it to write what is queued and close the file
   * @throws UncheckedIOException when the file cannot be opened
   */
  public static AuditLogWriter open(Path file, int queueSize) {
    Objects.requireNonNull(file, "file");
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      OutputStream stream =
          Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      return new AuditLogWriter("\"" + file + "\"", stream, true, queueSize);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the audit log \"" + file + "\"", e);
    }
  }

  /**
   * Writes to a stream the writer does not close, such as {@code System.out} ({@code
   * --audit-log-path=-}).
   *
   * @param out the stream
   * @param queueSize the most events waiting to be written; more are dropped
   * @return the writer; close it to write what is queued (the stream stays open)
   */
  public static AuditLogWriter to(OutputStream out, int queueSize) {
    return new AuditLogWriter("stream", Objects.requireNonNull(out, "out"), false, queueSize);
  }

  /**
   * Opens the log kube-apiserver's {@code --audit-log-path} names: standard output for {@code -},
   * else a file.
   *
   * @param path the flag's value
   * @return the writer
   * @throws UncheckedIOException when the file cannot be opened
   */
  public static AuditLogWriter forPath(String path) {
    if (path.equals("-")) {
      return to(System.out, DEFAULT_QUEUE_SIZE);
    }
    return open(Path.of(path));
  }

  /**
   * Queues an event to be written, or drops it when the queue is full or the writer closed.
   *
   * @param event the event
   */
  @Override
  public void process(AuditEvent event) {
    Objects.requireNonNull(event, "event");
    if (closed || !queue.offer(event)) {
      long count = dropped.incrementAndGet();
      long now = System.nanoTime();
      long last = lastWarning.get();
      if ((count == 1 || now - last >= WARN_INTERVAL_NANOS)
          && lastWarning.compareAndSet(last, now)) {
        LOG.warn(
            "audit log {}: {}; {} event(s) dropped so far",
            name,
            closed ? "the writer is closed" : "the queue of events to write is full",
            count);
      }
    }
  }

  /**
   * Returns how many events were dropped because the queue was full (or the writer closed).
   *
   * @return the count
   */
  public long dropped() {
    return dropped.get();
  }

  /**
   * Returns how many events have been written (and flushed or about to be).
   *
   * @return the count
   */
  public long written() {
    return written.get();
  }

  /**
   * Writes what is queued, then closes the file (not a stream given to {@link #to}). Events that
   * arrive later are dropped.
   */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      if (closeOut) {
        out.close();
      } else {
        out.flush();
      }
    } catch (IOException e) {
      LOG.warn("audit log {}: closing failed", name, e);
    }
  }

  private void run() {
    List<AuditEvent> batch = new ArrayList<>();
    while (true) {
      if (closed) {
        queue.drainTo(batch);
        if (!batch.isEmpty()) {
          write(batch);
        }
        return;
      }
      try {
        AuditEvent first = queue.poll(1, TimeUnit.SECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
      } catch (InterruptedException e) {
        continue; // closed: the loop's start writes what is left
      }
      queue.drainTo(batch);
      write(batch);
      batch.clear();
    }
  }

  private void write(List<AuditEvent> batch) {
    try {
      for (AuditEvent event : batch) {
        out.write(event.toJson());
        out.write('\n');
        written.incrementAndGet();
      }
      if (queue.isEmpty()) {
        out.flush();
      }
    } catch (IOException | RuntimeException e) {
      dropped.addAndGet(batch.size());
      LOG.warn("audit log {}: writing {} event(s) failed", name, batch.size(), e);
    }
  }
}
