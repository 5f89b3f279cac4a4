package dev.machinery.cluster.controller.replicaset;

import dev.machinery.api.apps.v1.ReplicaSet;
import dev.machinery.core.runtime.ApiObject;
import java.util.List;
import java.util.Optional;

/**
 * Where the ReplicaSet controller reads and writes the objects it manages: ReplicaSets themselves,
 * or ReplicationControllers seen as ReplicaSets (as kube's replication manager converts them).
 *
 * <p>Implementations are thread-safe.
 */
interface ReplicaSetSource {
  /** The managed kind, such as {@code ReplicaSet}. */
  String kind();

  /** The managed kind's API version, such as {@code apps/v1}. */
  String apiVersion();

  /** The cached object of a name, as a ReplicaSet. */
  Optional<ReplicaSet> get(String namespace, String name);

  /** The cached objects of a namespace, as ReplicaSets. */
  List<ReplicaSet> list(String namespace);

  /** The object read from the server, as a ReplicaSet. */
  ReplicaSet read(String namespace, String name) throws Exception;

  /** Writes a status through the status subresource; returns what the server stored. */
  ReplicaSet updateStatus(ReplicaSet object) throws Exception;

  /** The object in its own kind, for events. */
  ApiObject owner(ReplicaSet object);
}
