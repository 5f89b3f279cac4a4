package dev.machinery.storage.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.QueuedWatch;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * One etcd watch, its messages read in the JSON gateway's form of its streamed {@code /v3/watch}
 * (over gRPC each message of etcd's {@code Watch} stream is decoded into that form, bytes as binary
 * nodes, with no text between: {@link WatchMessages}): a thread reads its messages into the {@link
 * QueuedWatch} the consumer holds. When the stream breaks (a member restarts, an endpoint goes
 * away), the watch is opened again from the revision after the last one delivered (progress
 * notifications move that revision on while nothing changes), on any endpoint, for up to the resume
 * time; a compacted start or an overflowing queue ends it with a reason, and ending or closing the
 * queue stops the reader. On the gateway, a watch that hears nothing for a while has its endpoint
 * probed ({@link GatewayKeepAlive}), and its stream is closed to resume elsewhere when the endpoint
 * does not answer. Thread-safe.
 */
final class EtcdWatch implements GatewayKeepAlive.Watched {
  private final EtcdClient client;
  private final String storePrefix;
  private final String prefix;
  private final String compactKey;
  private final Duration resumeFor;
  private final QueuedWatch queue;
  private volatile long delivered;
  private volatile boolean ended;
  private volatile WatchMessages stream;

  /** When the stream last brought a message, or was opened ({@link System#nanoTime}). */
  private volatile long heardAt = System.nanoTime();

  EtcdWatch(
      EtcdClient client,
      String storePrefix,
      String prefix,
      String compactKey,
      long after,
      int limit,
      Duration resumeFor,
      Consumer<QueuedWatch> onEnd) {
    this.client = client;
    this.storePrefix = storePrefix;
    this.prefix = prefix;
    this.compactKey = compactKey;
    this.delivered = after;
    this.resumeFor = resumeFor;
    this.queue =
        new QueuedWatch(
            prefix,
            limit,
            watch -> {
              stop();
              onEnd.accept(watch);
            });
  }

  /** The watch the consumer polls. */
  QueuedWatch queue() {
    return queue;
  }

  /** Opens the first stream (so that a refused watch fails here) and starts the reader. */
  void start() {
    WatchMessages first = open();
    GatewayKeepAlive keepAlive = client.keepAlive();
    if (keepAlive != null) {
      keepAlive.watch(this);
      if (ended) {
        keepAlive.forget(this);
      }
    }
    Thread reader = new Thread(() -> run(first), "etcd-watch " + storePrefix + prefix);
    reader.setDaemon(true);
    reader.start();
  }

  private WatchMessages open() {
    byte[] full = (storePrefix + prefix).getBytes(StandardCharsets.UTF_8);
    ObjectNode body = EtcdClient.object();
    ObjectNode create = body.putObject("create_request");
    create.put("key", EtcdClient.base64(full));
    create.put("range_end", EtcdClient.base64(EtcdClient.prefixEnd(full)));
    create.put("start_revision", Long.toString(delivered + 1));
    create.put("prev_kv", true);
    create.put("progress_notify", true);
    WatchMessages opened = client.stream("/v3/watch", body);
    heardAt = System.nanoTime();
    stream = opened;
    return opened;
  }

  private void run(WatchMessages first) {
    WatchMessages current = first;
    long brokenSince = 0;
    while (!ended) {
      try {
        read(current);
        if (!ended) {
          throw new IOException("the watch stream ended");
        }
      } catch (IOException | RuntimeException e) {
        if (ended) {
          return;
        }
        if (e instanceof StorageException stored
            && stored.kind() == StorageException.Kind.COMPACTED) {
          end(stored);
          return;
        }
        long now = System.nanoTime();
        brokenSince = brokenSince == 0 ? now : brokenSince;
        if (now - brokenSince > resumeFor.toNanos()) {
          end(
              EtcdClient.unavailable(
                  "the watch of " + prefix + " broke and could not be resumed: " + e));
          return;
        }
        current = reopen();
        if (current != null) {
          brokenSince = 0;
        }
      }
    }
  }

  /** Opens the watch again after a pause, or returns null to try later. */
  private WatchMessages reopen() {
    try {
      Thread.sleep(200);
      return open();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      end(EtcdClient.unavailable("the watch of " + prefix + " was interrupted"));
      return null;
    } catch (StorageException e) {
      if (e.kind() == StorageException.Kind.COMPACTED) {
        end(e);
      }
      return null;
    }
  }

  private void read(WatchMessages messages) throws IOException {
    if (messages == null) {
      throw new IOException("no stream");
    }
    try (messages) {
      for (JsonNode message = messages.next();
          !ended && message != null;
          message = ended ? null : messages.next()) {
        heardAt = System.nanoTime();
        handle(message);
      }
    }
  }

  private void handle(JsonNode result) {
    long compacted = EtcdClient.number(result.path("compact_revision"));
    if (compacted > 0) {
      throw new StorageException(
          StorageException.Kind.COMPACTED,
          prefix,
          compacted,
          "changes after revision "
              + delivered
              + " are compacted; the oldest kept follow revision "
              + compacted);
    }
    if (result.path("canceled").asBoolean(false)) {
      throw EtcdClient.unavailable(
          "etcd canceled the watch of " + prefix + ": " + result.path("cancel_reason").asText());
    }
    JsonNode events = result.path("events");
    if (events.isEmpty()) {
      // A progress notification: nothing changed under the prefix up to this revision.
      long revision = EtcdClient.revision(result);
      if (!result.path("created").asBoolean(false) && revision > delivered) {
        delivered = revision;
      }
      return;
    }
    for (JsonNode event : events) {
      JsonNode kv = event.path("kv");
      if (EtcdClient.text(kv.path("key")).equals(compactKey)) {
        continue;
      }
      offer(toEvent(event));
    }
  }

  private StorageEvent toEvent(JsonNode event) {
    JsonNode kv = event.path("kv");
    JsonNode prev = event.path("prev_kv");
    if ("DELETE".equals(event.path("type").asText())) {
      KeyValue before = EtcdClient.keyValue(prev, storePrefix);
      return new StorageEvent(
          StorageEvent.Type.DELETE,
          new KeyValue(
              before.key(),
              before.value(),
              before.createRevision(),
              EtcdClient.number(kv.path("mod_revision")),
              before.version()),
          null);
    }
    KeyValue now = EtcdClient.keyValue(kv, storePrefix);
    KeyValue previous =
        now.createRevision() != now.modRevision() && !prev.isMissingNode()
            ? EtcdClient.keyValue(prev, storePrefix)
            : null;
    return new StorageEvent(StorageEvent.Type.PUT, now, previous);
  }

  private void offer(StorageEvent event) {
    if (queue.offer(event)) {
      delivered = event.revision();
    }
  }

  /** Ends the watch for a reason: the consumer sees it after the changes already queued. */
  void end(StorageException reason) {
    queue.end(reason);
  }

  @Override
  public long heardAt() {
    return heardAt;
  }

  @Override
  public int endpoint() {
    WatchMessages open = stream;
    return open == null ? -1 : open.endpoint();
  }

  @Override
  public void drop() {
    WatchMessages open = stream;
    if (open != null) {
      open.close();
    }
  }

  /** Stops reading: the queue ended or was closed. */
  private void stop() {
    ended = true;
    GatewayKeepAlive keepAlive = client.keepAlive();
    if (keepAlive != null) {
      keepAlive.forget(this);
    }
    WatchMessages open = stream;
    if (open != null) {
      open.close();
    }
  }
}
