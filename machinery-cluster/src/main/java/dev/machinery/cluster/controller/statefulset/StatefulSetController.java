package dev.machinery.cluster.controller.statefulset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.api.apps.v1.ControllerRevision;
import dev.machinery.api.apps.v1.StatefulSet;
import dev.machinery.api.apps.v1.StatefulSetSpec;
import dev.machinery.api.apps.v1.StatefulSetStatus;
import dev.machinery.api.core.v1.PersistentVolumeClaim;
import dev.machinery.api.core.v1.PersistentVolumeClaimVolumeSource;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.PodTemplateSpec;
import dev.machinery.api.core.v1.Volume;
import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.controller.history.ControllerHistory;
import dev.machinery.cluster.controller.util.ControllerRefs;
import dev.machinery.cluster.controller.util.Copies;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Kubernetes' StatefulSet controller ({@code statefulset-controller}, Go's {@code
 * pkg/controller/statefulset}).
 *
 * <ul>
 *   <li>Pods {@code <set>-<ordinal>} from {@code spec.ordinals.start}, labelled {@code
 *       statefulset.kubernetes.io/pod-name}, {@code apps.kubernetes.io/pod-index} and {@code
 *       controller-revision-hash}, with the hostname of their name and the subdomain of {@code
 *       serviceName}; a claim {@code <claim>-<set>-<ordinal>} for each {@code volumeClaimTemplate},
 *       made before the pod and mounted by it.
 *   <li>{@code OrderedReady}: one pod at a time, each Running and Ready before the next, removed
 *       from the highest ordinal down, one at a time; {@code Parallel}: all at once. A failed pod
 *       is deleted and made again.
 *   <li>Revisions: {@code ControllerRevision}s {@code <set>-<hash>} holding the template (a
 *       strategic merge patch, as kube stores it); {@code RollingUpdate} replaces the pods not at
 *       the update revision from the highest ordinal down to {@code partition}, one at a time, each
 *       Ready before the next; {@code OnDelete} replaces only pods someone deleted. Once every pod
 *       is updated and ready, the update revision becomes the current one. Old revisions beyond
 *       {@code revisionHistoryLimit} are deleted.
 *   <li>Status: {@code replicas}, {@code readyReplicas}, {@code availableReplicas}, {@code
 *       currentReplicas}, {@code updatedReplicas}, {@code currentRevision}, {@code updateRevision},
 *       {@code observedGeneration}.
 * </ul>
 *
 * <p>Thread-safe: the controller's workers reconcile different sets at once.
 */
public final class StatefulSetController implements Reconciler {
  /** The controller's name and service account. */
  public static final String NAME = "statefulset-controller";

  static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
  static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
  static final String REVISION_LABEL = ControllerHistory.REVISION_LABEL;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Lister<StatefulSet> sets;
  private final Lister<Pod> pods;
  private final Lister<ControllerRevision> revisions;
  private final Lister<PersistentVolumeClaim> claims;
  private final Client client;
  private final ControllerHistory controllerHistory;
  private final EventRecorder events;
  private final Clock clock;
  private final CodecFactory codecs;
  private volatile Consumer<Request> wake = request -> {};

  private StatefulSetController(
      Lister<StatefulSet> sets,
      Lister<Pod> pods,
      Lister<ControllerRevision> revisions,
      Lister<PersistentVolumeClaim> claims,
      Client client,
      EventRecorder events,
      Clock clock) {
    this.sets = sets;
    this.pods = pods;
    this.revisions = revisions;
    this.claims = claims;
    this.client = client;
    this.controllerHistory = new ControllerHistory(client);
    this.events = events;
    this.clock = clock;
    this.codecs = CodecFactory.create(client.scheme());
  }

  /**
   * Sets the controller up on the shared StatefulSet, Pod, ControllerRevision and
   * PersistentVolumeClaim informers, with the {@code statefulset-controller} client and recorder.
   *
   * @param context the controller manager's context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    SharedIndexInformer<StatefulSet> setInformer = context.informer(StatefulSet.class);
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    SharedIndexInformer<ControllerRevision> revisionInformer =
        context.informer(ControllerRevision.class);
    SharedIndexInformer<PersistentVolumeClaim> claimInformer =
        context.informer(PersistentVolumeClaim.class);
    StatefulSetController reconciler =
        new StatefulSetController(
            setInformer.lister(),
            podInformer.lister(),
            revisionInformer.lister(),
            claimInformer.lister(),
            context.client(NAME),
            context.eventRecorder(NAME),
            context.clock());
    Controller controller =
        Controller.builder(NAME, reconciler)
            .watches(setInformer, EventHandlers.enqueueRequestForObject())
            .watches(
                podInformer,
                EventHandlers.enqueueRequestForOwner("apps", "StatefulSet", true, true))
            .watches(
                revisionInformer,
                EventHandlers.enqueueRequestForOwner("apps", "StatefulSet", true, true))
            .workers(2)
            .build();
    reconciler.wake = controller.queue()::add;
    context.add(controller);
  }

  @Override
  public Result reconcile(Request request) throws Exception {
    Optional<StatefulSet> cached = sets.namespace(request.namespace()).get(request.name());
    if (cached.isEmpty() || cached.get().getMetadata().getDeletionTimestamp() != null) {
      return Result.done();
    }
    StatefulSet set = Copies.of(cached.get());
    String uid = set.getMetadata().getUid();
    String namespace = request.namespace();
    List<Pod> owned = new ArrayList<>();
    for (Pod pod : pods.namespace(namespace).list(Selector.everything())) {
      if (controlledBy(pod.getMetadata(), uid)) {
        owned.add(pod);
      }
    }
    List<ControllerRevision> history = new ArrayList<>();
    for (ControllerRevision revision : revisions.namespace(namespace).list(Selector.everything())) {
      if (controlledBy(revision.getMetadata(), uid)) {
        history.add(revision);
      }
    }
    history.sort(Comparator.comparing(r -> r.getRevision() == null ? 0L : r.getRevision()));

    StatefulSetStatus status = set.getStatus() == null ? new StatefulSetStatus() : set.getStatus();
    StatefulSetStatus before = Copies.of(set).getStatus();
    ControllerRevision update = updateRevision(set, history);
    String updateRevision = update.getMetadata().getName();
    String recorded = status.getCurrentRevision();
    ControllerRevision current =
        recorded == null
            ? update
            : history.stream()
                .filter(r -> r.getMetadata().getName().equals(recorded))
                .findFirst()
                .orElse(update);

    Duration wakeIn = sync(set, owned, current, update);

    // Status from what the cache shows, as Go's computeReplicaStatus.
    int replicas = 0;
    int ready = 0;
    int available = 0;
    int currentReplicas = 0;
    int updatedReplicas = 0;
    int minReady =
        set.getSpec().getMinReadySeconds() == null ? 0 : set.getSpec().getMinReadySeconds();
    Instant now = clock.now();
    for (Pod pod : owned) {
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      replicas++;
      if (runningAndReady(pod)) {
        ready++;
        Instant since = readySince(pod);
        if (minReady == 0 || (since != null && !since.plusSeconds(minReady).isAfter(now))) {
          available++;
        } else if (since != null) {
          Duration left = Duration.between(now, since.plusSeconds(minReady));
          wakeIn = wakeIn == null || left.compareTo(wakeIn) < 0 ? left : wakeIn;
        }
      }
      String revision = labels(pod.getMetadata()).get(REVISION_LABEL);
      if (current.getMetadata().getName().equals(revision)) {
        currentReplicas++;
      }
      if (updateRevision.equals(revision)) {
        updatedReplicas++;
      }
    }
    status.setObservedGeneration(set.getMetadata().getGeneration());
    status.setReplicas(replicas);
    status.setReadyReplicas(ready);
    status.setAvailableReplicas(available);
    status.setCurrentReplicas(currentReplicas);
    status.setUpdatedReplicas(updatedReplicas);
    status.setCurrentRevision(current.getMetadata().getName());
    status.setUpdateRevision(updateRevision);
    int wanted = set.getSpec().getReplicas() == null ? 1 : set.getSpec().getReplicas();
    // Go's completeRollingUpdate.
    if (isRollingUpdate(set.getSpec())
        && updatedReplicas == wanted
        && ready == wanted
        && replicas == wanted) {
      status.setCurrentRevision(updateRevision);
      status.setCurrentReplicas(updatedReplicas);
    }
    set.setStatus(status);
    if (!Objects.equals(before, status)) {
      client
          .resources(StatefulSet.class)
          .inNamespace(namespace)
          .updateStatus(set, new UpdateOptions());
    }
    truncateHistory(set, history, owned, status);
    if (wakeIn != null) {
      clock.scheduleAt(now.plus(wakeIn), () -> wake.accept(request));
    }
    return Result.done();
  }

  /** Go's {@code updateStatefulSet}: one step of scaling and updating; a wake-up, or null. */
  private Duration sync(
      StatefulSet set, List<Pod> owned, ControllerRevision current, ControllerRevision update)
      throws Exception {
    StatefulSetSpec spec = set.getSpec();
    int replicas = spec.getReplicas() == null ? 1 : spec.getReplicas();
    int start =
        spec.getOrdinals() == null || spec.getOrdinals().getStart() == null
            ? 0
            : spec.getOrdinals().getStart();
    boolean monotonic = !"Parallel".equals(spec.getPodManagementPolicy());
    String name = set.getMetadata().getName();
    TreeMap<Integer, Pod> inRange = new TreeMap<>();
    List<Pod> condemned = new ArrayList<>();
    for (Pod pod : owned) {
      int ordinal = ordinal(name, pod.getMetadata().getName());
      if (ordinal >= start && ordinal < start + replicas) {
        inRange.put(ordinal, pod);
      } else if (ordinal >= 0) {
        condemned.add(pod);
      }
    }
    condemned.sort(
        Comparator.comparingInt((Pod p) -> ordinal(name, p.getMetadata().getName())).reversed());
    int partition =
        spec.getUpdateStrategy() != null
                && spec.getUpdateStrategy().getRollingUpdate() != null
                && spec.getUpdateStrategy().getRollingUpdate().getPartition() != null
            ? spec.getUpdateStrategy().getRollingUpdate().getPartition()
            : 0;

    for (int ordinal = start; ordinal < start + replicas; ordinal++) {
      Pod pod = inRange.get(ordinal);
      if (pod != null && isFinished(pod) && pod.getMetadata().getDeletionTimestamp() == null) {
        deletePod(set, pod);
        if (monotonic) {
          return null;
        }
        continue;
      }
      if (pod == null) {
        boolean atCurrent = isRollingUpdate(spec) && ordinal < start + partition;
        createPod(set, ordinal, atCurrent ? current : update);
        if (monotonic) {
          return null;
        }
        continue;
      }
      if (monotonic
          && (pod.getMetadata().getDeletionTimestamp() != null || !runningAndReady(pod))) {
        return null;
      }
    }
    for (Pod pod : condemned) {
      if (pod.getMetadata().getDeletionTimestamp() != null) {
        if (monotonic) {
          return null;
        }
        continue;
      }
      deletePod(set, pod);
      if (monotonic) {
        return null;
      }
    }
    if (!isRollingUpdate(spec)) {
      return null;
    }
    // Replace the pods of other revisions from the highest ordinal down to the partition.
    for (int ordinal = start + replicas - 1; ordinal >= start + partition; ordinal--) {
      Pod pod = inRange.get(ordinal);
      if (pod == null || pod.getMetadata().getDeletionTimestamp() != null) {
        return null;
      }
      String revision = labels(pod.getMetadata()).get(REVISION_LABEL);
      if (!update.getMetadata().getName().equals(revision)) {
        deletePod(set, pod);
        return null;
      }
      if (!runningAndReady(pod)) {
        return null;
      }
    }
    return null;
  }

  private void createPod(StatefulSet set, int ordinal, ControllerRevision revision)
      throws Exception {
    String namespace = set.getMetadata().getNamespace();
    String setName = set.getMetadata().getName();
    String podName = setName + "-" + ordinal;
    StatefulSet source = revision == null ? set : applyRevision(set, revision);
    PodTemplateSpec template = source.getSpec().getTemplate();
    ObjectMeta templateMeta =
        template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
    Map<String, String> labels = new LinkedHashMap<>(labels(templateMeta));
    labels.put(POD_NAME_LABEL, podName);
    labels.put(POD_INDEX_LABEL, Integer.toString(ordinal));
    labels.put(REVISION_LABEL, revision.getMetadata().getName());
    ObjectMeta meta = new ObjectMeta();
    meta.setName(podName);
    meta.setNamespace(namespace);
    meta.setLabels(labels);
    meta.setAnnotations(templateMeta.getAnnotations());
    meta.setFinalizers(templateMeta.getFinalizers());
    meta.setOwnerReferences(List.of(ownerReference(set)));
    Pod pod = new Pod();
    pod.setApiVersion("v1");
    pod.setKind("Pod");
    pod.setMetadata(meta);
    pod.setSpec(template.getSpec());
    pod.getSpec().setHostname(podName);
    if (set.getSpec().getServiceName() != null && !set.getSpec().getServiceName().isEmpty()) {
      pod.getSpec().setSubdomain(set.getSpec().getServiceName());
    }
    // Claims first, then the pod that mounts them.
    List<Volume> volumes =
        new ArrayList<>(
            pod.getSpec().getVolumes() == null ? List.of() : pod.getSpec().getVolumes());
    if (set.getSpec().getVolumeClaimTemplates() != null) {
      for (PersistentVolumeClaim claimTemplate : set.getSpec().getVolumeClaimTemplates()) {
        String templateName = claimTemplate.getMetadata().getName();
        String claimName = templateName + "-" + setName + "-" + ordinal;
        ensureClaim(set, claimTemplate, claimName, podName);
        volumes.removeIf(v -> templateName.equals(v.getName()));
        Volume volume = new Volume();
        volume.setName(templateName);
        PersistentVolumeClaimVolumeSource source1 = new PersistentVolumeClaimVolumeSource();
        source1.setClaimName(claimName);
        volume.setPersistentVolumeClaim(source1);
        volumes.add(volume);
      }
    }
    pod.getSpec().setVolumes(volumes.isEmpty() ? null : volumes);
    try {
      client.resources(Pod.class).inNamespace(namespace).create(pod);
      events.eventf(
          set,
          pod,
          Event.TYPE_NORMAL,
          "SuccessfulCreate",
          "Create",
          "create Pod %s in StatefulSet %s successful",
          podName,
          setName);
    } catch (Exception e) {
      if (ApiErrors.isAlreadyExists(e)) {
        return;
      }
      events.eventf(
          set,
          null,
          Event.TYPE_WARNING,
          "FailedCreate",
          "Create",
          "create Pod %s in StatefulSet %s failed error: %s",
          podName,
          setName,
          e.getMessage());
      throw e;
    }
  }

  private void ensureClaim(
      StatefulSet set, PersistentVolumeClaim template, String claimName, String podName)
      throws Exception {
    String namespace = set.getMetadata().getNamespace();
    if (claims.namespace(namespace).get(claimName).isPresent()) {
      return;
    }
    PersistentVolumeClaim claim = Copies.of(template);
    ObjectMeta meta = claim.getMetadata();
    meta.setName(claimName);
    meta.setNamespace(namespace);
    Map<String, String> labels = new LinkedHashMap<>(labels(meta));
    if (set.getSpec().getSelector() != null
        && set.getSpec().getSelector().getMatchLabels() != null) {
      labels.putAll(set.getSpec().getSelector().getMatchLabels());
    }
    meta.setLabels(labels.isEmpty() ? null : labels);
    claim.setApiVersion("v1");
    claim.setKind("PersistentVolumeClaim");
    claim.setStatus(null);
    try {
      client.resources(PersistentVolumeClaim.class).inNamespace(namespace).create(claim);
      events.eventf(
          set,
          claim,
          Event.TYPE_NORMAL,
          "SuccessfulCreate",
          "Create",
          "create Claim %s Pod %s in StatefulSet %s success",
          claimName,
          podName,
          set.getMetadata().getName());
    } catch (Exception e) {
      if (!ApiErrors.isAlreadyExists(e)) {
        events.eventf(
            set,
            null,
            Event.TYPE_WARNING,
            "FailedCreate",
            "Create",
            "create Claim %s for Pod %s in StatefulSet %s failed error: %s",
            claimName,
            podName,
            set.getMetadata().getName(),
            e.getMessage());
        throw e;
      }
    }
  }

  private void deletePod(StatefulSet set, Pod pod) throws Exception {
    try {
      client
          .resources(Pod.class)
          .inNamespace(pod.getMetadata().getNamespace())
          .delete(pod.getMetadata().getName(), new DeleteOptions());
      events.eventf(
          set,
          pod,
          Event.TYPE_NORMAL,
          "SuccessfulDelete",
          "Delete",
          "delete Pod %s in StatefulSet %s successful",
          pod.getMetadata().getName(),
          set.getMetadata().getName());
    } catch (Exception e) {
      if (!ApiErrors.isNotFound(e)) {
        events.eventf(
            set,
            pod,
            Event.TYPE_WARNING,
            "FailedDelete",
            "Delete",
            "delete Pod %s in StatefulSet %s failed error: %s",
            pod.getMetadata().getName(),
            set.getMetadata().getName(),
            e.getMessage());
        throw e;
      }
    }
  }

  /** The revision of the set's template: an equal one of the history, else a new one. */
  private ControllerRevision updateRevision(StatefulSet set, List<ControllerRevision> history)
      throws Exception {
    JsonNode data = ControllerHistory.templatePatch(JSON.readTree(Copies.json(set)));
    ControllerHistory.Owner owner =
        new ControllerHistory.Owner(
            set.getMetadata(),
            ownerReference(set),
            labels(set.getSpec().getTemplate().getMetadata()),
            set.getStatus() == null ? null : set.getStatus().getCollisionCount());
    return controllerHistory.currentRevision(
        owner,
        data,
        history,
        count -> {
          StatefulSetStatus status =
              set.getStatus() == null ? new StatefulSetStatus() : set.getStatus();
          status.setCollisionCount(count);
          set.setStatus(status);
          client
              .resources(StatefulSet.class)
              .inNamespace(set.getMetadata().getNamespace())
              .updateStatus(set, new UpdateOptions());
        });
  }

  /** The set with a revision's template (Go's {@code ApplyRevision}). */
  private StatefulSet applyRevision(StatefulSet set, ControllerRevision revision)
      throws IOException {
    Codec json = codecs.json();
    ObjectNode whole = (ObjectNode) JSON.readTree(json.encode(set));
    ObjectNode template = (ObjectNode) revision.getData().path("spec").path("template").deepCopy();
    template.remove("$patch");
    ((ObjectNode) whole.path("spec")).set("template", template);
    return json.decode(
            JSON.writeValueAsString(whole).getBytes(StandardCharsets.UTF_8), StatefulSet.class)
        .object();
  }

  /** Deletes the oldest revisions beyond the limit that neither status nor a pod uses. */
  private void truncateHistory(
      StatefulSet set, List<ControllerRevision> history, List<Pod> owned, StatefulSetStatus status)
      throws Exception {
    int limit =
        set.getSpec().getRevisionHistoryLimit() == null
            ? 10
            : set.getSpec().getRevisionHistoryLimit();
    List<ControllerRevision> unused = new ArrayList<>();
    for (ControllerRevision revision : history) {
      String name = revision.getMetadata().getName();
      boolean live =
          name.equals(status.getCurrentRevision())
              || name.equals(status.getUpdateRevision())
              || owned.stream()
                  .anyMatch(p -> name.equals(labels(p.getMetadata()).get(REVISION_LABEL)));
      if (!live) {
        unused.add(revision);
      }
    }
    controllerHistory.truncate(set.getMetadata().getNamespace(), unused, limit);
  }

  /**
   * The ordinal in a pod's name {@code <set>-<ordinal>}, or -1 (Go's {@code
   * getParentNameAndOrdinal}).
   */
  static int ordinal(String setName, String podName) {
    String prefix = setName + "-";
    if (!podName.startsWith(prefix)) {
      return -1;
    }
    String digits = podName.substring(prefix.length());
    if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 9) {
      return -1;
    }
    return Integer.parseInt(digits);
  }

  private static boolean isRollingUpdate(StatefulSetSpec spec) {
    return spec.getUpdateStrategy() == null
        || spec.getUpdateStrategy().getType() == null
        || "RollingUpdate".equals(spec.getUpdateStrategy().getType());
  }

  private static boolean isFinished(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Failed".equals(phase) || "Succeeded".equals(phase);
  }

  static boolean runningAndReady(Pod pod) {
    if (pod.getStatus() == null || !"Running".equals(pod.getStatus().getPhase())) {
      return false;
    }
    return readyCondition(pod).map(c -> "True".equals(c.getStatus())).orElse(false);
  }

  private static Instant readySince(Pod pod) {
    return readyCondition(pod)
        .map(c -> c.getLastTransitionTime() == null ? null : c.getLastTransitionTime().instant())
        .orElse(null);
  }

  private static Optional<PodCondition> readyCondition(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> "Ready".equals(c.getType()))
        .findFirst();
  }

  private static boolean controlledBy(ObjectMeta meta, String uid) {
    return ControllerRefs.controllerOf(meta).map(ref -> uid.equals(ref.getUid())).orElse(false);
  }

  private static OwnerReference ownerReference(StatefulSet set) {
    return ControllerRefs.newControllerRef("apps/v1", "StatefulSet", set.getMetadata());
  }

  private static Map<String, String> labels(ObjectMeta meta) {
    return meta == null || meta.getLabels() == null ? Map.of() : meta.getLabels();
  }
}
