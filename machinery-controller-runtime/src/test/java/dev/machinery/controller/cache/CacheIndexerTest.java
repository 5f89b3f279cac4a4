package dev.machinery.controller.cache;

import static dev.machinery.controller.cache.Objects2.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** client-go's index_test and store_test, carried over, and the listers. */
class CacheIndexerTest {
  private static Unstructured withLabel(String name, String foo) {
    Unstructured pod = pod(null, name, "1");
    pod.setLabels(Map.of("foo", foo));
    return pod;
  }

  private static Unstructured withUsers(String name, String users) {
    Unstructured pod = pod(null, name, "1");
    pod.setAnnotations(Map.of("users", users));
    return pod;
  }

  private static final IndexFunc<Unstructured> BY_USER =
      o -> Arrays.asList(o.getAnnotations().get("users").split(","));

  private static Set<String> names(List<Unstructured> objects) {
    return objects.stream().map(Unstructured::getName).collect(Collectors.toSet());
  }

  @Test
  void getIndexFuncValues() {
    CacheIndexer<Unstructured> index =
        new CacheIndexer<>(Map.of("testmodes", o -> List.of(o.getLabels().get("foo"))));
    index.add(withLabel("one", "bar"));
    index.add(withLabel("two", "bar"));
    index.add(withLabel("tre", "biz"));
    assertEquals(Set.of("bar", "biz"), new HashSet<>(index.listIndexFuncValues("testmodes")));
  }

  @Test
  void multiIndexKeys() {
    CacheIndexer<Unstructured> index = new CacheIndexer<>(Map.of("byUser", BY_USER));
    Unstructured one = withUsers("one", "ernie,bert");
    Unstructured two = withUsers("two", "bert,oscar");
    Unstructured tre = withUsers("tre", "ernie,elmo");
    index.add(one);
    index.add(two);
    index.add(tre);
    assertEquals(Set.of("one", "tre"), names(index.byIndex("byUser", "ernie")));
    assertEquals(Set.of("one", "two"), names(index.byIndex("byUser", "bert")));
    assertEquals(Set.of("tre"), names(index.byIndex("byUser", "elmo")));
    assertEquals(Set.of("two"), names(index.byIndex("byUser", "oscar")));
    assertEquals(Set.of(), names(index.byIndex("byUser", "elmo1")));

    index.delete(tre);
    assertEquals(Set.of("one"), names(index.byIndex("byUser", "ernie")));
    assertEquals(Set.of(), names(index.byIndex("byUser", "elmo")));

    index.update(withUsers("two", "oscar"));
    assertEquals(Set.of("one"), names(index.byIndex("byUser", "bert")));
    assertEquals(List.of("two"), index.indexKeys("byUser", "oscar"));
    assertEquals(Set.of("one", "two"), names(index.index("byUser", withUsers("x", "bert,oscar"))));
  }

  @Test
  void storeBasics() {
    CacheIndexer<Unstructured> store = new CacheIndexer<>(CacheIndexer.namespaceIndexers());
    store.add(pod("ns1", "a", "1"));
    store.add(pod("ns2", "a", "1"));
    store.add(pod(null, "cluster", "1"));
    assertEquals(Set.of("ns1/a", "ns2/a", "cluster"), new HashSet<>(store.listKeys()));
    store.update(pod("ns1", "a", "2"));
    assertEquals("2", store.getByKey("ns1/a").orElseThrow().getResourceVersion());
    assertEquals(Set.of("ns1", "ns2", ""), new HashSet<>(store.listIndexFuncValues("namespace")));
    store.delete(pod("ns2", "a", "3"));
    assertTrue(store.getByKey("ns2/a").isEmpty());
    assertEquals(List.of(), store.indexKeys("namespace", "ns2"));

    store.replace(List.of(pod("ns3", "b", "9")), "9");
    assertEquals(List.of("ns3/b"), store.listKeys());
    assertEquals(List.of("ns3/b"), store.indexKeys("namespace", "ns3"));
    assertEquals(List.of(), store.indexKeys("namespace", "ns1"));
  }

  @Test
  void unknownIndexAndConflictingIndexersAreRefused() {
    CacheIndexer<Unstructured> store = new CacheIndexer<>(CacheIndexer.namespaceIndexers());
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> store.byIndex("nope", "x"));
    assertTrue(unknown.getMessage().contains("nope"));
    IllegalArgumentException conflict =
        assertThrows(
            IllegalArgumentException.class,
            () -> store.addIndexers(Map.of("namespace", CacheIndexer.namespaceIndexFunc())));
    assertTrue(conflict.getMessage().contains("namespace"));
  }

  @Test
  void addedIndexersIndexWhatIsHeld() {
    CacheIndexer<Unstructured> store = new CacheIndexer<>(Map.of());
    store.add(withUsers("one", "ernie"));
    store.addIndexers(Map.of("byUser", BY_USER));
    assertEquals(List.of("one"), store.indexKeys("byUser", "ernie"));
  }

  @Test
  void keysSplitAndJoin() {
    assertEquals("ns/a", Keys.metaNamespaceKey(pod("ns", "a", "1")));
    assertEquals("a", Keys.metaNamespaceKey(pod(null, "a", "1")));
    assertEquals(List.of("ns", "a"), List.of(Keys.split("ns/a")));
    assertEquals(List.of("", "a"), List.of(Keys.split("a")));
    assertThrows(IllegalArgumentException.class, () -> Keys.split("a/b/c"));
    assertThrows(IllegalArgumentException.class, () -> Keys.metaNamespaceKey(new Unstructured()));
  }

  @Test
  void listersReadByNamespaceAndLabels() {
    CacheIndexer<Unstructured> store = new CacheIndexer<>(CacheIndexer.namespaceIndexers());
    store.add(Objects2.labelled(pod("ns1", "a", "1"), Map.of("app", "web")));
    store.add(Objects2.labelled(pod("ns1", "b", "1"), Map.of("app", "db")));
    store.add(Objects2.labelled(pod("ns2", "c", "1"), Map.of("app", "web")));
    Lister<Unstructured> lister = new Lister<>(store);
    assertEquals(3, lister.list(Selector.everything()).size());
    assertEquals(Set.of("a", "c"), names(lister.list(Selector.parse("app=web"))));
    assertEquals(Set.of("a", "b"), names(lister.namespace("ns1").list(Selector.everything())));
    assertEquals(Set.of("a"), names(lister.namespace("ns1").list(Selector.parse("app=web"))));
    assertEquals("b", lister.namespace("ns1").get("b").orElseThrow().getName());
    assertTrue(lister.namespace("ns2").get("b").isEmpty());
  }
}
