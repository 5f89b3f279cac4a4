package dev.machinery.unversioned.meta.v1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.testapi.Thing;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Conditions (Kubernetes' conditions_test facts), controller references, finalizers, accessor. */
class MetaHelpersTest {
  private static final Instant NOW = Instant.parse("2024-05-01T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final Time BEFORE = new Time(NOW.minusSeconds(3600));
  private static final Time AFTER = new Time(NOW.plusSeconds(3600));

  private static Condition condition(
      String type, String status, Time time, String reason, String message, long generation) {
    Condition condition = new Condition(type, status, reason, message);
    condition.setLastTransitionTime(time);
    condition.setObservedGeneration(generation);
    return condition;
  }

  private static Condition bare(String type, String status) {
    return condition(type, status, null, null, null, 0);
  }

  @Test
  void setAddsAType() {
    List<Condition> conditions = new ArrayList<>(List.of(bare("first", null), bare("third", null)));
    Condition second = condition("second", "True", BEFORE, "reason", "message", 0);
    assertTrue(Conditions.set(conditions, second, CLOCK));
    assertEquals(List.of(bare("first", null), bare("third", null), second), conditions);
    Condition fresh = bare("fourth", "True");
    assertTrue(Conditions.set(conditions, fresh, CLOCK));
    assertEquals(
        new Time(NOW), Conditions.find(conditions, "fourth").orElseThrow().getLastTransitionTime());
  }

  @Test
  void aStatusChangeMovesTheTransitionTime() {
    List<Condition> conditions =
        new ArrayList<>(List.of(bare("first", null), bare("second", "False"), bare("third", null)));
    assertTrue(
        Conditions.set(
            conditions, condition("second", "True", BEFORE, "reason", "message", 0), CLOCK));
    assertEquals(condition("second", "True", BEFORE, "reason", "message", 0), conditions.get(1));
    assertTrue(Conditions.set(conditions, bare("second", "False"), CLOCK));
    assertEquals(new Time(NOW), conditions.get(1).getLastTransitionTime());
  }

  @Test
  void otherChangesKeepTheTransitionTime() {
    List<Condition> conditions =
        new ArrayList<>(
            List.of(
                bare("first", null),
                condition("second", "True", BEFORE, null, null, 0),
                bare("third", null)));
    assertTrue(
        Conditions.set(
            conditions, condition("second", "True", AFTER, "reason", "message", 3), CLOCK));
    assertEquals(condition("second", "True", BEFORE, "reason", "message", 3), conditions.get(1));
    List<Condition> same =
        new ArrayList<>(List.of(condition("type", "True", BEFORE, null, null, 0)));
    assertFalse(Conditions.set(same, condition("type", "True", BEFORE, null, null, 0), CLOCK));
    assertEquals(List.of(condition("type", "True", BEFORE, null, null, 0)), same);
  }

  @Test
  void findRemoveAndCheck() {
    List<Condition> conditions =
        new ArrayList<>(List.of(bare("Ready", "True"), bare("Stalled", "False")));
    assertTrue(Conditions.isTrue(conditions, "Ready"));
    assertTrue(Conditions.isFalse(conditions, "Stalled"));
    assertFalse(Conditions.isTrue(conditions, "Missing"));
    assertFalse(Conditions.isFalse(null, "Ready"));
    assertTrue(Conditions.remove(conditions, "Ready"));
    assertFalse(Conditions.remove(conditions, "Ready"));
    assertEquals(List.of(bare("Stalled", "False")), conditions);
  }

  @Test
  void controllerReferences() {
    ObjectMeta owner = new ObjectMeta();
    owner.setName("web-5d9");
    owner.setUid("u-1");
    OwnerReference reference =
        OwnerReferences.newControllerRef(owner, GroupVersionKind.of("apps", "v1", "ReplicaSet"));
    assertEquals("apps/v1", reference.getApiVersion());
    assertEquals(Boolean.TRUE, reference.getController());
    assertEquals(Boolean.TRUE, reference.getBlockOwnerDeletion());
    ObjectMeta pod = new ObjectMeta();
    OwnerReference other = new OwnerReference();
    other.setUid("u-0");
    pod.setOwnerReferences(List.of(other, reference));
    assertEquals(reference, OwnerReferences.controllerOf(pod).orElseThrow());
    assertTrue(OwnerReferences.isControlledBy(pod, owner));
    ObjectMeta stranger = new ObjectMeta();
    stranger.setUid("u-2");
    assertFalse(OwnerReferences.isControlledBy(pod, stranger));
    assertTrue(OwnerReferences.controllerOf(new ObjectMeta()).isEmpty());
  }

  @Test
  void finalizersOnTypedAndUnstructuredAlike() {
    for (MetaObject meta : List.<MetaObject>of(new ObjectMeta(), new Unstructured())) {
      assertTrue(Finalizers.add(meta, "example.com/cleanup"));
      assertFalse(Finalizers.add(meta, "example.com/cleanup"));
      assertTrue(Finalizers.add(meta, "example.com/other"));
      assertEquals(List.of("example.com/cleanup", "example.com/other"), meta.getFinalizers());
      assertTrue(Finalizers.remove(meta, "example.com/cleanup"));
      assertFalse(Finalizers.contains(meta, "example.com/cleanup"));
      assertTrue(Finalizers.remove(meta, "example.com/other"));
      assertNull(meta.getFinalizers());
    }
  }

  @Test
  void oneAccessorForTypedPartialAndUnstructuredObjects() {
    Thing thing = new Thing();
    MetaObject typed = Accessor.of(thing);
    typed.setName("a");
    assertEquals("a", thing.getMetadata().getName());
    PartialObjectMetadata partial = new PartialObjectMetadata();
    Accessor.of(partial).setNamespace("ns");
    assertEquals("ns", partial.getMetadata().getNamespace());
    Unstructured unstructured = new Unstructured(Map.of("apiVersion", "v1", "kind", "Pod"));
    MetaObject loose = Accessor.of(unstructured);
    assertSame(unstructured, loose);
    loose.setCreationTimestamp(NOW);
    loose.setGeneration(4);
    OwnerReference reference = new OwnerReference();
    reference.setApiVersion("v1");
    reference.setKind("Node");
    reference.setName("n");
    reference.setUid("u");
    loose.setOwnerReferences(List.of(reference));
    assertEquals(NOW, loose.getCreationTimestamp());
    assertEquals(4, loose.getGeneration());
    assertEquals(List.of(reference), loose.getOwnerReferences());
    assertEquals(
        "2024-05-01T12:00:00Z",
        unstructured.nestedString("metadata", "creationTimestamp").orElseThrow());
    loose.setDeletionTimestamp(null);
    assertTrue(unstructured.nested("metadata", "deletionTimestamp").isEmpty());
    MetadataAccessException none =
        assertThrows(MetadataAccessException.class, () -> Accessor.of("text"));
    assertTrue(none.getMessage().contains("java.lang.String"), none.getMessage());
  }
}
