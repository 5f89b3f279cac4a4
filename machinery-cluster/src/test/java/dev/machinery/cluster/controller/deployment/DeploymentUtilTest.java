package dev.machinery.cluster.controller.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.api.apps.v1.Deployment;
import dev.machinery.api.apps.v1.DeploymentCondition;
import dev.machinery.api.apps.v1.DeploymentSpec;
import dev.machinery.api.apps.v1.DeploymentStatus;
import dev.machinery.api.apps.v1.DeploymentStrategy;
import dev.machinery.api.apps.v1.ReplicaSet;
import dev.machinery.api.apps.v1.ReplicaSetSpec;
import dev.machinery.api.apps.v1.ReplicaSetStatus;
import dev.machinery.api.apps.v1.RollingUpdateDeployment;
import dev.machinery.api.core.v1.Container;
import dev.machinery.api.core.v1.PodSpec;
import dev.machinery.api.core.v1.PodTemplateSpec;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Time;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Kubernetes' deployment_util_test.go tables, carried over. */
class DeploymentUtilTest {
  static Deployment deployment(int replicas, IntOrString maxSurge, IntOrString maxUnavailable) {
    Deployment d = new Deployment();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("nginx");
    meta.setNamespace("default");
    meta.setAnnotations(new HashMap<>());
    d.setMetadata(meta);
    DeploymentSpec spec = new DeploymentSpec();
    spec.setReplicas(replicas);
    DeploymentStrategy strategy = new DeploymentStrategy();
    strategy.setType("RollingUpdate");
    RollingUpdateDeployment rolling = new RollingUpdateDeployment();
    rolling.setMaxSurge(maxSurge);
    rolling.setMaxUnavailable(maxUnavailable);
    strategy.setRollingUpdate(rolling);
    spec.setStrategy(strategy);
    spec.setTemplate(template("nginx:1"));
    d.setSpec(spec);
    d.setStatus(new DeploymentStatus());
    return d;
  }

  static Deployment recreate(Integer replicas) {
    Deployment d = deployment(1, null, null);
    d.getSpec().setReplicas(replicas);
    DeploymentStrategy strategy = new DeploymentStrategy();
    strategy.setType("Recreate");
    d.getSpec().setStrategy(strategy);
    return d;
  }

  static PodTemplateSpec template(String image) {
    PodTemplateSpec template = new PodTemplateSpec();
    ObjectMeta meta = new ObjectMeta();
    meta.setLabels(new LinkedHashMap<>(Map.of("app", "nginx")));
    template.setMetadata(meta);
    Container container = new Container();
    container.setName("nginx");
    container.setImage(image);
    PodSpec spec = new PodSpec();
    spec.setContainers(List.of(container));
    template.setSpec(spec);
    return template;
  }

  static ReplicaSet rs(int replicas, Map<String, String> annotations) {
    ReplicaSet rs = new ReplicaSet();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("nginx-rs");
    meta.setAnnotations(annotations == null ? null : new HashMap<>(annotations));
    rs.setMetadata(meta);
    ReplicaSetSpec spec = new ReplicaSetSpec();
    spec.setReplicas(replicas);
    spec.setTemplate(template("nginx:1"));
    rs.setSpec(spec);
    rs.setStatus(new ReplicaSetStatus());
    return rs;
  }

  private static IntOrString str(String s) {
    return s == null ? null : IntOrString.ofString(s);
  }

  @ParameterizedTest(name = "surge {0}, unavailable {1}, desired {2}")
  @CsvSource(
      nullValues = "nil",
      value = {
        "0%, 0%, 0, 0, 1",
        "39%, 39%, 10, 4, 3",
        "nil, 39%, 10, 0, 3",
        "39%, nil, 10, 4, 0",
        "nil, nil, 10, 0, 1",
      })
  void resolveFenceposts(String surge, String unavailable, int desired, int expSurge, int expUnav) {
    int[] resolved = DeploymentUtil.resolveFenceposts(str(surge), str(unavailable), desired);
    assertEquals(expSurge, resolved[0]);
    assertEquals(expUnav, resolved[1]);
  }

  @Test
  void resolveFencepostsRefusesWhatIsNotAPercentage() {
    assertThrows(
        IllegalArgumentException.class,
        () -> DeploymentUtil.resolveFenceposts(str("oops"), str("39%"), 10));
    assertThrows(
        IllegalArgumentException.class,
        () -> DeploymentUtil.resolveFenceposts(str("55%"), str("urg"), 10));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "can not scale up - to newRSReplicas, RollingUpdate, 1, 5, 1, 5",
    "scale up - to depReplicas, RollingUpdate, 6, 2, 10, 6",
    "recreate - to depReplicas, Recreate, 3, 1, 1, 3",
  })
  void newRsNewReplicas(
      String name, String type, int depReplicas, int newRsReplicas, int maxSurge, int expected) {
    Deployment d = deployment(depReplicas, IntOrString.ofInt(maxSurge), IntOrString.ofInt(1));
    d.getSpec().getStrategy().setType(type);
    ReplicaSet rs5 = rs(5, null);
    ReplicaSet newRs = rs(newRsReplicas, null);
    assertEquals(expected, DeploymentUtil.newRsNewReplicas(d, List.of(rs5), newRs));
  }

  static DeploymentCondition cond(String type, String status, String reason) {
    DeploymentCondition c = new DeploymentCondition();
    c.setType(type);
    c.setStatus(status);
    c.setReason(reason);
    return c;
  }

  @Test
  void conditionsAreSetOverwrittenAndRemoved() {
    DeploymentStatus status = new DeploymentStatus();
    DeploymentUtil.setCondition(status, cond("Available", "True", "AwesomeController"));
    assertEquals(1, status.getConditions().size());
    status = new DeploymentStatus();
    status.setConditions(List.of(cond("Progressing", "False", "ForSomeReason")));
    DeploymentUtil.setCondition(status, cond("Available", "True", "AwesomeController"));
    assertEquals(
        List.of(
            cond("Progressing", "False", "ForSomeReason"),
            cond("Available", "True", "AwesomeController")),
        status.getConditions());
    status.setConditions(List.of(cond("Progressing", "False", "ForSomeReason")));
    DeploymentUtil.setCondition(status, cond("Progressing", "True", "BecauseItIs"));
    assertEquals(List.of(cond("Progressing", "True", "BecauseItIs")), status.getConditions());
    assertNull(DeploymentUtil.condition(status, "ReplicaFailure"));

    DeploymentUtil.removeCondition(status, "Progressing");
    assertNull(status.getConditions());
    DeploymentStatus empty = new DeploymentStatus();
    DeploymentUtil.removeCondition(empty, "Progressing");
    assertNull(empty.getConditions());
  }

  @Test
  void aConditionOfTheSameStatusKeepsItsTransitionTime() {
    DeploymentStatus status = new DeploymentStatus();
    DeploymentCondition first = cond("Progressing", "True", "NewReplicaSetCreated");
    first.setLastTransitionTime(new Time(Instant.parse("2016-01-01T00:00:00Z")));
    status.setConditions(List.of(first));
    DeploymentCondition next = cond("Progressing", "True", "ReplicaSetUpdated");
    next.setLastTransitionTime(new Time(Instant.parse("2016-01-01T00:05:00Z")));
    DeploymentUtil.setCondition(status, next);
    assertEquals(
        Instant.parse("2016-01-01T00:00:00Z"),
        status.getConditions().get(0).getLastTransitionTime().instant());
    assertEquals("ReplicaSetUpdated", status.getConditions().get(0).getReason());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "not complete: min but not all pods become available, 5, 5, 5, 4, 1, 0, false",
    "not complete: min availability is not honored, 5, 5, 5, 3, 1, 0, false",
    "complete, 5, 5, 5, 5, 0, 0, true",
    "not complete: all pods are available but not updated, 5, 5, 4, 5, 0, 0, false",
    "not complete: still running old pods, 1, 2, 1, 1, 0, 1, false",
    "not complete: one replica deployment never comes up, 1, 1, 1, 0, 1, 1, false",
  })
  void deploymentComplete(
      String name,
      int desired,
      int current,
      int updated,
      int available,
      int maxUnavailable,
      int maxSurge,
      boolean expected) {
    Deployment d =
        deployment(desired, IntOrString.ofInt(maxSurge), IntOrString.ofInt(maxUnavailable));
    d.getStatus().setReplicas(current);
    d.getStatus().setUpdatedReplicas(updated);
    d.getStatus().setAvailableReplicas(available);
    assertEquals(expected, DeploymentUtil.deploymentComplete(d, d.getStatus()));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "progressing: updated pods, 10, 4, 4, 4, 10, 6, 4, 4, true",
    "not progressing, 10, 4, 4, 4, 10, 4, 4, 4, false",
    "progressing: old pods removed, 10, 4, 6, 6, 8, 4, 6, 6, true",
    "not progressing: less new pods, 10, 7, 3, 3, 10, 6, 3, 3, false",
    "progressing: less overall but more new pods, 10, 4, 7, 7, 8, 8, 5, 5, true",
    "progressing: more ready pods, 10, 10, 9, 8, 10, 10, 10, 8, true",
    "progressing: more available pods, 10, 10, 10, 9, 10, 10, 10, 10, true",
  })
  void deploymentProgressing(
      String name,
      int current,
      int updated,
      int ready,
      int available,
      int newCurrent,
      int newUpdated,
      int newReady,
      int newAvailable,
      boolean expected) {
    Deployment d = deployment(10, null, null);
    d.getStatus().setReplicas(current);
    d.getStatus().setUpdatedReplicas(updated);
    d.getStatus().setReadyReplicas(ready);
    d.getStatus().setAvailableReplicas(available);
    DeploymentStatus status = new DeploymentStatus();
    status.setReplicas(newCurrent);
    status.setUpdatedReplicas(newUpdated);
    status.setReadyReplicas(newReady);
    status.setAvailableReplicas(newAvailable);
    assertEquals(expected, DeploymentUtil.deploymentProgressing(d, status));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "nil",
      value = {
        "nil progressDeadlineSeconds specified - no timeout, '', nil, 2016-01-01T00:01:09Z, 2016-01-01T00:01:20Z, false",
        "infinite progressDeadlineSeconds specified - no timeout, '', 2147483647, 2016-01-01T00:01:09Z, 2016-01-01T00:01:20Z, false",
        "progressDeadlineSeconds: 10s and 11s passed, '', 10, 2016-01-01T00:01:09Z, 2016-01-01T00:01:20Z, true",
        "progressDeadlineSeconds: 10s and 9s passed, '', 10, 2016-01-01T00:01:11Z, 2016-01-01T00:01:20Z, false",
        "previous status was a complete deployment, NewReplicaSetAvailable, nil, 0001-01-01T00:00:00Z, 2016-01-01T00:01:20Z, false",
      })
  void deploymentTimedOut(
      String name, String reason, Integer deadline, String from, String now, boolean expected) {
    Deployment d = deployment(1, null, null);
    d.getSpec().setProgressDeadlineSeconds(deadline);
    DeploymentCondition c = cond("Progressing", "True", reason);
    c.setLastUpdateTime(new Time(Instant.parse(from)));
    d.getStatus().setConditions(List.of(c));
    assertEquals(expected, DeploymentUtil.deploymentTimedOut(d, d.getStatus(), Instant.parse(now)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "maxUnavailable less than replicas, 10, 5, 5, 5",
    "maxUnavailable equal replicas, 10, 10, 10, 0",
    "maxUnavailable greater than replicas, 5, 10, 5, 0",
    "maxUnavailable with replicas is 0, 0, 10, 0, 0",
    "maxUnavailable less than replicas with percents, 10, 50%, 5, 5",
    "maxUnavailable equal replicas with percents, 10, 100%, 10, 0",
    "maxUnavailable greater than replicas with percents, 5, 100%, 5, 0",
    "minAvailable: replicas greater than maxUnavailable with percents, 10, 60%, 6, 4",
  })
  void maxUnavailableAndMinAvailable(
      String name, int replicas, String maxUnavailable, int expectedMax, int expectedMin) {
    IntOrString unavailable = IntOrString.parse(maxUnavailable);
    Deployment d = deployment(replicas, IntOrString.ofInt(1), unavailable);
    assertEquals(expectedMax, DeploymentUtil.maxUnavailable(d));
    assertEquals(expectedMin, DeploymentUtil.minAvailable(d));
  }

  @Test
  void recreateHasNoUnavailabilityBudget() {
    assertEquals(0, DeploymentUtil.maxUnavailable(recreate(null)));
    assertEquals(0, DeploymentUtil.minAvailable(recreate(10)));
    assertEquals(0, DeploymentUtil.maxSurge(recreate(10)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "nil",
      value = {
        "invalid empty, nil, -1",
        "invalid, invalid, -1",
        "invalid negative, -1, -1",
        "valid zero, 0, 0",
        "valid, 13, 13",
        "valid max, 2147483647, 2147483647",
        "invalid max out of range, 2147483648, -1",
        "invalid max out of range 2, 4294967296, -1",
      })
  void nonNegativeIntAnnotation(String name, String value, int expected) {
    Map<String, String> annotations = new HashMap<>();
    annotations.put("foo", "2");
    if (value != null) {
      annotations.put("test", value);
    }
    assertEquals(expected, DeploymentUtil.nonNegativeIntAnnotation(rs(1, annotations), "test"));
  }

  @Test
  void newReplicaSetAnnotationsKeepARevisionHistoryWithinItsLimit() {
    Deployment d = deployment(1, null, null);
    d.getMetadata().getAnnotations().put(DeploymentUtil.REVISION, "1");
    d.getMetadata().getAnnotations().put("kubernetes.io/change-cause", "set image");
    ReplicaSet rs = rs(1, null);
    for (int i = 10; i < 20; i++) {
      String next = Integer.toString(i + 1);
      DeploymentUtil.setNewReplicaSetAnnotations(d, rs, next, true, 5);
      if (i >= 12) {
        assertEquals(
            (i - 1) + "," + i,
            rs.getMetadata().getAnnotations().get(DeploymentUtil.REVISION_HISTORY));
      }
      assertEquals(next, rs.getMetadata().getAnnotations().get(DeploymentUtil.REVISION));
    }
    assertEquals("set image", rs.getMetadata().getAnnotations().get("kubernetes.io/change-cause"));

    assertTrue(DeploymentUtil.setReplicasAnnotations(rs, 10, 11));
    assertEquals("10", rs.getMetadata().getAnnotations().get(DeploymentUtil.DESIRED_REPLICAS));
    assertEquals("11", rs.getMetadata().getAnnotations().get(DeploymentUtil.MAX_REPLICAS));
    assertFalse(DeploymentUtil.setReplicasAnnotations(rs, 10, 11));

    rs.getMetadata().getAnnotations().put(DeploymentUtil.DESIRED_REPLICAS, "1");
    rs.getStatus().setAvailableReplicas(1);
    rs.getSpec().setReplicas(1);
    assertTrue(DeploymentUtil.isSaturated(d, rs));
  }

  @Test
  void aReplicaSetAboutToBeCreatedGetsTheReplicasAnnotations() {
    Deployment d = deployment(3, IntOrString.ofString("25%"), IntOrString.ofString("25%"));
    ReplicaSet rs = rs(0, null);
    assertTrue(DeploymentUtil.setNewReplicaSetAnnotations(d, rs, "1", false, 2000));
    assertEquals("1", rs.getMetadata().getAnnotations().get(DeploymentUtil.REVISION));
    assertEquals("3", rs.getMetadata().getAnnotations().get(DeploymentUtil.DESIRED_REPLICAS));
    assertEquals("4", rs.getMetadata().getAnnotations().get(DeploymentUtil.MAX_REPLICAS));
    assertNull(rs.getMetadata().getAnnotations().get(DeploymentUtil.REVISION_HISTORY));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "nil",
      value = {
        "test Annotations nil, nil, nil, true",
        "test desiredReplicas update, 8, 20, true",
        "test maxReplicas update, 10, 16, true",
        "test needn't update, 10, 20, false",
      })
  void replicasAnnotationsNeedUpdate(String name, String desired, String max, boolean expected) {
    Map<String, String> annotations = null;
    if (desired != null) {
      annotations =
          Map.of(DeploymentUtil.DESIRED_REPLICAS, desired, DeploymentUtil.MAX_REPLICAS, max);
    }
    assertEquals(
        expected, DeploymentUtil.replicasAnnotationsNeedUpdate(rs(1, annotations), 10, 20));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "nil",
      value = {
        "empty deployment always scales to 0, 0, 0, 0, 10, nil, -10",
        "unsynced deployment does not scale when max-replicas annotation is missing, 10, 0, 0, 5, nil, 0",
        "unsynced deployment does not scale when max-replicas annotation is 0, 10, 0, 0, 5, 0, 0",
        "scale up by 1/5 when max-replicas annotation is missing, 120, 100, 0, 50, nil, 10",
        "scale up by 1/5 when max-replicas annotation is 0, 120, 100, 0, 50, 0, 10",
        "scale up by 1/5 should increase RS replicas by 1/5, 120, 0, 0, 50, 100, 10",
        "scale up with maxSurge by 1/5, 120, 0, 10, 50, 110, 9",
        "scale down by 1/6 should decrease RS replicas by 1/6, 10, 0, 0, 6, 12, -1",
        "scale down with maxSurge by 1/6, 100, 0, 10, 50, 130, -8",
      })
  void replicaSetFraction(
      String name,
      int deploymentReplicas,
      int statusReplicas,
      int maxSurge,
      int rsReplicas,
      String maxReplicasAnnotation,
      int expected) {
    Deployment d =
        deployment(deploymentReplicas, IntOrString.ofInt(maxSurge), IntOrString.ofInt(1));
    d.getStatus().setReplicas(statusReplicas);
    ReplicaSet rs =
        rs(
            rsReplicas,
            maxReplicasAnnotation == null
                ? null
                : Map.of(DeploymentUtil.MAX_REPLICAS, maxReplicasAnnotation));
    // The fraction is the proportion when nothing caps it.
    int toAdd = expected >= 0 ? Integer.MAX_VALUE / 2 : Integer.MIN_VALUE / 2;
    if (rsReplicas == 0 || expected == 0) {
      assertEquals(0, DeploymentUtil.proportion(rs, d, toAdd, 0));
    } else {
      assertEquals(expected, DeploymentUtil.proportion(rs, d, toAdd, 0));
    }
  }

  @Test
  void aProportionNeverExceedsWhatIsLeftToAdd() {
    Deployment d = deployment(120, IntOrString.ofInt(0), IntOrString.ofInt(1));
    ReplicaSet rs = rs(50, Map.of(DeploymentUtil.MAX_REPLICAS, "100"));
    assertEquals(3, DeploymentUtil.proportion(rs, d, 20, 17));
    assertEquals(0, DeploymentUtil.proportion(rs, d, 20, 20));
    ReplicaSet down = rs(6, Map.of(DeploymentUtil.MAX_REPLICAS, "12"));
    assertEquals(
        -1,
        DeploymentUtil.proportion(
            down, deployment(10, IntOrString.ofInt(0), IntOrString.ofInt(1)), -2, -1));
  }

  @Test
  void safeEncodingUsesConsonantsAndDigitsOnly() {
    assertEquals("456789bcdf", DeploymentUtil.safeEncodeString("0123456789"));
    assertEquals("", DeploymentUtil.safeEncodeString(""));
  }

  @Test
  void fnv32aMatchesItsPublishedVectors() {
    // FNV-1a 32-bit test vectors (Fowler/Noll/Vo): "" and "a" and "foobar".
    assertEquals(0x811c9dc5, DeploymentUtil.fnv32a(0x811c9dc5, new byte[0]));
    assertEquals(0xe40c292c, DeploymentUtil.fnv32a(0x811c9dc5, "a".getBytes()));
    assertEquals(0xbf9cf968, DeploymentUtil.fnv32a(0x811c9dc5, "foobar".getBytes()));
  }

  @Test
  void theTemplateHashIgnoresNothingButTheHashLabelAndMovesWithTheCollisionCount() {
    PodTemplateSpec a = template("nginx:1");
    String hash = DeploymentUtil.computeHash(a, null);
    assertTrue(hash.matches("[bcdfghjklmnpqrstvwxz2456789]{1,10}"), hash);
    assertEquals(hash, DeploymentUtil.computeHash(template("nginx:1"), null));
    assertNotEquals(hash, DeploymentUtil.computeHash(template("nginx:2"), null));
    assertNotEquals(hash, DeploymentUtil.computeHash(a, 1));
    assertNotEquals(DeploymentUtil.computeHash(a, 1), DeploymentUtil.computeHash(a, 2));

    PodTemplateSpec labelled = template("nginx:1");
    labelled.getMetadata().getLabels().put(DeploymentUtil.POD_TEMPLATE_HASH, hash);
    assertTrue(DeploymentUtil.equalIgnoreHash(a, labelled));
    assertFalse(DeploymentUtil.equalIgnoreHash(a, template("nginx:2")));
    PodTemplateSpec emptyLists = template("nginx:1");
    emptyLists.getSpec().setVolumes(List.of());
    assertTrue(DeploymentUtil.equalIgnoreHash(a, emptyLists), "nil and empty are equal");
  }

  @Test
  void revisionsOfReplicaSets() {
    ReplicaSet r1 = rs(1, Map.of(DeploymentUtil.REVISION, "1"));
    ReplicaSet r3 = rs(1, Map.of(DeploymentUtil.REVISION, "3"));
    ReplicaSet r2 = rs(1, Map.of(DeploymentUtil.REVISION, "2"));
    ReplicaSet none = rs(1, null);
    assertEquals(3, DeploymentUtil.maxRevision(List.of(r1, r3, r2, none)));
    assertEquals(2, DeploymentUtil.lastRevision(List.of(r1, r3, r2, none)));
    assertEquals(0, DeploymentUtil.maxRevision(List.of()));
    assertThrows(
        NumberFormatException.class,
        () -> DeploymentUtil.revision(rs(1, Map.of(DeploymentUtil.REVISION, "x")).getMetadata()));
  }
}
