package dev.machinery.cluster.controller.garbagecollector;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An object in the garbage collector's graph: its identity, its owners (as its owner references
 * name them) and its dependents (the nodes whose references name it). A node is virtual while only
 * a dependent's reference vouches for it, until an informer shows the object (or the server says it
 * is absent).
 *
 * <p>Only the graph builder changes a node, under its lock; the workers read it from their own
 * threads, so each field is published safely on its own (as Go's per-field locks), and what two
 * reads return may come from different moments.
 */
final class Node {
  private volatile Identity identity;
  private volatile List<OwnerRef> owners;
  private final Set<Node> dependents = ConcurrentHashMap.newKeySet();
  private volatile boolean deletingDependents;
  private volatile boolean beingDeleted;
  private volatile boolean virtual;

  Node(Identity identity, List<OwnerRef> owners, boolean virtual) {
    this.identity = identity;
    this.owners = List.copyOf(owners);
    this.virtual = virtual;
  }

  Identity identity() {
    return identity;
  }

  void setIdentity(Identity identity) {
    this.identity = identity;
  }

  List<OwnerRef> owners() {
    return owners;
  }

  void setOwners(List<OwnerRef> owners) {
    this.owners = List.copyOf(owners);
  }

  boolean isObserved() {
    return !virtual;
  }

  void markObserved() {
    virtual = false;
  }

  boolean isBeingDeleted() {
    return beingDeleted;
  }

  /** Deletion is a one-way trip: a node never stops being deleted. */
  void markBeingDeleted() {
    beingDeleted = true;
  }

  boolean isDeletingDependents() {
    return deletingDependents;
  }

  void markDeletingDependents() {
    deletingDependents = true;
  }

  void addDependent(Node dependent) {
    dependents.add(dependent);
  }

  void deleteDependent(Node dependent) {
    dependents.remove(dependent);
  }

  int dependentsLength() {
    return dependents.size();
  }

  /** A snapshot: dependents may come and go the moment it returns. */
  List<Node> dependents() {
    return new ArrayList<>(dependents);
  }

  /**
   * The dependents whose reference to this node blocks its deletion ({@code blockOwnerDeletion:
   * true}).
   */
  List<Node> blockingDependents() {
    String uid = identity.uid();
    List<Node> blocking = new ArrayList<>();
    for (Node dependent : dependents) {
      for (OwnerRef ref : dependent.owners()) {
        if (ref.uid().equals(uid) && ref.blocking()) {
          blocking.add(dependent);
          break;
        }
      }
    }
    return blocking;
  }

  @Override
  public String toString() {
    return identity + (virtual ? " (virtual)" : "");
  }
}
