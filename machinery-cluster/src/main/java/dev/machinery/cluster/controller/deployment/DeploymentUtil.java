package dev.machinery.cluster.controller.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.api.apps.v1.Deployment;
import dev.machinery.api.apps.v1.DeploymentCondition;
import dev.machinery.api.apps.v1.DeploymentStatus;
import dev.machinery.api.apps.v1.ReplicaSet;
import dev.machinery.api.apps.v1.RollingUpdateDeployment;
import dev.machinery.api.core.v1.PodTemplate;
import dev.machinery.api.core.v1.PodTemplateSpec;
import dev.machinery.cluster.controller.util.Copies;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Time;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The arithmetic and bookkeeping of Kubernetes' {@code pkg/controller/deployment/util}: revisions
 * and the annotations copied between a Deployment and its ReplicaSets, {@code maxSurge} and {@code
 * maxUnavailable} resolved against the replicas (surge rounded up, unavailable down, never both 0),
 * the new ReplicaSet's size during a rolling update, proportions of a proportional scale,
 * conditions, and the pod template hash.
 *
 * <p>Stateless, thread-safe; methods taking a status change it in place.
 */
public final class DeploymentUtil {
  /** The revision of a Deployment and of each of its ReplicaSets. */
  public static final String REVISION = "deployment.kubernetes.io/revision";

  /** The revisions a ReplicaSet held before a rollback made it new again. */
  public static final String REVISION_HISTORY = "deployment.kubernetes.io/revision-history";

  /** The Deployment's replicas when the ReplicaSet was last scaled. */
  public static final String DESIRED_REPLICAS = "deployment.kubernetes.io/desired-replicas";

  /** The Deployment's replicas plus its surge when the ReplicaSet was last scaled. */
  public static final String MAX_REPLICAS = "deployment.kubernetes.io/max-replicas";

  /** The label a Deployment adds to its ReplicaSets, their selectors and pods. */
  public static final String POD_TEMPLATE_HASH = "pod-template-hash";

  /** kubectl's last applied configuration: never copied to a ReplicaSet. */
  public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  /** The rollback request of extensions/v1beta1 Deployments: never copied. */
  public static final String DEPRECATED_ROLLBACK_TO = "deprecated.deployment.rollback.to";

  /** Reason: a new ReplicaSet is progressing. */
  public static final String REPLICA_SET_UPDATED = "ReplicaSetUpdated";

  /** Reason: the new ReplicaSet could not be created. */
  public static final String FAILED_RS_CREATE = "ReplicaSetCreateError";

  /** Reason: a new ReplicaSet was created. */
  public static final String NEW_REPLICA_SET = "NewReplicaSetCreated";

  /** Reason: the new ReplicaSet was found. */
  public static final String FOUND_NEW_RS = "FoundNewReplicaSet";

  /** Reason: the rollout completed. */
  public static final String NEW_RS_AVAILABLE = "NewReplicaSetAvailable";

  /** Reason: the rollout made no progress within its deadline. */
  public static final String TIMED_OUT = "ProgressDeadlineExceeded";

  /** Reason: the Deployment is paused. */
  public static final String PAUSED = "DeploymentPaused";

  /** Reason: the Deployment was resumed. */
  public static final String RESUMED = "DeploymentResumed";

  /** Reason: enough replicas are available. */
  public static final String MINIMUM_REPLICAS_AVAILABLE = "MinimumReplicasAvailable";

  /** Reason: too few replicas are available. */
  public static final String MINIMUM_REPLICAS_UNAVAILABLE = "MinimumReplicasUnavailable";

  /** The condition type {@code Progressing}. */
  public static final String PROGRESSING = "Progressing";

  /** The condition type {@code Available}. */
  public static final String AVAILABLE = "Available";

  /** The condition type {@code ReplicaFailure}. */
  public static final String REPLICA_FAILURE = "ReplicaFailure";

  /** Longest {@link #REVISION_HISTORY} kept, in characters. */
  public static final int MAX_REVISION_HISTORY_CHARS = 2000;

  private static final Set<String> SKIPPED =
      Set.of(
          LAST_APPLIED,
          REVISION,
          REVISION_HISTORY,
          DESIRED_REPLICAS,
          MAX_REPLICAS,
          DEPRECATED_ROLLBACK_TO);

  private static final String SAFE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private DeploymentUtil() {}

  /**
   * Returns a ReplicaSet's or Deployment's revision: 0 without the annotation.
   *
   * @param meta the object's metadata
   * @return the revision
   * @throws NumberFormatException when the annotation is not a number
   */
  public static long revision(ObjectMeta meta) {
    String value = annotations(meta).get(REVISION);
    return value == null ? 0 : Long.parseLong(value);
  }

  private static long revisionOrZero(ObjectMeta meta) {
    try {
      return revision(meta);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Returns the largest revision of the ReplicaSets (unreadable ones skipped).
   *
   * @param replicaSets the ReplicaSets (nulls skipped)
   * @return the largest, 0 for none
   */
  public static long maxRevision(List<ReplicaSet> replicaSets) {
    long max = 0;
    for (ReplicaSet rs : replicaSets) {
      if (rs != null) {
        max = Math.max(max, revisionOrZero(rs.getMetadata()));
      }
    }
    return max;
  }

  /**
   * Returns the second largest revision (kube's {@code LastRevision}), the one {@code rollout undo}
   * returns to.
   *
   * @param replicaSets the ReplicaSets
   * @return the revision, 0 for none
   */
  public static long lastRevision(List<ReplicaSet> replicaSets) {
    long max = 0;
    long second = 0;
    for (ReplicaSet rs : replicaSets) {
      long v = revisionOrZero(rs.getMetadata());
      if (v >= max) {
        second = max;
        max = v;
      } else if (v > second) {
        second = v;
      }
    }
    return second;
  }

  static Map<String, String> annotations(ObjectMeta meta) {
    return meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
  }

  private static Map<String, String> mutableAnnotations(ObjectMeta meta) {
    if (meta.getAnnotations() == null) {
      meta.setAnnotations(new LinkedHashMap<>());
    } else if (!(meta.getAnnotations() instanceof LinkedHashMap)) {
      meta.setAnnotations(new LinkedHashMap<>(meta.getAnnotations()));
    }
    return meta.getAnnotations();
  }

  /**
   * Tells whether an annotation stays with the Deployment and is not copied to ReplicaSets.
   *
   * @param key the annotation
   * @return true when skipped
   */
  public static boolean skipCopyAnnotation(String key) {
    return SKIPPED.contains(key);
  }

  /**
   * Copies a Deployment's annotations to a ReplicaSet (the skipped ones aside).
   *
   * @param deployment the Deployment
   * @param rs the ReplicaSet, changed
   * @return whether anything changed
   */
  public static boolean copyDeploymentAnnotationsToReplicaSet(
      Deployment deployment, ReplicaSet rs) {
    boolean changed = false;
    Map<String, String> target = mutableAnnotations(rs.getMetadata());
    for (Map.Entry<String, String> e : annotations(deployment.getMetadata()).entrySet()) {
      if (skipCopyAnnotation(e.getKey()) || Objects.equals(target.get(e.getKey()), e.getValue())) {
        continue;
      }
      target.put(e.getKey(), e.getValue());
      changed = true;
    }
    return changed;
  }

  /**
   * Sets the annotations of a Deployment's new ReplicaSet (kube's {@code
   * SetNewReplicaSetAnnotations}): the Deployment's annotations, the revision when the ReplicaSet's
   * is lower (a ReplicaSet that had one is being rolled back to: its old revision joins {@link
   * #REVISION_HISTORY}), and for a ReplicaSet about to be created the replicas annotations.
   *
   * @param deployment the Deployment
   * @param rs the ReplicaSet, changed
   * @param newRevision the revision it should have
   * @param exists whether the ReplicaSet exists already
   * @param historyLimitChars the longest history kept
   * @return whether anything changed
   */
  public static boolean setNewReplicaSetAnnotations(
      Deployment deployment,
      ReplicaSet rs,
      String newRevision,
      boolean exists,
      int historyLimitChars) {
    boolean changed = copyDeploymentAnnotationsToReplicaSet(deployment, rs);
    Map<String, String> annotations = mutableAnnotations(rs.getMetadata());
    String oldRevision = annotations.get(REVISION);
    long oldRevisionInt;
    try {
      oldRevisionInt = oldRevision == null ? 0 : Long.parseLong(oldRevision);
    } catch (NumberFormatException e) {
      if (!oldRevision.isEmpty()) {
        return false;
      }
      oldRevisionInt = 0;
    }
    long newRevisionInt;
    try {
      newRevisionInt = Long.parseLong(newRevision);
    } catch (NumberFormatException e) {
      return false;
    }
    if (oldRevisionInt < newRevisionInt) {
      annotations.put(REVISION, newRevision);
      changed = true;
    }
    if (oldRevision != null && oldRevisionInt < newRevisionInt) {
      String history = annotations.getOrDefault(REVISION_HISTORY, "");
      List<String> oldRevisions = new ArrayList<>(List.of(history.split(",", -1)));
      if (oldRevisions.get(0).isEmpty()) {
        annotations.put(REVISION_HISTORY, oldRevision);
      } else {
        int totalLen = history.length() + oldRevision.length() + 1;
        int start = 0;
        while (totalLen > historyLimitChars && start < oldRevisions.size()) {
          totalLen = totalLen - oldRevisions.get(start).length() - 1;
          start++;
        }
        if (totalLen <= historyLimitChars) {
          List<String> kept = new ArrayList<>(oldRevisions.subList(start, oldRevisions.size()));
          kept.add(oldRevision);
          annotations.put(REVISION_HISTORY, String.join(",", kept));
        }
      }
    }
    if (!exists) {
      int replicas = replicas(deployment);
      if (setReplicasAnnotations(rs, replicas, replicas + maxSurge(deployment))) {
        changed = true;
      }
    }
    return changed;
  }

  /**
   * Sets a Deployment's revision annotation.
   *
   * @param deployment the Deployment, changed
   * @param revision the revision
   * @return whether it changed
   */
  public static boolean setDeploymentRevision(Deployment deployment, String revision) {
    Map<String, String> annotations = mutableAnnotations(deployment.getMetadata());
    if (Objects.equals(annotations.get(REVISION), revision)) {
      return false;
    }
    annotations.put(REVISION, revision);
    return true;
  }

  /**
   * Sets a ReplicaSet's {@link #DESIRED_REPLICAS} and {@link #MAX_REPLICAS}.
   *
   * @param rs the ReplicaSet, changed
   * @param desired the Deployment's replicas
   * @param max its replicas plus surge
   * @return whether anything changed
   */
  public static boolean setReplicasAnnotations(ReplicaSet rs, int desired, int max) {
    Map<String, String> annotations = mutableAnnotations(rs.getMetadata());
    boolean changed = false;
    if (!String.valueOf(desired).equals(annotations.get(DESIRED_REPLICAS))) {
      annotations.put(DESIRED_REPLICAS, String.valueOf(desired));
      changed = true;
    }
    if (!String.valueOf(max).equals(annotations.get(MAX_REPLICAS))) {
      annotations.put(MAX_REPLICAS, String.valueOf(max));
      changed = true;
    }
    return changed;
  }

  /**
   * Tells whether a ReplicaSet's replicas annotations differ from the given values.
   *
   * @param rs the ReplicaSet
   * @param desired the Deployment's replicas
   * @param max its replicas plus surge
   * @return true when they differ
   */
  public static boolean replicasAnnotationsNeedUpdate(ReplicaSet rs, int desired, int max) {
    Map<String, String> annotations = annotations(rs.getMetadata());
    return !String.valueOf(desired).equals(annotations.get(DESIRED_REPLICAS))
        || !String.valueOf(max).equals(annotations.get(MAX_REPLICAS));
  }

  /**
   * Reads a non-negative 32-bit integer annotation.
   *
   * @param rs the ReplicaSet
   * @param key the annotation
   * @return the value, or -1 when absent or invalid
   */
  public static int nonNegativeIntAnnotation(ReplicaSet rs, String key) {
    String value = annotations(rs.getMetadata()).get(key);
    if (value == null) {
      return -1;
    }
    try {
      int parsed = Integer.parseInt(value);
      return parsed < 0 ? -1 : parsed;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /**
   * Returns a Deployment's replicas (1 when unset).
   *
   * @param deployment the Deployment
   * @return the replicas
   */
  public static int replicas(Deployment deployment) {
    Integer value = deployment.getSpec().getReplicas();
    return value == null ? 1 : value;
  }

  /**
   * Returns a ReplicaSet's replicas (1 when unset).
   *
   * @param rs the ReplicaSet
   * @return the replicas
   */
  public static int replicas(ReplicaSet rs) {
    Integer value = rs.getSpec().getReplicas();
    return value == null ? 1 : value;
  }

  /**
   * Tells whether a Deployment updates by rolling (the default).
   *
   * @param deployment the Deployment
   * @return true for {@code RollingUpdate}
   */
  public static boolean isRollingUpdate(Deployment deployment) {
    return deployment.getSpec().getStrategy() == null
        || deployment.getSpec().getStrategy().getType() == null
        || "RollingUpdate".equals(deployment.getSpec().getStrategy().getType());
  }

  /**
   * Returns an int-or-percent scaled against a total (kube's {@code
   * GetScaledValueFromIntOrPercent}).
   *
   * @param value the value
   * @param total the total a percentage applies to
   * @param roundUp whether a percentage rounds up (else down)
   * @return the value
   * @throws IllegalArgumentException when a string is not a percentage
   */
  public static int scaledValue(IntOrString value, int total, boolean roundUp) {
    if (value.isInt()) {
      return value.intValue();
    }
    String s = value.stringValue();
    if (!s.endsWith("%")) {
      throw new IllegalArgumentException(
          "invalid value for IntOrString: invalid type: string is not a percentage");
    }
    int percent;
    try {
      percent = Integer.parseInt(s.substring(0, s.length() - 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid value \"" + s + "\": " + e.getMessage(), e);
    }
    double scaled = percent * (double) total / 100;
    return (int) (roundUp ? Math.ceil(scaled) : Math.floor(scaled));
  }

  /**
   * Resolves {@code maxSurge} (rounded up) and {@code maxUnavailable} (rounded down) against the
   * desired replicas; when both come to 0, unavailable becomes 1 (kube's {@code
   * ResolveFenceposts}).
   *
   * @param maxSurge the surge, null for 0
   * @param maxUnavailable the unavailable, null for 0
   * @param desired the desired replicas
   * @return {@code [surge, unavailable]}
   */
  public static int[] resolveFenceposts(
      IntOrString maxSurge, IntOrString maxUnavailable, int desired) {
    int surge = scaledValue(maxSurge == null ? IntOrString.ofInt(0) : maxSurge, desired, true);
    int unavailable =
        scaledValue(maxUnavailable == null ? IntOrString.ofInt(0) : maxUnavailable, desired, false);
    if (surge == 0 && unavailable == 0) {
      unavailable = 1;
    }
    return new int[] {surge, unavailable};
  }

  private static RollingUpdateDeployment rollingUpdate(Deployment deployment) {
    var strategy = deployment.getSpec().getStrategy();
    RollingUpdateDeployment rolling = strategy == null ? null : strategy.getRollingUpdate();
    if (rolling == null) {
      // The defaults kube-apiserver sets: 25% and 25%.
      rolling = new RollingUpdateDeployment();
      rolling.setMaxSurge(IntOrString.ofString("25%"));
      rolling.setMaxUnavailable(IntOrString.ofString("25%"));
    }
    return rolling;
  }

  /**
   * Returns how many pods may be unavailable during a rolling update (0 for Recreate or 0 replicas,
   * at most the replicas).
   *
   * @param deployment the Deployment
   * @return the number
   */
  public static int maxUnavailable(Deployment deployment) {
    int replicas = replicas(deployment);
    if (!isRollingUpdate(deployment) || replicas == 0) {
      return 0;
    }
    RollingUpdateDeployment rolling = rollingUpdate(deployment);
    int unavailable =
        resolveFenceposts(rolling.getMaxSurge(), rolling.getMaxUnavailable(), replicas)[1];
    return Math.min(unavailable, replicas);
  }

  /**
   * Returns how many pods must stay available during a rolling update.
   *
   * @param deployment the Deployment
   * @return the number, 0 for Recreate
   */
  public static int minAvailable(Deployment deployment) {
    if (!isRollingUpdate(deployment)) {
      return 0;
    }
    return replicas(deployment) - maxUnavailable(deployment);
  }

  /**
   * Returns how many pods over the replicas a rolling update may run.
   *
   * @param deployment the Deployment
   * @return the number, 0 for Recreate
   */
  public static int maxSurge(Deployment deployment) {
    if (!isRollingUpdate(deployment)) {
      return 0;
    }
    RollingUpdateDeployment rolling = rollingUpdate(deployment);
    return resolveFenceposts(
        rolling.getMaxSurge(), rolling.getMaxUnavailable(), replicas(deployment))[0];
  }

  /**
   * Returns the replicas the new ReplicaSet should have next (kube's {@code NewRSNewReplicas}):
   * under Recreate the Deployment's replicas; rolling, as many more as the surge allows, never more
   * than the replicas.
   *
   * @param deployment the Deployment
   * @param all every ReplicaSet of the Deployment (nulls skipped)
   * @param newRs the new ReplicaSet
   * @return the replicas
   */
  public static int newRsNewReplicas(
      Deployment deployment, List<ReplicaSet> all, ReplicaSet newRs) {
    if (isRollingUpdate(deployment)) {
      int replicas = replicas(deployment);
      RollingUpdateDeployment rolling = rollingUpdate(deployment);
      int surge =
          scaledValue(
              rolling.getMaxSurge() == null ? IntOrString.ofInt(0) : rolling.getMaxSurge(),
              replicas,
              true);
      int current = replicaCount(all);
      int maxTotal = replicas + surge;
      if (current >= maxTotal) {
        return replicas(newRs);
      }
      int scaleUp = Math.min(maxTotal - current, replicas - replicas(newRs));
      return replicas(newRs) + scaleUp;
    }
    return replicas(deployment);
  }

  /**
   * Sums the ReplicaSets' {@code spec.replicas}.
   *
   * @param replicaSets the ReplicaSets (nulls skipped)
   * @return the sum
   */
  public static int replicaCount(List<ReplicaSet> replicaSets) {
    int total = 0;
    for (ReplicaSet rs : replicaSets) {
      if (rs != null) {
        total += replicas(rs);
      }
    }
    return total;
  }

  private static int status(
      ReplicaSet rs,
      java.util.function.Function<dev.machinery.api.apps.v1.ReplicaSetStatus, Integer> field) {
    if (rs == null || rs.getStatus() == null) {
      return 0;
    }
    Integer value = field.apply(rs.getStatus());
    return value == null ? 0 : value;
  }

  /**
   * Sums the ReplicaSets' {@code status.replicas}.
   *
   * @param replicaSets the ReplicaSets (nulls skipped)
   * @return the sum
   */
  public static int actualReplicaCount(List<ReplicaSet> replicaSets) {
    return replicaSets.stream().mapToInt(rs -> status(rs, s -> s.getReplicas())).sum();
  }

  /**
   * Sums the ReplicaSets' {@code status.readyReplicas}.
   *
   * @param replicaSets the ReplicaSets (nulls skipped)
   * @return the sum
   */
  public static int readyReplicaCount(List<ReplicaSet> replicaSets) {
    return replicaSets.stream().mapToInt(rs -> status(rs, s -> s.getReadyReplicas())).sum();
  }

  /**
   * Sums the ReplicaSets' {@code status.availableReplicas}.
   *
   * @param replicaSets the ReplicaSets (nulls skipped)
   * @return the sum
   */
  public static int availableReplicaCount(List<ReplicaSet> replicaSets) {
    return replicaSets.stream().mapToInt(rs -> status(rs, s -> s.getAvailableReplicas())).sum();
  }

  /**
   * Tells whether the new ReplicaSet holds all the Deployment's replicas, all available, at the
   * Deployment's current size.
   *
   * @param deployment the Deployment
   * @param rs the new ReplicaSet, or null
   * @return true when saturated
   */
  public static boolean isSaturated(Deployment deployment, ReplicaSet rs) {
    if (rs == null) {
      return false;
    }
    String desired = annotations(rs.getMetadata()).get(DESIRED_REPLICAS);
    int desiredInt;
    try {
      desiredInt = Integer.parseInt(desired);
    } catch (NumberFormatException e) {
      return false;
    }
    int replicas = replicas(deployment);
    return replicas(rs) == replicas
        && desiredInt == replicas
        && status(rs, s -> s.getAvailableReplicas()) == replicas;
  }

  /**
   * Returns how many replicas a ReplicaSet gains (or loses) in a proportional scale (kube's {@code
   * GetProportion}).
   *
   * @param rs the ReplicaSet
   * @param deployment the Deployment
   * @param toAdd replicas the scale adds (negative: removes) in all
   * @param added replicas added so far
   * @return the change for this ReplicaSet
   */
  public static int proportion(ReplicaSet rs, Deployment deployment, int toAdd, int added) {
    if (rs == null || replicas(rs) == 0 || toAdd == 0 || toAdd == added) {
      return 0;
    }
    int fraction = replicaSetFraction(rs, deployment);
    int allowed = toAdd - added;
    return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
  }

  private static int replicaSetFraction(ReplicaSet rs, Deployment deployment) {
    if (replicas(deployment) == 0) {
      return -replicas(rs);
    }
    int deploymentMax = replicas(deployment) + maxSurge(deployment);
    int before = nonNegativeIntAnnotation(rs, MAX_REPLICAS);
    if (before <= 0) {
      DeploymentStatus status = deployment.getStatus();
      before = status == null || status.getReplicas() == null ? 0 : status.getReplicas();
      if (before == 0) {
        return 0;
      }
    }
    double size = (double) replicas(rs) * deploymentMax / before;
    return (int) Math.round(size) - replicas(rs);
  }

  /**
   * Tells whether two pod templates are equal but for the {@code pod-template-hash} label.
   *
   * @param a a template
   * @param b another
   * @return true when equal
   */
  public static boolean equalIgnoreHash(PodTemplateSpec a, PodTemplateSpec b) {
    return canonical(templateWithoutHash(a)).equals(canonical(templateWithoutHash(b)));
  }

  private static JsonNode templateWithoutHash(PodTemplateSpec template) {
    JsonNode node = templateTree(template);
    JsonNode labels = node.path("metadata").path("labels");
    if (labels.isObject()) {
      ((ObjectNode) labels).remove(POD_TEMPLATE_HASH);
      if (labels.isEmpty()) {
        ((ObjectNode) node.path("metadata")).remove("labels");
      }
    }
    return node;
  }

  private static JsonNode templateTree(PodTemplateSpec template) {
    PodTemplate holder = new PodTemplate();
    holder.setApiVersion("v1");
    holder.setKind("PodTemplate");
    holder.setTemplate(template);
    try {
      JsonNode tree = MAPPER.readTree(Copies.json(holder)).path("template");
      return tree.isMissingNode() ? MAPPER.createObjectNode() : dropEmpty(tree.deepCopy());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Drops null and empty values, as Go's semantic equality treats nil and empty alike. */
  private static JsonNode dropEmpty(JsonNode node) {
    if (node.isObject()) {
      List<String> empty = new ArrayList<>();
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        JsonNode value = dropEmpty(field.getValue());
        if (value.isNull()
            || (value.isContainerNode() && value.isEmpty() && !field.getKey().equals("emptyDir"))) {
          empty.add(field.getKey());
        }
      }
      ((ObjectNode) node).remove(empty);
    } else if (node.isArray()) {
      for (JsonNode child : node) {
        dropEmpty(child);
      }
    }
    return node;
  }

  /** Renders JSON with every object's keys sorted. */
  static String canonical(JsonNode node) {
    StringBuilder out = new StringBuilder();
    write(node, out);
    return out.toString();
  }

  private static void write(JsonNode node, StringBuilder out) {
    if (node.isObject()) {
      TreeMap<String, JsonNode> sorted = new TreeMap<>();
      node.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> e : sorted.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        out.append(MAPPER.getNodeFactory().textNode(e.getKey()).toString()).append(':');
        write(e.getValue(), out);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      ArrayNode array = (ArrayNode) node;
      for (int i = 0; i < array.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(array.get(i), out);
      }
      out.append(']');
    } else {
      out.append(node.toString());
    }
  }

  /**
   * Returns the pod template hash of a template and collision count: FNV-32a of the template's
   * canonical JSON (keys sorted, empty values dropped) followed, when a collision count is set, by
   * its 32-bit little-endian value padded to 8 bytes, as kube appends it; the decimal value is then
   * rendered by {@link #safeEncodeString}. Kube hashes Go's printed form of the template instead,
   * so the value differs from kube's for the same template.
   *
   * @param template the Deployment's template
   * @param collisionCount the Deployment's {@code status.collisionCount}, or null
   * @return the hash
   */
  public static String computeHash(PodTemplateSpec template, Integer collisionCount) {
    byte[] bytes = canonical(templateTree(template)).getBytes(StandardCharsets.UTF_8);
    int hash = fnv32a(0x811c9dc5, bytes);
    if (collisionCount != null) {
      byte[] count = new byte[8];
      int c = collisionCount;
      count[0] = (byte) c;
      count[1] = (byte) (c >>> 8);
      count[2] = (byte) (c >>> 16);
      count[3] = (byte) (c >>> 24);
      hash = fnv32a(hash, count);
    }
    return safeEncodeString(Integer.toUnsignedString(hash));
  }

  /**
   * Continues an FNV-1a 32-bit hash over bytes.
   *
   * @param hash the hash so far ({@code 0x811c9dc5} to start)
   * @param bytes the bytes
   * @return the hash
   */
  public static int fnv32a(int hash, byte[] bytes) {
    for (byte b : bytes) {
      hash ^= b & 0xff;
      hash *= 0x01000193;
    }
    return hash;
  }

  /**
   * Encodes a string with consonants and digits only, byte by byte (client-go's {@code
   * rand.SafeEncodeString}), so that no word forms in a generated name.
   *
   * @param s the string
   * @return the encoded string
   */
  public static String safeEncodeString(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder(bytes.length);
    for (byte b : bytes) {
      out.append(SAFE_ALPHABET.charAt((b & 0xff) % SAFE_ALPHABET.length()));
    }
    return out.toString();
  }

  /**
   * Returns a Deployment condition of a type.
   *
   * @param status the status, or null
   * @param type the type
   * @return the condition, or null
   */
  public static DeploymentCondition condition(DeploymentStatus status, String type) {
    if (status == null || status.getConditions() == null) {
      return null;
    }
    for (DeploymentCondition condition : status.getConditions()) {
      if (type.equals(condition.getType())) {
        return condition;
      }
    }
    return null;
  }

  /**
   * Returns a new condition, both times at {@code now}.
   *
   * @param type the type
   * @param status {@code True}, {@code False} or {@code Unknown}
   * @param reason the reason
   * @param message the message
   * @param now the time
   * @return the condition
   */
  public static DeploymentCondition newCondition(
      String type, String status, String reason, String message, Instant now) {
    DeploymentCondition condition = new DeploymentCondition();
    condition.setType(type);
    condition.setStatus(status);
    condition.setReason(reason);
    condition.setMessage(message);
    condition.setLastUpdateTime(new Time(now));
    condition.setLastTransitionTime(new Time(now));
    return condition;
  }

  /**
   * Sets a condition (kube's {@code SetDeploymentCondition}): one of the same status and reason is
   * left as it is; one of the same status keeps its transition time; the new one goes last.
   *
   * @param status the status, changed
   * @param condition the condition
   */
  public static void setCondition(DeploymentStatus status, DeploymentCondition condition) {
    DeploymentCondition current = condition(status, condition.getType());
    if (current != null
        && Objects.equals(current.getStatus(), condition.getStatus())
        && Objects.equals(current.getReason(), condition.getReason())) {
      return;
    }
    if (current != null && Objects.equals(current.getStatus(), condition.getStatus())) {
      condition.setLastTransitionTime(current.getLastTransitionTime());
    }
    List<DeploymentCondition> conditions = new ArrayList<>();
    if (status.getConditions() != null) {
      for (DeploymentCondition c : status.getConditions()) {
        if (!condition.getType().equals(c.getType())) {
          conditions.add(c);
        }
      }
    }
    conditions.add(condition);
    status.setConditions(conditions);
  }

  /**
   * Removes a condition.
   *
   * @param status the status, changed
   * @param type the condition's type
   */
  public static void removeCondition(DeploymentStatus status, String type) {
    if (status.getConditions() == null) {
      return;
    }
    List<DeploymentCondition> conditions = new ArrayList<>(status.getConditions());
    conditions.removeIf(c -> type.equals(c.getType()));
    status.setConditions(conditions.isEmpty() ? null : conditions);
  }

  /**
   * Tells whether a Deployment has a progress deadline (set, and not {@code MaxInt32}).
   *
   * @param deployment the Deployment
   * @return true when it has one
   */
  public static boolean hasProgressDeadline(Deployment deployment) {
    Integer seconds = deployment.getSpec().getProgressDeadlineSeconds();
    return seconds != null && seconds != Integer.MAX_VALUE;
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }

  /**
   * Tells whether a rollout completed: every replica updated and available, and the generation
   * observed.
   *
   * @param deployment the Deployment
   * @param status the new status
   * @return true when complete
   */
  public static boolean deploymentComplete(Deployment deployment, DeploymentStatus status) {
    int replicas = replicas(deployment);
    return orZero(status.getUpdatedReplicas()) == replicas
        && orZero(status.getReplicas()) == replicas
        && orZero(status.getAvailableReplicas()) == replicas
        && orZero(status.getObservedGeneration()) >= deployment.getMetadata().getGeneration();
  }

  /**
   * Tells whether a rollout made progress since the Deployment's status: more updated, fewer old,
   * more ready or more available replicas.
   *
   * @param deployment the Deployment (with its old status)
   * @param status the new status
   * @return true when progressing
   */
  public static boolean deploymentProgressing(Deployment deployment, DeploymentStatus status) {
    DeploymentStatus old =
        deployment.getStatus() == null ? new DeploymentStatus() : deployment.getStatus();
    int oldOld = orZero(old.getReplicas()) - orZero(old.getUpdatedReplicas());
    int newOld = orZero(status.getReplicas()) - orZero(status.getUpdatedReplicas());
    return orZero(status.getUpdatedReplicas()) > orZero(old.getUpdatedReplicas())
        || newOld < oldOld
        || orZero(status.getReadyReplicas()) > orZero(old.getReadyReplicas())
        || orZero(status.getAvailableReplicas()) > orZero(old.getAvailableReplicas());
  }

  /**
   * Tells whether a rollout ran past its progress deadline: its Progressing condition, unless it
   * reports completion, was last updated more than {@code progressDeadlineSeconds} before now.
   *
   * @param deployment the Deployment
   * @param status the new status
   * @param now the cluster's time
   * @return true when timed out
   */
  public static boolean deploymentTimedOut(
      Deployment deployment, DeploymentStatus status, Instant now) {
    if (!hasProgressDeadline(deployment)) {
      return false;
    }
    DeploymentCondition condition = condition(status, PROGRESSING);
    if (condition == null || NEW_RS_AVAILABLE.equals(condition.getReason())) {
      return false;
    }
    if (TIMED_OUT.equals(condition.getReason())) {
      return true;
    }
    if (condition.getLastUpdateTime() == null) {
      return false;
    }
    Instant deadline =
        condition
            .getLastUpdateTime()
            .instant()
            .plus(Duration.ofSeconds(deployment.getSpec().getProgressDeadlineSeconds()));
    return deadline.isBefore(now);
  }

  /**
   * Orders ReplicaSets oldest first, by name among equals.
   *
   * @return the order
   */
  public static Comparator<ReplicaSet> byCreationTimestamp() {
    return Comparator.<ReplicaSet, Instant>comparing(
            rs -> rs.getMetadata().getCreationTimestamp(),
            Comparator.nullsFirst(Comparator.naturalOrder()))
        .thenComparing(rs -> rs.getMetadata().getName());
  }

  /**
   * Orders ReplicaSets by revision, oldest first, then by creation.
   *
   * @return the order
   */
  public static Comparator<ReplicaSet> byRevision() {
    return Comparator.<ReplicaSet>comparingLong(rs -> revisionOrZero(rs.getMetadata()))
        .thenComparing(byCreationTimestamp());
  }

  /**
   * Orders ReplicaSets larger first, among equals the older first (for scaling down).
   *
   * @return the order
   */
  public static Comparator<ReplicaSet> bySizeOlder() {
    return Comparator.<ReplicaSet>comparingInt(rs -> -replicas(rs))
        .thenComparing(byCreationTimestamp());
  }

  /**
   * Orders ReplicaSets larger first, among equals the newer first (for scaling up).
   *
   * @return the order
   */
  public static Comparator<ReplicaSet> bySizeNewer() {
    return Comparator.<ReplicaSet>comparingInt(rs -> -replicas(rs))
        .thenComparing(byCreationTimestamp().reversed());
  }

  /**
   * Returns the new ReplicaSet: the oldest whose template equals the Deployment's but for the hash.
   *
   * @param deployment the Deployment
   * @param replicaSets its ReplicaSets
   * @return the new one, or null
   */
  public static ReplicaSet findNewReplicaSet(Deployment deployment, List<ReplicaSet> replicaSets) {
    List<ReplicaSet> sorted = new ArrayList<>(replicaSets);
    sorted.sort(byCreationTimestamp());
    for (ReplicaSet rs : sorted) {
      if (equalIgnoreHash(rs.getSpec().getTemplate(), deployment.getSpec().getTemplate())) {
        return rs;
      }
    }
    return null;
  }
}
