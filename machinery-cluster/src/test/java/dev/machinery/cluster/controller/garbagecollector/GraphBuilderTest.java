package dev.machinery.cluster.controller.garbagecollector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The garbage collector's graph: Kubernetes' TestGetAlternateOwnerIdentity table
 * (graph_builder_test.go) and the graph changes of garbagecollector_test.go (virtual owners,
 * observed owners, deletions, the orphan and foreground transitions, unblocked owners, owner
 * references naming another namespace).
 */
class GraphBuilderTest {
  private static Identity id(String apiVersion, String kind, String ns, String name, String uid) {
    return new Identity(apiVersion, kind, name, uid, ns);
  }

  private static OwnerRef ref(Identity owner) {
    return new OwnerRef(owner.apiVersion(), owner.kind(), owner.name(), owner.uid(), null, null);
  }

  private static Node node(Identity identity, Identity... owners) {
    return new Node(identity, Arrays.stream(owners).map(GraphBuilderTest::ref).toList(), false);
  }

  static Stream<Arguments> alternates() {
    Identity ns1child1 = id("v1", "Child", "ns1", "child1", "childuid11");
    Identity ns1child2 = id("v1", "Child", "ns1", "child2", "childuid12");
    Identity ns2child1 = id("v1", "Child", "ns2", "child1", "childuid21");
    Identity clusterchild1 = id("v1", "Child", "", "child1", "childuidc1");
    Identity nsAbsentNs1 = id("v1", "NSParent", "ns1", "parentname", "parentuid");
    Identity nsAbsentNs2 = id("v1", "NSParent", "ns2", "parentname", "parentuid");
    Identity nsAbsentVersion = id("xx", "NSParent", "ns1", "parentname", "parentuid");
    Identity nsAbsentKind = id("v1", "xxxxxxxx", "ns1", "parentname", "parentuid");
    Identity nsAbsentName = id("v1", "NSParent", "ns1", "xxxxxxxxxx", "parentuid");
    Identity clusterAbsent = id("v1", "ClusterParent", "", "parentname", "parentuid");
    Identity clusterAbsentVersion = id("xx", "ClusterParent", "", "parentname", "parentuid");
    Identity clusterAbsentKind = id("v1", "xxxxxxxxxxxxx", "", "parentname", "parentuid");
    Identity clusterAbsentName = id("v1", "ClusterParent", "", "xxxxxxxxxx", "parentuid");
    Identity clusterAbsentNs1Version = id("xx", "ClusterParent", "ns1", "parentname", "parentuid");
    Identity clusterAbsentNs1Kind = id("v1", "xxxxxxxxxxxxx", "ns1", "parentname", "parentuid");
    List<Identity> orderedNamespaced = new ArrayList<>();
    List<Identity> orderedCluster = new ArrayList<>();
    for (int v = 1; v <= 5; v++) {
      orderedNamespaced.add(id("v" + v, "kind", "ns1", "name", "uid"));
      orderedCluster.add(id("v" + v, "kind", "", "name", "uid"));
    }
    Identity[] namespacedOwners = orderedNamespaced.toArray(new Identity[0]);
    Identity[] clusterOwners = orderedCluster.toArray(new Identity[0]);
    return Stream.of(
        Arguments.of(
            "namespaced alternate version",
            List.of(node(ns1child1, nsAbsentNs1), node(ns1child2, nsAbsentVersion)),
            nsAbsentNs1,
            nsAbsentVersion),
        Arguments.of(
            "namespaced alternate kind",
            List.of(node(ns1child1, nsAbsentNs1), node(ns1child2, nsAbsentKind)),
            nsAbsentNs1,
            nsAbsentKind),
        Arguments.of(
            "namespaced alternate namespace",
            List.of(node(ns1child1, nsAbsentNs1), node(ns2child1, nsAbsentNs2)),
            nsAbsentNs1,
            nsAbsentNs2),
        Arguments.of(
            "namespaced alternate name",
            List.of(node(ns1child1, nsAbsentNs1), node(ns1child1, nsAbsentName)),
            nsAbsentNs1,
            nsAbsentName),
        Arguments.of(
            "cluster alternate version: namespaced to the dependent, the version's scope unknown",
            List.of(node(ns1child1, clusterAbsent), node(ns1child2, clusterAbsentVersion)),
            clusterAbsent,
            clusterAbsentNs1Version),
        Arguments.of(
            "cluster alternate kind: namespaced to the dependent, the kind's scope unknown",
            List.of(node(ns1child1, clusterAbsent), node(ns1child2, clusterAbsentKind)),
            clusterAbsent,
            clusterAbsentNs1Kind),
        Arguments.of(
            "cluster alternate namespace: the kind is cluster-scoped, no alternate",
            List.of(node(ns1child1, clusterAbsent), node(ns2child1, clusterAbsent)),
            clusterAbsent,
            null),
        Arguments.of(
            "cluster alternate name: namespace dropped",
            List.of(node(ns1child1, clusterAbsent), node(ns1child1, clusterAbsentName)),
            clusterAbsent,
            clusterAbsentName),
        Arguments.of(
            "namespaced: the first when the absent one sorts last",
            List.of(node(ns1child1, namespacedOwners)),
            orderedNamespaced.get(4),
            orderedNamespaced.get(0)),
        Arguments.of(
            "namespaced: the next after the absent one",
            List.of(node(ns1child1, namespacedOwners)),
            orderedNamespaced.get(3),
            orderedNamespaced.get(4)),
        Arguments.of(
            "cluster: the first when the absent one sorts last",
            List.of(node(clusterchild1, clusterOwners)),
            orderedCluster.get(4),
            orderedCluster.get(0)),
        Arguments.of(
            "cluster: the next after the absent one",
            List.of(node(clusterchild1, clusterOwners)),
            orderedCluster.get(3),
            orderedCluster.get(4)),
        Arguments.of(
            "ignore unrelated",
            List.of(
                node(ns1child1, clusterAbsent, id("v1", "Parent", "ns1", "name", "anotheruid"))),
            clusterAbsent,
            null),
        Arguments.of(
            "ignore matches",
            List.of(node(ns1child1, clusterAbsent, clusterAbsent)),
            clusterAbsent,
            null),
        Arguments.of(
            "collapse duplicates",
            List.of(node(clusterchild1, clusterAbsent, clusterAbsentKind, clusterAbsentKind)),
            clusterAbsent,
            clusterAbsentKind));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("alternates")
  void alternateOwnerIdentity(
      String name, List<Node> dependents, Identity absent, Identity expected) {
    assertEquals(expected, GraphBuilder.alternateOwnerIdentity(dependents, absent));
  }

  @Test
  void referencesDiffsByUid() {
    OwnerRef a = new OwnerRef("v1", "Pod", "a", "uid-a", null, null);
    OwnerRef b = new OwnerRef("v1", "Pod", "b", "uid-b", null, true);
    OwnerRef bUnblocked = b.withBlockOwnerDeletion(false);
    OwnerRef c = new OwnerRef("v1", "Pod", "c", "uid-c", null, null);
    GraphBuilder.Diff diff = GraphBuilder.referencesDiffs(List.of(a, b), List.of(bUnblocked, c));
    assertEquals(List.of(c), diff.added());
    assertEquals(List.of(a), diff.removed());
    assertEquals(1, diff.changed().size());
    assertEquals(b, diff.changed().get(0)[0]);
    assertEquals(bUnblocked, diff.changed().get(0)[1]);
    assertTrue(GraphBuilder.referencesDiffs(List.of(a, b), List.of(b, a)).isEmpty());
  }

  @Test
  void partitionsDependentsByTheCoordinatesOfTheirReferences() {
    Identity owner = id("v1", "Owner", "ns1", "owner", "owner-uid");
    Node matching = node(id("v1", "Pod", "ns1", "m", "m"), owner);
    Node otherName =
        node(id("v1", "Pod", "ns1", "n", "n"), id("v1", "Owner", "ns1", "x", "owner-uid"));
    Node otherNamespace = node(id("v1", "Pod", "ns2", "o", "o"), owner);
    Node both =
        node(
            id("v1", "Pod", "ns1", "b", "b"),
            owner,
            id("v2", "Owner", "ns1", "owner", "owner-uid"));
    GraphBuilder.Partition partition =
        GraphBuilder.partitionDependents(List.of(matching, otherName, otherNamespace, both), owner);
    assertEquals(List.of(matching, both), partition.matching());
    assertEquals(List.of(otherName, otherNamespace, both), partition.nonMatching());
  }

  @Test
  void deletionStartsWithAFinalizerOnlyAtTheTransition() {
    Unstructured deleting = object("v1", "ConfigMap", "ns", "a", "uid", List.of());
    deleting.setDeletionTimestamp(Instant.EPOCH);
    deleting.setFinalizers(List.of("orphan"));
    Unstructured live = object("v1", "ConfigMap", "ns", "a", "uid", List.of());
    live.setFinalizers(List.of("orphan"));
    assertTrue(GraphBuilder.deletionStartsWithFinalizer(null, deleting, "orphan"));
    assertTrue(GraphBuilder.deletionStartsWithFinalizer(live, deleting, "orphan"));
    assertFalse(GraphBuilder.deletionStartsWithFinalizer(deleting, deleting, "orphan"));
    assertFalse(GraphBuilder.deletionStartsWithFinalizer(null, deleting, "foregroundDeletion"));
    assertFalse(GraphBuilder.deletionStartsWithFinalizer(null, live, "orphan"));
  }

  /** Records what the graph hands on. */
  private static final class Recorder implements GraphBuilder.Sink {
    final List<String> calls = new ArrayList<>();

    @Override
    public void attemptToDelete(Node node) {
      calls.add("delete " + node.identity().name());
    }

    @Override
    public void attemptToDeleteRateLimited(Node node) {
      calls.add("delete-rate-limited " + node.identity().name());
    }

    @Override
    public void attemptToOrphan(Node node) {
      calls.add("orphan " + node.identity().name());
    }

    @Override
    public void invalidNamespaceOwnerRef(Identity dependent, Identity invalidOwner) {
      calls.add("invalid " + dependent.name() + " -> " + invalidOwner);
    }
  }

  private static Unstructured object(
      String apiVersion, String kind, String ns, String name, String uid, List<OwnerRef> owners) {
    Unstructured object = new Unstructured();
    object.setApiVersion(apiVersion);
    object.setKind(kind);
    if (!ns.isEmpty()) {
      object.setNamespace(ns);
    }
    object.setName(name);
    object.setUid(uid);
    List<OwnerReference> refs = new ArrayList<>();
    for (OwnerRef owner : owners) {
      OwnerReference ref = new OwnerReference();
      ref.setApiVersion(owner.apiVersion());
      ref.setKind(owner.kind());
      ref.setName(owner.name());
      ref.setUid(owner.uid());
      ref.setBlockOwnerDeletion(owner.blockOwnerDeletion());
      refs.add(ref);
    }
    if (!refs.isEmpty()) {
      object.setOwnerReferences(refs);
    }
    return object;
  }

  private static GraphBuilder.Event add(Unstructured object) {
    return new GraphBuilder.Event(
        GraphBuilder.EventType.ADD, false, object, null, object.getApiVersion(), object.getKind());
  }

  private static GraphBuilder.Event update(Unstructured old, Unstructured object) {
    return new GraphBuilder.Event(
        GraphBuilder.EventType.UPDATE,
        false,
        object,
        old,
        object.getApiVersion(),
        object.getKind());
  }

  private static GraphBuilder.Event delete(Unstructured object) {
    return new GraphBuilder.Event(
        GraphBuilder.EventType.DELETE,
        false,
        object,
        null,
        object.getApiVersion(),
        object.getKind());
  }

  @Test
  void aDependentMakesAVirtualOwnerThatAnInformerLaterObserves() {
    Recorder sink = new Recorder();
    GraphBuilder graph = new GraphBuilder(sink);
    OwnerRef owner = new OwnerRef("v1", "ReplicationController", "rc", "rc-uid", true, true);
    graph.process(add(object("v1", "Pod", "ns", "pod", "pod-uid", List.of(owner))));
    Node virtual = graph.node("rc-uid").orElseThrow();
    assertFalse(virtual.isObserved());
    assertEquals(id("v1", "ReplicationController", "ns", "rc", "rc-uid"), virtual.identity());
    assertEquals(List.of("delete rc"), sink.calls, "the virtual owner is checked at the server");

    graph.process(add(object("v1", "ReplicationController", "ns", "rc", "rc-uid", List.of())));
    assertTrue(graph.node("rc-uid").orElseThrow().isObserved());
    assertEquals(1, graph.node("rc-uid").orElseThrow().dependentsLength());
    assertEquals(
        List.of("pod"),
        graph.node("rc-uid").orElseThrow().blockingDependents().stream()
            .map(n -> n.identity().name())
            .collect(Collectors.toList()));
  }

  @Test
  void deletingAnOwnerQueuesItsDependentsAndRemembersItAbsent() {
    Recorder sink = new Recorder();
    GraphBuilder graph = new GraphBuilder(sink);
    Unstructured rc = object("v1", "ReplicationController", "ns", "rc", "rc-uid", List.of());
    graph.process(add(rc));
    OwnerRef owner = new OwnerRef("v1", "ReplicationController", "rc", "rc-uid", true, null);
    graph.process(add(object("v1", "Pod", "ns", "pod-1", "p1", List.of(owner))));
    graph.process(add(object("v1", "Pod", "ns", "pod-2", "p2", List.of(owner))));
    assertEquals(List.of(), sink.calls);
    graph.process(delete(rc));
    assertTrue(graph.node("rc-uid").isEmpty());
    assertEquals(List.of("delete pod-1", "delete pod-2"), sink.calls.stream().sorted().toList());
    assertTrue(
        graph.absentOwnerCache().has(id("v1", "ReplicationController", "ns", "rc", "rc-uid")));
  }

  @Test
  void orphanAndForegroundTransitions() {
    Recorder sink = new Recorder();
    GraphBuilder graph = new GraphBuilder(sink);
    Unstructured orphaned = object("v1", "ConfigMap", "ns", "orphaned", "o-uid", List.of());
    graph.process(add(orphaned));
    Unstructured orphaning = object("v1", "ConfigMap", "ns", "orphaned", "o-uid", List.of());
    orphaning.setDeletionTimestamp(Instant.EPOCH);
    orphaning.setFinalizers(List.of("orphan"));
    graph.process(update(orphaned, orphaning));
    assertEquals(List.of("orphan orphaned"), sink.calls);
    graph.process(update(orphaning, orphaning));
    assertEquals(List.of("orphan orphaned"), sink.calls, "only the transition counts");

    sink.calls.clear();
    Unstructured owner = object("v1", "ConfigMap", "ns", "owner", "f-uid", List.of());
    graph.process(add(owner));
    OwnerRef blocking = new OwnerRef("v1", "ConfigMap", "owner", "f-uid", true, true);
    graph.process(add(object("v1", "ConfigMap", "ns", "dep", "d-uid", List.of(blocking))));
    Unstructured foreground = object("v1", "ConfigMap", "ns", "owner", "f-uid", List.of());
    foreground.setDeletionTimestamp(Instant.EPOCH);
    foreground.setFinalizers(List.of("foregroundDeletion"));
    graph.process(update(owner, foreground));
    Node ownerNode = graph.node("f-uid").orElseThrow();
    assertTrue(ownerNode.isDeletingDependents());
    assertTrue(ownerNode.isBeingDeleted());
    assertEquals(List.of("delete dep", "delete owner"), sink.calls);

    sink.calls.clear();
    Unstructured dependent = object("v1", "ConfigMap", "ns", "dep", "d-uid", List.of(blocking));
    graph.process(update(dependent, object("v1", "ConfigMap", "ns", "dep", "d-uid", List.of())));
    assertEquals(List.of("delete owner"), sink.calls, "a removed blocking reference unblocks");
    assertEquals(0, ownerNode.dependentsLength());
  }

  @Test
  void anOwnerQueuedAsUnblockedIsNoLongerBlockedInTheGraph() {
    // A worker may take the owner the moment it is queued: it must not find the dependent still
    // blocking it (a dependency circle then waited for ever).
    List<String> blockingWhenQueued = new ArrayList<>();
    Recorder recorder = new Recorder();
    GraphBuilder.Sink sink =
        new GraphBuilder.Sink() {
          @Override
          public void attemptToDelete(Node node) {
            blockingWhenQueued.add(
                node.identity().name()
                    + " blocked by "
                    + node.blockingDependents().stream()
                        .map(n -> n.identity().name())
                        .sorted()
                        .toList());
          }

          @Override
          public void attemptToDeleteRateLimited(Node node) {
            recorder.attemptToDeleteRateLimited(node);
          }

          @Override
          public void attemptToOrphan(Node node) {
            recorder.attemptToOrphan(node);
          }

          @Override
          public void invalidNamespaceOwnerRef(Identity dependent, Identity invalidOwner) {
            recorder.invalidNamespaceOwnerRef(dependent, invalidOwner);
          }
        };
    GraphBuilder graph = new GraphBuilder(sink);
    graph.process(add(object("v1", "Pod", "ns", "owner", "o-uid", List.of())));
    OwnerRef blocking = new OwnerRef("v1", "Pod", "owner", "o-uid", true, true);
    OwnerRef nonBlocking = new OwnerRef("v1", "Pod", "owner", "o-uid", true, false);
    Unstructured before = object("v1", "Pod", "ns", "dep", "d-uid", List.of(blocking));
    graph.process(add(before));
    blockingWhenQueued.clear();
    graph.process(update(before, object("v1", "Pod", "ns", "dep", "d-uid", List.of(nonBlocking))));
    assertEquals(List.of("owner blocked by []"), blockingWhenQueued);
  }

  @Test
  void aNamespacedOwnerSeenInAnotherNamespaceIsReported() {
    Recorder sink = new Recorder();
    GraphBuilder graph = new GraphBuilder(sink);
    graph.process(add(object("v1", "ConfigMap", "a", "owner", "owner-uid", List.of())));
    OwnerRef owner = new OwnerRef("v1", "ConfigMap", "owner", "owner-uid", null, null);
    graph.process(add(object("v1", "ConfigMap", "b", "dependent", "dep-uid", List.of(owner))));
    assertEquals(
        List.of(
            "invalid dependent -> [v1/ConfigMap, namespace: b, name: owner, uid: owner-uid]",
            "delete dependent"),
        sink.calls);
  }

  @Test
  void aVirtualDeleteOfAVirtualOwnerRemovesItAndQueuesItsDependents() {
    Recorder sink = new Recorder();
    GraphBuilder graph = new GraphBuilder(sink);
    OwnerRef owner = new OwnerRef("v1", "ConfigMap", "gone", "gone-uid", null, null);
    graph.process(add(object("v1", "ConfigMap", "ns", "dependent", "dep-uid", List.of(owner))));
    sink.calls.clear();
    graph.virtualDelete(id("v1", "ConfigMap", "ns", "gone", "gone-uid"));
    assertTrue(graph.node("gone-uid").isEmpty());
    assertEquals(List.of("delete dependent"), sink.calls);
    assertNull(graph.node("gone-uid").orElse(null));
    assertEquals(1, graph.size());
  }
}
