package dev.machinery.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.registry.webhook.Webhook;
import dev.machinery.apiserver.registry.webhook.WebhookAdmission;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.patch.Patches;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook configurations as stored now, for {@link WebhookAdmission}, read again from the two
 * stores when they may have changed; each configuration's webhooks are parsed once per
 * resourceVersion. On a storage that answers from memory the storage's revision is compared on each
 * write, so a configuration applies to every write admitted after it is stored (immediately, where
 * kube-apiserver waits for its informer). On any other storage (etcd), where asking the revision is
 * a call, a watch of the two stores marks them changed, so a configuration applies once its change
 * has come through the watch (near-immediately, as kube-apiserver's informer). Thread-safe.
 */
final class WebhookConfigurations implements WebhookAdmission.Source, AutoCloseable {
  /**
   * The logger, made on first use: the server logs nothing while it starts, and the first logger
   * starts SLF4J (its provider found and configured), which costs a fresh JVM about 0.1 s.
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(WebhookConfigurations.class);
  }

  private final Codec json;
  private final ResourceStore mutating;
  private final ResourceStore validating;
  private final ResourceStore namespaces;
  private final Map<String, List<Webhook>> parsed = new ConcurrentHashMap<>();
  private final boolean fromMemory;
  private final AtomicBoolean changed = new AtomicBoolean(true);
  private final List<Thread> watchers = new ArrayList<>();
  private volatile boolean closed;
  private volatile Snapshot snapshot;

  private record Snapshot(long revision, List<Webhook> mutating, List<Webhook> validating) {}

  WebhookConfigurations(
      Codec json,
      ResourceStore mutating,
      ResourceStore validating,
      ResourceStore namespaces,
      boolean fromMemory) {
    this.json = json;
    this.mutating = mutating;
    this.validating = validating;
    this.namespaces = namespaces;
    this.fromMemory = fromMemory;
    if (!fromMemory) {
      for (ResourceStore store : new ResourceStore[] {mutating, validating}) {
        if (store != null) {
          Thread thread =
              new Thread(() -> follow(store), "webhook configurations " + store.groupResource());
          thread.setDaemon(true);
          watchers.add(thread);
          thread.start();
        }
      }
    }
  }

  /** Marks the configurations changed on each change of a store, watching again when it ends. */
  private void follow(ResourceStore store) {
    long after = -1;
    long backoff = 0;
    while (!closed) {
      if (after < 0) {
        try {
          after = store.currentRevision();
        } catch (RuntimeException e) {
          after = -1;
        }
      }
      try (StorageWatch watch = store.watch(null, Math.max(after, 0))) {
        // What changed before the watch opened is read again too.
        changed.set(true);
        backoff = 0;
        while (!watch.isDone() && !closed) {
          StorageEvent event = watch.poll(1, TimeUnit.SECONDS);
          if (event != null) {
            after = event.revision();
            changed.set(true);
          }
        }
        StorageException error = watch.error();
        if (error != null && error.kind() == StorageException.Kind.COMPACTED) {
          after = -1;
        }
        // Whatever came between the watches is read again.
        changed.set(true);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        changed.set(true);
        if (closed) {
          return;
        }
        if (backoff == 0) {
          Log.LOG.warn(
              "the webhook configurations' watch failed; starting it again: {}", e.toString());
        }
        backoff = Math.min(backoff == 0 ? 1000 : backoff * 2, 30_000);
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Stops the watches (on a storage that does not answer from memory). */
  @Override
  public void close() {
    closed = true;
    watchers.forEach(Thread::interrupt);
  }

  /** The store of MutatingWebhookConfigurations, or {@code null}. */
  ResourceStore mutating() {
    return mutating;
  }

  /** The store of ValidatingWebhookConfigurations, or {@code null}. */
  ResourceStore validating() {
    return validating;
  }

  @Override
  public List<Webhook> webhooks(boolean wantMutating) {
    Snapshot current = snapshot;
    if (fromMemory) {
      ResourceStore any = mutating != null ? mutating : validating;
      long revision = any.currentRevision();
      if (current == null || current.revision() != revision) {
        current = new Snapshot(revision, read(mutating, true), read(validating, false));
        snapshot = current;
      }
    } else if (current == null || changed.getAndSet(false)) {
      // Cleared before reading: a change the watch marks while this reads is read again next time.
      current = new Snapshot(-1, read(mutating, true), read(validating, false));
      snapshot = current;
    }
    return wantMutating ? current.mutating() : current.validating();
  }

  private List<Webhook> read(ResourceStore store, boolean isMutating) {
    if (store == null) {
      return List.of();
    }
    List<Object> items = new ArrayList<>(store.list(null, o -> true, 0, null, "").items());
    items.sort(Comparator.comparing(o -> Accessor.of(o).getName()));
    List<Webhook> out = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (Object item : items) {
      MetaObject meta = Accessor.of(item);
      String key = (isMutating ? "m/" : "v/") + meta.getName() + "/" + meta.getResourceVersion();
      seen.add(key);
      out.addAll(
          parsed.computeIfAbsent(
              key,
              k -> {
                JsonNode tree = Patches.readTree(json.encode(item), "the webhook configuration");
                return Webhook.read(tree, isMutating);
              }));
    }
    parsed.keySet().removeIf(k -> k.startsWith(isMutating ? "m/" : "v/") && !seen.contains(k));
    return List.copyOf(out);
  }

  @Override
  public Optional<Map<String, String>> namespaceLabels(String namespace) {
    if (namespaces == null) {
      return Optional.of(Map.of());
    }
    try {
      Map<String, String> labels = Accessor.of(namespaces.getShared(null, namespace)).getLabels();
      return Optional.of(labels == null ? Map.of() : labels);
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
