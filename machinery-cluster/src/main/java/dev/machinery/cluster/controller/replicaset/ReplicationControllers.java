package dev.machinery.cluster.controller.replicaset;

import dev.machinery.api.apps.v1.ReplicaSet;
import dev.machinery.api.apps.v1.ReplicaSetCondition;
import dev.machinery.api.apps.v1.ReplicaSetSpec;
import dev.machinery.api.apps.v1.ReplicaSetStatus;
import dev.machinery.api.core.v1.ReplicationController;
import dev.machinery.api.core.v1.ReplicationControllerCondition;
import dev.machinery.api.core.v1.ReplicationControllerSpec;
import dev.machinery.api.core.v1.ReplicationControllerStatus;
import dev.machinery.cluster.controller.util.Copies;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Converts ReplicationControllers to ReplicaSets and back, as kube's {@code
 * pkg/controller/replication/conversion.go}: the ReplicaSet controller runs them unchanged, a
 * selector map becoming {@code matchLabels}.
 *
 * <p>Stateless, thread-safe.
 */
final class ReplicationControllers {
  private ReplicationControllers() {}

  /** An RC as a ReplicaSet (a copy: the RC is not changed). */
  static ReplicaSet toReplicaSet(ReplicationController rc) {
    ReplicationController copy = Copies.of(rc);
    ReplicaSet rs = new ReplicaSet();
    rs.setApiVersion("apps/v1");
    rs.setKind("ReplicaSet");
    rs.setMetadata(copy.getMetadata());
    ReplicationControllerSpec spec =
        copy.getSpec() == null ? new ReplicationControllerSpec() : copy.getSpec();
    ReplicaSetSpec rsSpec = new ReplicaSetSpec();
    rsSpec.setReplicas(spec.getReplicas());
    rsSpec.setMinReadySeconds(spec.getMinReadySeconds());
    rsSpec.setTemplate(spec.getTemplate());
    LabelSelector selector = new LabelSelector();
    selector.setMatchLabels(
        spec.getSelector() == null
            ? new LinkedHashMap<>()
            : new LinkedHashMap<>(spec.getSelector()));
    rsSpec.setSelector(selector);
    rs.setSpec(rsSpec);
    if (copy.getStatus() != null) {
      ReplicationControllerStatus status = copy.getStatus();
      ReplicaSetStatus rsStatus = new ReplicaSetStatus();
      rsStatus.setReplicas(status.getReplicas());
      rsStatus.setFullyLabeledReplicas(status.getFullyLabeledReplicas());
      rsStatus.setReadyReplicas(status.getReadyReplicas());
      rsStatus.setAvailableReplicas(status.getAvailableReplicas());
      rsStatus.setObservedGeneration(status.getObservedGeneration());
      if (status.getConditions() != null) {
        List<ReplicaSetCondition> conditions = new ArrayList<>();
        for (ReplicationControllerCondition c : status.getConditions()) {
          ReplicaSetCondition rc2 = new ReplicaSetCondition();
          rc2.setType(c.getType());
          rc2.setStatus(c.getStatus());
          rc2.setReason(c.getReason());
          rc2.setMessage(c.getMessage());
          rc2.setLastTransitionTime(c.getLastTransitionTime());
          conditions.add(rc2);
        }
        rsStatus.setConditions(conditions);
      }
      rs.setStatus(rsStatus);
    }
    return rs;
  }

  /** A ReplicaSet's status written onto a copy of the RC it was converted from. */
  static ReplicationController withStatus(ReplicationController rc, ReplicaSetStatus status) {
    ReplicationController copy = Copies.of(rc);
    copy.setApiVersion("v1");
    copy.setKind("ReplicationController");
    ReplicationControllerStatus out = new ReplicationControllerStatus();
    out.setReplicas(status.getReplicas());
    out.setFullyLabeledReplicas(status.getFullyLabeledReplicas());
    out.setReadyReplicas(status.getReadyReplicas());
    out.setAvailableReplicas(status.getAvailableReplicas());
    out.setObservedGeneration(status.getObservedGeneration());
    if (status.getConditions() != null) {
      List<ReplicationControllerCondition> conditions = new ArrayList<>();
      for (ReplicaSetCondition c : status.getConditions()) {
        ReplicationControllerCondition out2 = new ReplicationControllerCondition();
        out2.setType(c.getType());
        out2.setStatus(c.getStatus());
        out2.setReason(c.getReason());
        out2.setMessage(c.getMessage());
        out2.setLastTransitionTime(c.getLastTransitionTime());
        conditions.add(out2);
      }
      out.setConditions(conditions);
    }
    copy.setStatus(out);
    return copy;
  }
}
