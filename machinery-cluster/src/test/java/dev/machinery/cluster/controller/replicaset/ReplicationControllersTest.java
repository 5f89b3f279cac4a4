package dev.machinery.cluster.controller.replicaset;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.api.apps.v1.ReplicaSet;
import dev.machinery.api.apps.v1.ReplicaSetStatus;
import dev.machinery.api.core.v1.PodTemplateSpec;
import dev.machinery.api.core.v1.ReplicationController;
import dev.machinery.api.core.v1.ReplicationControllerSpec;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ReplicationControllers seen as ReplicaSets and back (kube's replication/conversion.go). */
class ReplicationControllersTest {
  @Test
  void aSelectorMapBecomesMatchLabelsAndTheStatusGoesBack() {
    ReplicationController rc = new ReplicationController();
    ObjectMeta meta = new ObjectMeta();
    meta.setName("legacy");
    meta.setNamespace("ns");
    meta.setUid("u1");
    rc.setMetadata(meta);
    ReplicationControllerSpec spec = new ReplicationControllerSpec();
    spec.setReplicas(2);
    spec.setSelector(Map.of("app", "legacy"));
    PodTemplateSpec template = new PodTemplateSpec();
    ObjectMeta templateMeta = new ObjectMeta();
    templateMeta.setLabels(Map.of("app", "legacy"));
    template.setMetadata(templateMeta);
    spec.setTemplate(template);
    rc.setSpec(spec);
    ReplicaSet rs = ReplicationControllers.toReplicaSet(rc);
    assertEquals(Map.of("app", "legacy"), rs.getSpec().getSelector().getMatchLabels());
    assertEquals(2, rs.getSpec().getReplicas());
    assertEquals("u1", rs.getMetadata().getUid());
    ReplicaSetStatus status = new ReplicaSetStatus();
    status.setReplicas(2);
    status.setReadyReplicas(1);
    status.setObservedGeneration(3L);
    ReplicationController back = ReplicationControllers.withStatus(rc, status);
    assertEquals(2, back.getStatus().getReplicas());
    assertEquals(1, back.getStatus().getReadyReplicas());
    assertEquals(3L, back.getStatus().getObservedGeneration());
    assertEquals("ReplicationController", back.getKind());
  }
}
