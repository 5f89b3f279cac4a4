package dev.machinery.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.admission.NamespaceLifecycle;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.patch.Patches;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The state of namespaces, for writes into them, read as kube-apiserver's {@code
 * NamespaceLifecycle} plugin reads it: from the Namespaces' watch cache as it stands, as an
 * informer's lister answers, so that a write costs no read of the storage; from the storage itself
 * when the cache does not hold the namespace (one created a moment ago, which the cache has not
 * seen yet), and, for {@value #FORCE_LIVE_LOOKUP_SECONDS} seconds after a delete of a namespace was
 * admitted here, whenever the cache still shows it active (the cache may not have seen the delete
 * yet).
 *
 * <p>Thread-safe.
 */
public final class NamespaceStates {
  /** How long after a delete the storage is read whatever the cache says, as kube's plugin. */
  static final long FORCE_LIVE_LOOKUP_SECONDS = 30;

  private static final int MAX_RECENT_DELETES = 10_000;

  private final ResourceStore namespaces;
  private final Codec json;
  private final LongSupplier nanoTime;
  private final Map<String, Long> deletedAt = new ConcurrentHashMap<>();

  /**
   * Creates the states of the namespaces of one store.
   *
   * @param namespaces the store of Namespaces
   * @param json the JSON codec, to read a namespace's phase
   */
  public NamespaceStates(ResourceStore namespaces, Codec json) {
    this(namespaces, json, System::nanoTime);
  }

  NamespaceStates(ResourceStore namespaces, Codec json, LongSupplier nanoTime) {
    this.namespaces = Objects.requireNonNull(namespaces, "namespaces");
    this.json = Objects.requireNonNull(json, "json");
    this.nanoTime = nanoTime;
  }

  /**
   * Tells the state of a namespace.
   *
   * @param name the namespace
   * @return its state
   */
  public NamespaceLifecycle.State state(String name) {
    Optional<Object> cached = namespaces.getCached(null, name);
    if (cached.isPresent()) {
      NamespaceLifecycle.State state = stateOf(cached.get());
      if (state != NamespaceLifecycle.State.ACTIVE || !recentlyDeleted(name)) {
        return state;
      }
    }
    Object live;
    try {
      live = namespaces.get(null, name);
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        return NamespaceLifecycle.State.ABSENT;
      }
      throw e;
    }
    return stateOf(live);
  }

  /**
   * Notes that a delete of a namespace was admitted: its state is read from the storage for the
   * next {@value #FORCE_LIVE_LOOKUP_SECONDS} seconds whenever the cache shows it active.
   *
   * @param name the namespace
   */
  public void deleting(String name) {
    long now = nanoTime.getAsLong();
    if (deletedAt.size() >= MAX_RECENT_DELETES) {
      deletedAt.values().removeIf(at -> expired(at, now));
    }
    deletedAt.put(name, now);
  }

  private boolean recentlyDeleted(String name) {
    Long at = deletedAt.get(name);
    if (at == null) {
      return false;
    }
    if (expired(at, nanoTime.getAsLong())) {
      deletedAt.remove(name, at);
      return false;
    }
    return true;
  }

  private static boolean expired(long at, long now) {
    return now - at > Duration.ofSeconds(FORCE_LIVE_LOOKUP_SECONDS).toNanos();
  }

  /** What a namespace's state is remembered under, with the cache's object. */
  private static final Object STATE = "namespace lifecycle state";

  /**
   * The state of a namespace object: read once per object the cache holds (the object never
   * changes; a write makes a new one), else read now.
   */
  private NamespaceLifecycle.State stateOf(Object namespace) {
    return (NamespaceLifecycle.State) namespaces.encodedOnce(namespace, STATE, this::readState);
  }

  private NamespaceLifecycle.State readState(Object namespace) {
    if (Accessor.of(namespace).getDeletionTimestamp() != null) {
      return NamespaceLifecycle.State.TERMINATING;
    }
    JsonNode tree = Patches.readTree(json.encode(namespace), "the namespace");
    return tree.path("status").path("phase").asText("").equals("Terminating")
        ? NamespaceLifecycle.State.TERMINATING
        : NamespaceLifecycle.State.ACTIVE;
  }
}
