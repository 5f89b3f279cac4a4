package dev.machinery.cluster.controller.garbagecollector;

import dev.machinery.unversioned.meta.v1.MetaObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The garbage collector's graph of owners and dependents, keyed by uid, kept from the monitors'
 * notifications (Go's {@code GraphBuilder}): each change updates the graph and hands the objects
 * that may now be garbage to {@link Sink#attemptToDelete}, and owners deleted with the {@code
 * orphan} finalizer to {@link Sink#attemptToOrphan}.
 *
 * <p>Owners a dependent names but no monitor has shown yet get virtual nodes, handed to the
 * attempt-to-delete queue so the server is asked whether they exist; the answer comes back as a
 * virtual delete event ({@link #virtualDelete}).
 *
 * <p>Thread-safe: changes are applied one at a time under the builder's lock, in the order they
 * arrive, as Go's single goroutine applies them; {@link #node(String)} may be read from any thread.
 */
final class GraphBuilder {
  /** The finalizer of an owner whose dependents are orphaned before it goes. */
  public static final String FINALIZER_ORPHAN = "orphan";

  /** The finalizer of an owner deleted in the foreground: it goes after its blocking dependents. */
  public static final String FINALIZER_DELETE_DEPENDENTS = "foregroundDeletion";

  /** What the graph builder hands on. Implementations must be thread-safe. */
  public interface Sink {
    /**
     * Queues a node for {@code attemptToDelete}.
     *
     * @param node the node
     */
    void attemptToDelete(Node node);

    /**
     * Queues a node for {@code attemptToDelete} through the rate limiter.
     *
     * @param node the node
     */
    void attemptToDeleteRateLimited(Node node);

    /**
     * Queues an owner for {@code attemptToOrphan}.
     *
     * @param node the owner
     */
    void attemptToOrphan(Node node);

    /**
     * Reports a dependent whose owner reference names an owner in another namespace (event {@code
     * OwnerRefInvalidNamespace}).
     *
     * @param dependent the dependent
     * @param invalidOwner the owner as the reference names it, in the dependent's namespace
     */
    void invalidNamespaceOwnerRef(Identity dependent, Identity invalidOwner);
  }

  /** The kinds of change. */
  public enum EventType {
    /** An object was added. */
    ADD,
    /** An object changed. */
    UPDATE,
    /** An object was deleted. */
    DELETE
  }

  /**
   * A change to apply.
   *
   * @param type the kind of change
   * @param virtual true when no informer saw it: the server said the object does not exist
   * @param object the object (its last state for a deletion)
   * @param oldObject its state before an update, or null
   * @param apiVersion the API version of the monitor that saw it
   * @param kind the kind of the monitor that saw it
   */
  public record Event(
      EventType type,
      boolean virtual,
      MetaObject object,
      MetaObject oldObject,
      String apiVersion,
      String kind) {
    /**
     * Checks for nulls.
     *
     * @param type see the record description
     * @param virtual see the record description
     * @param object see the record description
     * @param oldObject see the record description
     * @param apiVersion see the record description
     * @param kind see the record description
     */
    public Event {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(object, "object");
      Objects.requireNonNull(apiVersion, "apiVersion");
      Objects.requireNonNull(kind, "kind");
    }
  }

  private final Map<String, Node> uidToNode = new ConcurrentHashMap<>();
  private final Sink sink;
  private final ReferenceCache absentOwnerCache;

  /**
   * Makes an empty graph.
   *
   * @param sink where the nodes to look at go
   */
  public GraphBuilder(Sink sink) {
    this(sink, new ReferenceCache(500));
  }

  GraphBuilder(Sink sink, ReferenceCache absentOwnerCache) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.absentOwnerCache = absentOwnerCache;
  }

  ReferenceCache absentOwnerCache() {
    return absentOwnerCache;
  }

  /**
   * Returns the node of a uid.
   *
   * @param uid the uid
   * @return the node, when the graph holds one
   */
  public Optional<Node> node(String uid) {
    return Optional.ofNullable(uidToNode.get(uid));
  }

  /**
   * Returns how many nodes the graph holds.
   *
   * @return the count
   */
  public int size() {
    return uidToNode.size();
  }

  /**
   * Applies the deletion of an object the server says does not exist (by uid or at all).
   *
   * @param identity the object as the worker knew it
   */
  public void virtualDelete(Identity identity) {
    dev.machinery.unversioned.unstructured.Unstructured object =
        new dev.machinery.unversioned.unstructured.Unstructured();
    object.setApiVersion(identity.apiVersion());
    object.setKind(identity.kind());
    object.setName(identity.name());
    if (!identity.namespace().isEmpty()) {
      object.setNamespace(identity.namespace());
    }
    object.setUid(identity.uid());
    process(
        new Event(EventType.DELETE, true, object, null, identity.apiVersion(), identity.kind()));
  }

  private static Identity identityFromEvent(Event event) {
    MetaObject meta = event.object();
    return new Identity(
        event.apiVersion(), event.kind(), meta.getName(), meta.getUid(), meta.getNamespace());
  }

  /**
   * Applies one change to the graph and queues what it makes worth a look.
   *
   * @param event the change
   */
  public synchronized void process(Event event) {
    MetaObject meta = event.object();
    String uid = meta.getUid();
    if (uid == null || uid.isEmpty()) {
      return;
    }
    Node existing = uidToNode.get(uid);
    boolean found = existing != null;
    if (found && !event.virtual() && !existing.isObserved()) {
      // The first informer event for a node made virtual by a dependent's reference.
      Identity observed = identityFromEvent(event);
      if (!observed.equals(existing.identity())) {
        Partition partition = partitionDependents(existing.dependents(), observed);
        for (Node dependent : partition.nonMatching()) {
          if (!observed.namespace().isEmpty()
              && !dependent.identity().namespace().equals(observed.namespace())) {
            reportInvalidNamespaceOwnerRef(dependent, observed.uid());
          }
          sink.attemptToDelete(dependent);
        }
        existing.setIdentity(observed);
      }
      existing.markObserved();
    }
    switch (event.type()) {
      case ADD, UPDATE -> {
        if (!found) {
          boolean deleting = meta.getDeletionTimestamp() != null;
          Node created = new Node(identityFromEvent(event), OwnerRef.of(meta), false);
          if (deleting) {
            created.markBeingDeleted();
            if (hasFinalizer(meta, FINALIZER_DELETE_DEPENDENTS)) {
              created.markDeletingDependents();
            }
          }
          insertNode(created);
          processTransitions(event.oldObject(), meta, created);
        } else {
          if (!event.virtual()
              && (!existing.identity().apiVersion().equals(event.apiVersion())
                  || !existing.identity().kind().equals(event.kind()))) {
            Identity old = existing.identity();
            existing.setIdentity(
                new Identity(
                    event.apiVersion(), event.kind(), old.name(), old.uid(), old.namespace()));
          }
          Diff diff = referencesDiffs(existing.owners(), OwnerRef.of(meta));
          if (!diff.isEmpty()) {
            existing.setOwners(OwnerRef.of(meta));
            addDependentToOwners(existing, diff.added());
            removeDependentFromOwners(existing, diff.removed());
            // Only once the graph shows the new references: a worker taking the owner at once
            // must not find it still blocked, or nothing would queue it again.
            addUnblockedOwnersToDeleteQueue(diff);
          }
          if (meta.getDeletionTimestamp() != null) {
            existing.markBeingDeleted();
          }
          processTransitions(event.oldObject(), meta, existing);
        }
      }
      case DELETE -> {
        if (!found) {
          return;
        }
        processDelete(event, existing);
      }
    }
  }

  private void processDelete(Event event, Node existing) {
    boolean removeExisting = true;
    if (event.virtual()) {
      Identity deleted = identityFromEvent(event);
      if (!existing.isObserved()) {
        Partition partition = partitionDependents(existing.dependents(), deleted);
        if (!partition.nonMatching().isEmpty()) {
          // Some dependents name this uid with other coordinates: keep the virtual node.
          removeExisting = false;
          if (!partition.matching().isEmpty()) {
            absentOwnerCache.add(deleted);
            partition.matching().forEach(sink::attemptToDelete);
          }
          if (existing.identity().equals(deleted)) {
            Identity replacement = alternateOwnerIdentity(partition.nonMatching(), deleted);
            if (replacement != null) {
              existing.setIdentity(replacement);
              sink.attemptToDeleteRateLimited(existing);
            }
          }
        }
      } else if (!existing.identity().equals(deleted)) {
        // An observed object is not removed on a virtual event for other coordinates.
        removeExisting = false;
        Partition partition = partitionDependents(existing.dependents(), deleted);
        if (!partition.matching().isEmpty()) {
          absentOwnerCache.add(deleted);
          partition.matching().forEach(sink::attemptToDelete);
        }
      }
    }
    if (!removeExisting) {
      return;
    }
    removeNode(existing);
    List<Node> dependents = existing.dependents();
    if (!dependents.isEmpty()) {
      absentOwnerCache.add(identityFromEvent(event));
    }
    dependents.forEach(sink::attemptToDelete);
    for (OwnerRef owner : existing.owners()) {
      Node ownerNode = uidToNode.get(owner.uid());
      if (ownerNode != null && ownerNode.isDeletingDependents()) {
        // Its owner may be waiting for this dependent to go.
        sink.attemptToDelete(ownerNode);
      }
    }
  }

  private void insertNode(Node node) {
    uidToNode.put(node.identity().uid(), node);
    addDependentToOwners(node, node.owners());
  }

  private void removeNode(Node node) {
    uidToNode.remove(node.identity().uid(), node);
    removeDependentFromOwners(node, node.owners());
  }

  private void removeDependentFromOwners(Node node, List<OwnerRef> owners) {
    for (OwnerRef owner : owners) {
      Node ownerNode = uidToNode.get(owner.uid());
      if (ownerNode != null) {
        ownerNode.deleteDependent(node);
      }
    }
  }

  /**
   * Adds a node to its owners' dependents, making virtual nodes of owners not seen yet (queued, so
   * that the server is asked); queues the node itself when a reference may be invalid.
   */
  private void addDependentToOwners(Node node, List<OwnerRef> owners) {
    boolean potentiallyInvalid = false;
    String namespace = node.identity().namespace();
    for (OwnerRef owner : owners) {
      Node ownerNode = uidToNode.get(owner.uid());
      boolean known = ownerNode != null;
      if (!known) {
        ownerNode = new Node(Identity.of(owner.coordinates(), namespace), List.of(), true);
        uidToNode.put(owner.uid(), ownerNode);
      }
      ownerNode.addDependent(node);
      if (!known) {
        sink.attemptToDelete(ownerNode);
      } else if (!potentiallyInvalid) {
        Identity ownerIdentity = ownerNode.identity();
        boolean ownerNamespaced = !ownerIdentity.namespace().isEmpty();
        if (ownerNamespaced && !ownerIdentity.namespace().equals(namespace)) {
          if (ownerNode.isObserved()) {
            // A namespaced owner seen in another namespace: certainly wrong.
            reportInvalidNamespaceOwnerRef(node, owner.uid());
          }
          potentiallyInvalid = true;
        } else if (!ownerIdentity.matchesCoordinates(owner)) {
          potentiallyInvalid = true;
        } else if (!ownerNamespaced
            && !ownerIdentity.namespace().equals(namespace)
            && !ownerNode.isObserved()) {
          // A virtual cluster-scoped owner named from a namespace: it may be a namespaced kind a
          // cluster-scoped dependent names by mistake.
          potentiallyInvalid = true;
        }
      }
    }
    if (potentiallyInvalid) {
      sink.attemptToDelete(node);
    }
  }

  private void reportInvalidNamespaceOwnerRef(Node node, String invalidOwnerUid) {
    for (OwnerRef ref : node.owners()) {
      if (ref.uid().equals(invalidOwnerUid)) {
        Identity dependent = node.identity();
        sink.invalidNamespaceOwnerRef(
            dependent, Identity.of(ref.coordinates(), dependent.namespace()));
        return;
      }
    }
  }

  /** When a blocking reference is removed or stops blocking, its owner may now go. */
  private void addUnblockedOwnersToDeleteQueue(Diff diff) {
    for (OwnerRef ref : diff.removed()) {
      if (ref.blocking()) {
        Node owner = uidToNode.get(ref.uid());
        if (owner != null) {
          sink.attemptToDelete(owner);
        }
      }
    }
    for (OwnerRef[] pair : diff.changed()) {
      if (pair[0].blocking() && !pair[1].blocking()) {
        Node owner = uidToNode.get(pair[1].uid());
        if (owner != null) {
          sink.attemptToDelete(owner);
        }
      }
    }
  }

  private void processTransitions(MetaObject oldObject, MetaObject current, Node node) {
    if (deletionStartsWithFinalizer(oldObject, current, FINALIZER_ORPHAN)) {
      sink.attemptToOrphan(node);
      return;
    }
    if (deletionStartsWithFinalizer(oldObject, current, FINALIZER_DELETE_DEPENDENTS)) {
      node.markDeletingDependents();
      node.dependents().forEach(sink::attemptToDelete);
      sink.attemptToDelete(node);
    }
  }

  /**
   * Tells whether an object just started being deleted with a finalizer: it is being deleted and
   * has it now, and before it was not being deleted or did not have it (or nothing was known).
   *
   * @param oldObject the state before, or null
   * @param current the state now
   * @param finalizer the finalizer
   * @return true at the transition
   */
  static boolean deletionStartsWithFinalizer(
      MetaObject oldObject, MetaObject current, String finalizer) {
    if (current.getDeletionTimestamp() == null || !hasFinalizer(current, finalizer)) {
      return false;
    }
    if (oldObject == null) {
      return true;
    }
    return oldObject.getDeletionTimestamp() == null || !hasFinalizer(oldObject, finalizer);
  }

  static boolean hasFinalizer(MetaObject meta, String finalizer) {
    List<String> finalizers = meta.getFinalizers();
    return finalizers != null && finalizers.contains(finalizer);
  }

  /**
   * The difference between two lists of owner references, by uid.
   *
   * @param added references only the new list has
   * @param removed references only the old list has
   * @param changed pairs (old, new) of references to the same uid that differ
   */
  record Diff(List<OwnerRef> added, List<OwnerRef> removed, List<OwnerRef[]> changed) {
    boolean isEmpty() {
      return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
    }
  }

  static Diff referencesDiffs(List<OwnerRef> old, List<OwnerRef> updated) {
    Map<String, OwnerRef> oldByUid = new LinkedHashMap<>();
    for (OwnerRef ref : old) {
      oldByUid.put(ref.uid(), ref);
    }
    List<OwnerRef> added = new ArrayList<>();
    List<OwnerRef[]> changed = new ArrayList<>();
    for (OwnerRef ref : updated) {
      OwnerRef before = oldByUid.remove(ref.uid());
      if (before == null) {
        added.add(ref);
      } else if (!before.equals(ref)) {
        changed.add(new OwnerRef[] {before, ref});
      }
    }
    return new Diff(added, new ArrayList<>(oldByUid.values()), changed);
  }

  /**
   * Dependents split by whether their references to an owner's uid match its coordinates: a
   * dependent can be in both lists when it names the uid twice.
   *
   * @param matching dependents with a matching reference
   * @param nonMatching dependents with a reference to the uid that does not match, or in another
   *     namespace than a namespaced owner
   */
  record Partition(List<Node> matching, List<Node> nonMatching) {}

  static Partition partitionDependents(List<Node> dependents, Identity owner) {
    boolean ownerNamespaced = !owner.namespace().isEmpty();
    List<Node> matching = new ArrayList<>();
    List<Node> nonMatching = new ArrayList<>();
    for (Node dependent : dependents) {
      boolean match = false;
      boolean mismatch = false;
      if (ownerNamespaced && !owner.namespace().equals(dependent.identity().namespace())) {
        mismatch = true;
      } else {
        for (OwnerRef ref : dependent.owners()) {
          if (ref.uid().equals(owner.uid())) {
            if (owner.matchesCoordinates(ref)) {
              match = true;
            } else {
              mismatch = true;
            }
          }
        }
      }
      if (match) {
        matching.add(dependent);
      }
      if (mismatch) {
        nonMatching.add(dependent);
      }
    }
    return new Partition(matching, nonMatching);
  }

  /**
   * Of the other identities dependents give an absent owner's uid, the first that sorts after the
   * absent one (kind, API version, namespace, name, uid), else the first of all; null when there is
   * none.
   *
   * @param dependents the dependents
   * @param absent the identity the server said is absent
   * @return the next identity to try, or null
   */
  static Identity alternateOwnerIdentity(List<Node> dependents, Identity absent) {
    boolean absentClusterScoped = absent.namespace().isEmpty();
    Map<Identity, Boolean> seen = new HashMap<>();
    seen.put(absent, true);
    Identity first = null;
    Identity firstFollowing = null;
    for (Node dependent : dependents) {
      for (OwnerRef ref : dependent.owners()) {
        if (!ref.uid().equals(absent.uid())) {
          continue;
        }
        if (absent.matchesCoordinates(ref)
            && (absentClusterScoped
                || absent.namespace().equals(dependent.identity().namespace()))) {
          continue;
        }
        Identity candidate = Identity.of(ref.coordinates(), dependent.identity().namespace());
        if (absentClusterScoped
            && candidate.apiVersion().equals(absent.apiVersion())
            && candidate.kind().equals(absent.kind())) {
          // That kind is known to be cluster-scoped.
          candidate = candidate.inNamespace("");
        }
        if (seen.putIfAbsent(candidate, true) != null) {
          continue;
        }
        if (first == null || Identity.ORDER.compare(candidate, first) < 0) {
          first = candidate;
        }
        if (Identity.ORDER.compare(absent, candidate) < 0
            && (firstFollowing == null || Identity.ORDER.compare(candidate, firstFollowing) < 0)) {
          firstFollowing = candidate;
        }
      }
    }
    return firstFollowing != null ? firstFollowing : first;
  }
}
