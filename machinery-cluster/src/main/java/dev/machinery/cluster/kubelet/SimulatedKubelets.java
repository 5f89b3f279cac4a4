package dev.machinery.cluster.kubelet;

import dev.machinery.api.coordination.v1.Lease;
import dev.machinery.api.coordination.v1.LeaseSpec;
import dev.machinery.api.core.v1.Container;
import dev.machinery.api.core.v1.ContainerState;
import dev.machinery.api.core.v1.ContainerStateRunning;
import dev.machinery.api.core.v1.ContainerStateTerminated;
import dev.machinery.api.core.v1.ContainerStateWaiting;
import dev.machinery.api.core.v1.ContainerStatus;
import dev.machinery.api.core.v1.HostIP;
import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.NodeAddress;
import dev.machinery.api.core.v1.NodeCondition;
import dev.machinery.api.core.v1.NodeDaemonEndpoints;
import dev.machinery.api.core.v1.NodeSpec;
import dev.machinery.api.core.v1.NodeStatus;
import dev.machinery.api.core.v1.NodeSystemInfo;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.PodIP;
import dev.machinery.api.core.v1.PodReadinessGate;
import dev.machinery.api.core.v1.PodStatus;
import dev.machinery.api.core.v1.Taint;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.SimulatedNode;
import dev.machinery.cluster.controller.util.Copies;
import dev.machinery.cluster.scheduler.NodeFit;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.TerminalException;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.clock.Cancellable;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.MicroTime;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.Preconditions;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.resource.Quantity;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The simulated kubelets of a cluster's {@link SimulatedNode}s, one controller for them all, each
 * node writing as {@code system:node:<name>} in {@code system:nodes}.
 *
 * <p>A kubelet registers its {@code Node} (capacity and allocatable, kube's well-known labels, the
 * simulated node's taints, pod CIDR, an {@code InternalIP} address, system info and the four
 * conditions with the kubelet's reasons), renews the Lease {@code kube-node-lease/<node>} every 10s
 * (a quarter of its 40s duration) and reports the node's status every 5 minutes or when it changes,
 * all on the cluster's clock. The Node annotation {@value #READY_ANNOTATION}{@code : "false"} makes
 * the kubelet dead: no heartbeat, no status, no pod handled, until it is removed or set to {@code
 * "true"}.
 *
 * <p>It runs the pods bound to its node ({@code spec.nodeName}): admission (a {@code nodeSelector}
 * or required node affinity the node does not match fails the pod with reason {@code NodeAffinity};
 * an untolerated {@code NoExecute} taint with {@code TaintToleration}), then init containers run to
 * completion and the containers start: phase {@code Running}, container statuses, a pod IP from the
 * node's pod CIDR (the node's IP for {@code hostNetwork} pods), host IPs, and the conditions {@code
 * PodReadyToStartContainers}, {@code Initialized}, {@code ContainersReady}, {@code Ready} (only
 * when every readiness gate's condition is {@code True}) and {@code PodScheduled}. A pod annotated
 * {@value #RUN_FOR_ANNOTATION} (a Go duration) has its containers exit after that long, with the
 * exit code of {@value #EXIT_CODE_ANNOTATION} (0 by default); under {@code restartPolicy: Never}
 * the pod then ends {@code Succeeded} or {@code Failed}, under {@code OnFailure} a failed container
 * restarts, under {@code Always} every container restarts, after kube's back-off (10s doubling to 5
 * minutes, {@code CrashLoopBackOff} meanwhile). A pod being deleted has its containers stopped
 * after its grace period or {@link #STOP_TIME}, whichever is shorter, is reported terminated, then
 * deleted with grace period 0. Every pod write goes through {@code pods/status}.
 *
 * <p>Thread-safe: the controller's workers share per-node state in concurrent maps.
 */
public final class SimulatedKubelets implements Reconciler {
  /** The name in {@code --controllers}. */
  public static final String NAME = "kubelet";

  /** Node annotation: {@code "false"} stops the kubelet (a dead node); any other value resumes. */
  public static final String READY_ANNOTATION = "sim.machinery.dev/ready";

  /** Pod annotation: how long the containers run before they exit, a Go duration. */
  public static final String RUN_FOR_ANNOTATION = "sim.machinery.dev/run-for";

  /** Pod annotation: the containers' exit code when they exit, an integer (0 by default). */
  public static final String EXIT_CODE_ANNOTATION = "sim.machinery.dev/exit-code";

  /** The version the nodes report. */
  public static final String KUBELET_VERSION = "v1.33.0";

  /** How long a pod's containers take to stop when it is deleted (unless its grace is shorter). */
  public static final Duration STOP_TIME = Duration.ofSeconds(1);

  /** The Lease's duration, kube's {@code nodeLeaseDurationSeconds}. */
  public static final int LEASE_DURATION_SECONDS = 40;

  /** How often the Lease is renewed: a quarter of its duration. */
  public static final Duration LEASE_RENEW_INTERVAL = Duration.ofSeconds(10);

  /** How often the node's status is reported when nothing changed. */
  public static final Duration STATUS_REPORT_FREQUENCY = Duration.ofMinutes(5);

  private static final Duration BACKOFF_INITIAL = Duration.ofSeconds(10);
  private static final Duration BACKOFF_MAX = Duration.ofMinutes(5);
  private static final String NODE_LEASE_NAMESPACE = "kube-node-lease";

  private final ControllerContext context;
  private final Map<String, SimulatedNode> simulated = new LinkedHashMap<>();
  private final Map<String, String> nodeIps = new HashMap<>();
  private final Lister<Pod> pods;
  private final Lister<Node> nodes;
  private final Clock clock;
  private final Map<String, PodAddresses> addresses = new ConcurrentHashMap<>();
  private final Map<String, Instant> leaseRenewed = new ConcurrentHashMap<>();
  private final Map<String, Instant> statusReported = new ConcurrentHashMap<>();
  private final Map<String, Lease> leases = new ConcurrentHashMap<>();
  private final Map<String, Cancellable> wakes = new ConcurrentHashMap<>();
  private final Map<String, Instant> deletionSeen = new ConcurrentHashMap<>();
  private volatile RateLimitingQueue<Request> queue;

  private SimulatedKubelets(
      ControllerContext context, Lister<Pod> pods, Lister<Node> nodes, Scheme scheme) {
    this.context = context;
    this.pods = pods;
    this.nodes = nodes;
    this.clock = context.clock();
    int index = 0;
    for (SimulatedNode node : context.nodes()) {
      simulated.put(node.name(), node);
      nodeIps.put(node.name(), "172.18." + (index / 250) + "." + (index % 250 + 2));
      index++;
    }
  }

  /**
   * Sets the kubelets of {@link ControllerContext#nodes()} up: one controller watching pods and
   * nodes, whose first requests register the nodes.
   *
   * @param context the context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    if (context.nodes().isEmpty()) {
      return;
    }
    SharedIndexInformer<Pod> podInformer = context.informer(Pod.class);
    SharedIndexInformer<Node> nodeInformer = context.informer(Node.class);
    SimulatedKubelets kubelets =
        new SimulatedKubelets(
            context, podInformer.lister(), nodeInformer.lister(), context.sharedClient().scheme());
    Controller controller =
        Controller.builder(NAME, kubelets)
            .watches(podInformer, kubelets.boundPods())
            .watches(nodeInformer, kubelets.ownNodes())
            .workers(4)
            .build();
    kubelets.queue = controller.queue();
    for (String node : kubelets.simulated.keySet()) {
      controller.queue().add(new Request("", node));
    }
    context.add(controller);
  }

  private Client client(String node) {
    return context.clientAs("system:node:" + node, List.of("system:nodes"));
  }

  private EventHandler<Pod> boundPods() {
    return new EventHandler<>() {
      @Override
      public void create(Pod pod, RateLimitingQueue<Request> queue) {
        if (ours(pod)) {
          queue.add(Request.of(pod));
        }
      }

      @Override
      public void update(Pod oldPod, Pod newPod, RateLimitingQueue<Request> queue) {
        if (ours(newPod)) {
          queue.add(Request.of(newPod));
        }
      }

      @Override
      public void delete(Pod pod, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        if (ours(pod)) {
          queue.add(Request.of(pod));
        }
      }
    };
  }

  private EventHandler<Node> ownNodes() {
    return new EventHandler<>() {
      @Override
      public void create(Node node, RateLimitingQueue<Request> queue) {
        enqueue(node, queue);
        // Pods bound before the node registered wait for it.
        for (Pod pod : pods.list(Selector.everything())) {
          if (node.getMetadata().getName().equals(nodeName(pod))) {
            queue.add(Request.of(pod));
          }
        }
      }

      @Override
      public void update(Node oldNode, Node newNode, RateLimitingQueue<Request> queue) {
        enqueue(newNode, queue);
        if (!Objects.equals(dead(oldNode), dead(newNode))) {
          // A kubelet coming back looks at its pods again.
          for (Pod pod : pods.list(Selector.everything())) {
            if (newNode.getMetadata().getName().equals(nodeName(pod))) {
              queue.add(Request.of(pod));
            }
          }
        }
      }

      @Override
      public void delete(Node node, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        enqueue(node, queue);
      }

      private void enqueue(Node node, RateLimitingQueue<Request> queue) {
        if (simulated.containsKey(node.getMetadata().getName())) {
          queue.add(new Request("", node.getMetadata().getName()));
        }
      }
    };
  }

  private boolean ours(Pod pod) {
    String node = nodeName(pod);
    return node != null && simulated.containsKey(node);
  }

  private static String nodeName(Pod pod) {
    return pod.getSpec() == null ? null : pod.getSpec().getNodeName();
  }

  static boolean dead(Node node) {
    Map<String, String> annotations = node.getMetadata().getAnnotations();
    return annotations != null && "false".equals(annotations.get(READY_ANNOTATION));
  }

  @Override
  public Result reconcile(Request request) throws Exception {
    try {
      if (request.namespace().isEmpty()) {
        return reconcileNode(request.name());
      }
      return reconcilePod(request);
    } catch (IllegalArgumentException e) {
      // A pod's annotation the kubelet cannot read: reported once, not retried.
      throw new TerminalException(request + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      if (ApiErrors.isConflict(e)) {
        // Written over a newer version than the cache held: try again once it has caught up.
        return Result.requeueRateLimited();
      }
      throw e;
    }
  }

  // ---- nodes ----

  private Result reconcileNode(String name) {
    SimulatedNode sim = simulated.get(name);
    if (sim == null) {
      return Result.done();
    }
    ResourceClient<Node> client = client(name).resources(Node.class);
    Node node = nodes.get(name).orElse(null);
    if (node == null) {
      try {
        node = client.get(name);
      } catch (RuntimeException e) {
        if (!ApiErrors.isNotFound(e)) {
          throw e;
        }
        node = register(client, sim);
      }
    }
    if (dead(node)) {
      return Result.done();
    }
    Instant now = clock.now();
    Instant renewed = leaseRenewed.get(name);
    if (renewed == null || !now.isBefore(renewed.plus(LEASE_RENEW_INTERVAL))) {
      renewLease(node, now);
      renewed = now;
      leaseRenewed.put(name, now);
    }
    Instant reported = statusReported.get(name);
    NodeStatus wanted = nodeStatus(sim, node, now);
    boolean due = reported == null || !now.isBefore(reported.plus(STATUS_REPORT_FREQUENCY));
    if (due || changed(node.getStatus(), wanted)) {
      Node copy = Copies.of(node);
      copy.setStatus(wanted);
      client.updateStatus(copy, new dev.machinery.unversioned.meta.v1.UpdateOptions());
      reported = now;
      statusReported.put(name, now);
    }
    Instant next = renewed.plus(LEASE_RENEW_INTERVAL);
    Instant nextReport = reported.plus(STATUS_REPORT_FREQUENCY);
    wakeAt(new Request("", name), next.isBefore(nextReport) ? next : nextReport);
    return Result.done();
  }

  private Node register(ResourceClient<Node> client, SimulatedNode sim) {
    Node node = new Node();
    node.setApiVersion("v1");
    node.setKind("Node");
    ObjectMeta meta = new ObjectMeta();
    meta.setName(sim.name());
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("beta.kubernetes.io/arch", "amd64");
    labels.put("beta.kubernetes.io/os", "linux");
    labels.put("kubernetes.io/arch", "amd64");
    labels.put("kubernetes.io/hostname", sim.name());
    labels.put("kubernetes.io/os", "linux");
    labels.putAll(sim.labels());
    meta.setLabels(labels);
    meta.setAnnotations(
        Map.of(
            "node.alpha.kubernetes.io/ttl", "0",
            "volumes.kubernetes.io/controller-managed-attach-detach", "true"));
    node.setMetadata(meta);
    NodeSpec spec = new NodeSpec();
    spec.setPodCIDR(sim.podCidr());
    spec.setPodCIDRs(List.of(sim.podCidr()));
    List<Taint> taints = new ArrayList<>();
    for (String taint : sim.taints()) {
      taints.add(parseTaint(taint));
    }
    if (!taints.isEmpty()) {
      spec.setTaints(taints);
    }
    node.setSpec(spec);
    node.setStatus(nodeStatus(sim, null, clock.now()));
    try {
      return client.create(node);
    } catch (RuntimeException e) {
      if (ApiErrors.isAlreadyExists(e)) {
        return client.get(sim.name());
      }
      throw e;
    }
  }

  /**
   * Parses a taint as {@code kubectl taint} writes it: {@code key[=value]:Effect}.
   *
   * @param text the taint
   * @return the taint
   * @throws IllegalArgumentException naming the text when it has no effect or an unknown one
   */
  public static Taint parseTaint(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("taint \"" + text + "\": expected key[=value]:Effect");
    }
    String effect = text.substring(colon + 1);
    if (!Set.of("NoSchedule", "PreferNoSchedule", "NoExecute").contains(effect)) {
      throw new IllegalArgumentException(
          "taint \""
              + text
              + "\": invalid taint effect: "
              + effect
              + ", unsupported taint effect; supported values: NoSchedule, PreferNoSchedule,"
              + " NoExecute");
    }
    String keyValue = text.substring(0, colon);
    Taint taint = new Taint();
    int equals = keyValue.indexOf('=');
    taint.setKey(equals < 0 ? keyValue : keyValue.substring(0, equals));
    if (equals >= 0) {
      taint.setValue(keyValue.substring(equals + 1));
    }
    taint.setEffect(effect);
    return taint;
  }

  private NodeStatus nodeStatus(SimulatedNode sim, Node current, Instant now) {
    NodeStatus status = new NodeStatus();
    Map<String, Quantity> capacity = new LinkedHashMap<>();
    sim.capacity().forEach((name, value) -> capacity.put(name, Quantity.parse(value)));
    status.setCapacity(capacity);
    status.setAllocatable(new LinkedHashMap<>(capacity));
    Time heartbeat = new Time(now.truncatedTo(ChronoUnit.SECONDS));
    List<NodeCondition> conditions = new ArrayList<>();
    conditions.add(
        condition(
            current,
            "MemoryPressure",
            "False",
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
            heartbeat));
    conditions.add(
        condition(
            current,
            "DiskPressure",
            "False",
            "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure",
            heartbeat));
    conditions.add(
        condition(
            current,
            "PIDPressure",
            "False",
            "KubeletHasSufficientPID",
            "kubelet has sufficient PID available",
            heartbeat));
    conditions.add(
        condition(
            current,
            "Ready",
            "True",
            "KubeletReady",
            "kubelet is posting ready status",
            heartbeat));
    status.setConditions(conditions);
    NodeAddress internal = new NodeAddress();
    internal.setType("InternalIP");
    internal.setAddress(nodeIps.get(sim.name()));
    NodeAddress hostname = new NodeAddress();
    hostname.setType("Hostname");
    hostname.setAddress(sim.name());
    status.setAddresses(List.of(internal, hostname));
    NodeDaemonEndpoints endpoints = new NodeDaemonEndpoints();
    dev.machinery.api.core.v1.DaemonEndpoint kubelet =
        new dev.machinery.api.core.v1.DaemonEndpoint();
    kubelet.setPort(10250);
    endpoints.setKubeletEndpoint(kubelet);
    status.setDaemonEndpoints(endpoints);
    NodeSystemInfo info = new NodeSystemInfo();
    String id = UUID.nameUUIDFromBytes(sim.name().getBytes(StandardCharsets.UTF_8)).toString();
    info.setMachineID(id.replace("-", ""));
    info.setSystemUUID(id);
    info.setBootID(
        UUID.nameUUIDFromBytes((sim.name() + "/boot").getBytes(StandardCharsets.UTF_8)).toString());
    info.setKernelVersion("6.8.0-machinery");
    info.setOsImage("Machinery simulated node");
    info.setContainerRuntimeVersion("containerd://2.0.5");
    info.setKubeletVersion(KUBELET_VERSION);
    info.setKubeProxyVersion("");
    info.setOperatingSystem("linux");
    info.setArchitecture("amd64");
    status.setNodeInfo(info);
    return status;
  }

  private static NodeCondition condition(
      Node current, String type, String status, String reason, String message, Time heartbeat) {
    NodeCondition condition = new NodeCondition();
    condition.setType(type);
    condition.setStatus(status);
    condition.setReason(reason);
    condition.setMessage(message);
    condition.setLastHeartbeatTime(heartbeat);
    condition.setLastTransitionTime(heartbeat);
    if (current != null
        && current.getStatus() != null
        && current.getStatus().getConditions() != null) {
      for (NodeCondition before : current.getStatus().getConditions()) {
        if (type.equals(before.getType())
            && status.equals(before.getStatus())
            && before.getLastTransitionTime() != null) {
          condition.setLastTransitionTime(before.getLastTransitionTime());
        }
      }
    }
    return condition;
  }

  /** Whether the status differs from the wanted one beyond heartbeat times. */
  private static boolean changed(NodeStatus current, NodeStatus wanted) {
    if (current == null) {
      return true;
    }
    if (!Objects.equals(current.getAddresses(), wanted.getAddresses())
        || !Objects.equals(current.getNodeInfo(), wanted.getNodeInfo())
        || !sameQuantities(current.getCapacity(), wanted.getCapacity())
        || !sameQuantities(current.getAllocatable(), wanted.getAllocatable())) {
      return true;
    }
    List<NodeCondition> have =
        current.getConditions() == null ? List.of() : current.getConditions();
    for (NodeCondition want : wanted.getConditions()) {
      boolean found = false;
      for (NodeCondition h : have) {
        if (want.getType().equals(h.getType())
            && want.getStatus().equals(h.getStatus())
            && Objects.equals(want.getReason(), h.getReason())) {
          found = true;
        }
      }
      if (!found) {
        return true;
      }
    }
    return false;
  }

  private static boolean sameQuantities(Map<String, Quantity> a, Map<String, Quantity> b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (!a.keySet().equals(b.keySet())) {
      return false;
    }
    for (Map.Entry<String, Quantity> entry : a.entrySet()) {
      if (entry.getValue().compareTo(b.get(entry.getKey())) != 0) {
        return false;
      }
    }
    return true;
  }

  private void renewLease(Node node, Instant now) {
    String name = node.getMetadata().getName();
    ResourceClient<Lease> client =
        client(name).resources(Lease.class).inNamespace(NODE_LEASE_NAMESPACE);
    Lease lease = leases.get(name);
    if (lease != null) {
      Lease copy = Copies.of(lease);
      copy.getSpec().setRenewTime(new MicroTime(now));
      try {
        leases.put(name, client.update(copy));
        return;
      } catch (RuntimeException e) {
        if (!ApiErrors.isConflict(e) && !ApiErrors.isNotFound(e)) {
          throw e;
        }
        leases.remove(name);
      }
    }
    Lease current;
    try {
      current = client.get(name);
    } catch (RuntimeException e) {
      if (!ApiErrors.isNotFound(e)) {
        throw e;
      }
      current = null;
    }
    if (current == null) {
      Lease created = new Lease();
      created.setApiVersion("coordination.k8s.io/v1");
      created.setKind("Lease");
      ObjectMeta meta = new ObjectMeta();
      meta.setName(name);
      meta.setNamespace(NODE_LEASE_NAMESPACE);
      OwnerReference owner = new OwnerReference();
      owner.setApiVersion("v1");
      owner.setKind("Node");
      owner.setName(name);
      owner.setUid(node.getMetadata().getUid());
      meta.setOwnerReferences(List.of(owner));
      created.setMetadata(meta);
      LeaseSpec spec = new LeaseSpec();
      spec.setHolderIdentity(name);
      spec.setLeaseDurationSeconds(LEASE_DURATION_SECONDS);
      spec.setRenewTime(new MicroTime(now));
      created.setSpec(spec);
      leases.put(name, client.create(created));
      return;
    }
    if (current.getSpec() == null) {
      current.setSpec(new LeaseSpec());
    }
    current.getSpec().setHolderIdentity(name);
    current.getSpec().setLeaseDurationSeconds(LEASE_DURATION_SECONDS);
    current.getSpec().setRenewTime(new MicroTime(now));
    leases.put(name, client.update(current));
  }

  private void wakeAt(Request request, Instant when) {
    String key = request.toString();
    Cancellable previous =
        wakes.put(
            key,
            clock.scheduleAt(
                when,
                () -> {
                  RateLimitingQueue<Request> q = queue;
                  if (q != null) {
                    q.add(request);
                  }
                }));
    if (previous != null) {
      previous.cancel();
    }
  }

  private void cancelWake(Request request) {
    Cancellable previous = wakes.remove(request.toString());
    if (previous != null) {
      previous.cancel();
    }
  }

  // ---- pods ----

  private Result reconcilePod(Request request) {
    String key = request.namespace() + "/" + request.name();
    Optional<Pod> found = pods.namespace(request.namespace()).get(request.name());
    if (found.isEmpty()) {
      cancelWake(request);
      addresses.values().forEach(a -> a.release(key));
      return Result.done();
    }
    Pod pod = found.get();
    String nodeName = nodeName(pod);
    SimulatedNode sim = nodeName == null ? null : simulated.get(nodeName);
    if (sim == null) {
      return Result.done();
    }
    Node node = nodes.get(nodeName).orElse(null);
    if (node == null || dead(node)) {
      return Result.done();
    }
    PodAddresses ips = addresses(sim);
    ResourceClient<Pod> client =
        client(nodeName).resources(Pod.class).inNamespace(request.namespace());
    Instant now = clock.now();
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    boolean terminal = "Succeeded".equals(phase) || "Failed".equals(phase);
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      return terminate(pod, client, ips, key, terminal, now);
    }
    if (terminal) {
      cancelWake(request);
      ips.release(key);
      return Result.done();
    }
    PodStatus status = pod.getStatus() == null ? new PodStatus() : Copies.of(pod).getStatus();
    boolean started =
        status.getContainerStatuses() != null && !status.getContainerStatuses().isEmpty();
    if (!started) {
      Optional<String[]> rejection = admit(pod, node);
      if (rejection.isPresent()) {
        status.setPhase("Failed");
        status.setReason(rejection.get()[0]);
        status.setMessage("Pod was rejected: " + rejection.get()[1]);
        write(client, pod, status);
        return Result.done();
      }
      start(pod, status, node, ips, key, now);
    } else {
      Optional<Instant> wake = advance(pod, status, now);
      wake.ifPresentOrElse(when -> wakeAt(request, when), () -> cancelWake(request));
    }
    setConditions(pod, status, now);
    if (!Objects.equals(status, pod.getStatus())) {
      write(client, pod, status);
    }
    if (!started) {
      Optional<Instant> wake = runEnds(pod, status);
      wake.ifPresent(when -> wakeAt(request, when));
    }
    return Result.done();
  }

  private PodAddresses addresses(SimulatedNode sim) {
    return addresses.computeIfAbsent(
        sim.name(),
        name -> {
          PodAddresses made = new PodAddresses(sim.podCidr());
          for (Pod other : pods.list(Selector.everything())) {
            if (name.equals(nodeName(other))
                && other.getStatus() != null
                && other.getStatus().getPodIP() != null
                && !Boolean.TRUE.equals(other.getSpec().getHostNetwork())) {
              made.reserve(
                  other.getMetadata().getNamespace() + "/" + other.getMetadata().getName(),
                  other.getStatus().getPodIP());
            }
          }
          return made;
        });
  }

  /** The kubelet's admission: {reason, message} when the pod cannot run here. */
  static Optional<String[]> admit(Pod pod, Node node) {
    if (!NodeFit.matchesNodeSelectorAndAffinity(pod, node)) {
      return Optional.of(
          new String[] {
            "NodeAffinity",
            "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"
          });
    }
    List<Taint> taints = node.getSpec() == null ? null : node.getSpec().getTaints();
    if (taints != null) {
      for (Taint taint : taints) {
        if ("NoExecute".equals(taint.getEffect())
            && !NodeFit.tolerated(pod.getSpec().getTolerations(), taint)) {
          return Optional.of(
              new String[] {
                "TaintToleration",
                "Predicate TaintToleration failed: " + NodeFit.untoleratedTaintReason(taint)
              });
        }
      }
    }
    return Optional.empty();
  }

  private void start(
      Pod pod, PodStatus status, Node node, PodAddresses ips, String key, Instant now) {
    Time started = new Time(now.truncatedTo(ChronoUnit.SECONDS));
    String nodeIp = nodeIps.get(node.getMetadata().getName());
    String podIp = Boolean.TRUE.equals(pod.getSpec().getHostNetwork()) ? nodeIp : ips.allocate(key);
    status.setPhase("Running");
    status.setHostIP(nodeIp);
    HostIP hostIp = new HostIP();
    hostIp.setIp(nodeIp);
    status.setHostIPs(List.of(hostIp));
    status.setPodIP(podIp);
    PodIP ip = new PodIP();
    ip.setIp(podIp);
    status.setPodIPs(List.of(ip));
    if (status.getStartTime() == null) {
      status.setStartTime(started);
    }
    if (status.getQosClass() == null) {
      status.setQosClass(qosClass(pod));
    }
    if (pod.getSpec().getInitContainers() != null && !pod.getSpec().getInitContainers().isEmpty()) {
      List<ContainerStatus> inits = new ArrayList<>();
      for (Container init : pod.getSpec().getInitContainers()) {
        if ("Always".equals(init.getRestartPolicy())) {
          inits.add(running(pod, init, started, 0, null));
        } else {
          ContainerStatus done = base(pod, init, 0);
          done.setState(terminatedState(pod, init, 0, 0, started, started));
          done.setReady(true);
          done.setStarted(false);
          inits.add(done);
        }
      }
      status.setInitContainerStatuses(inits);
    }
    List<ContainerStatus> containers = new ArrayList<>();
    for (Container container : pod.getSpec().getContainers()) {
      containers.add(running(pod, container, started, 0, null));
    }
    status.setContainerStatuses(containers);
  }

  /** Moves containers on as time passes; returns when to look again. */
  private Optional<Instant> advance(Pod pod, PodStatus status, Instant now) {
    Duration runFor = runFor(pod);
    int exitCode = exitCode(pod);
    String policy = restartPolicy(pod);
    Instant next = null;
    List<ContainerStatus> statuses = status.getContainerStatuses();
    Map<String, Container> specs = new HashMap<>();
    for (Container c : pod.getSpec().getContainers()) {
      specs.put(c.getName(), c);
    }
    for (int i = 0; i < statuses.size(); i++) {
      ContainerStatus cs = statuses.get(i);
      Container spec = specs.get(cs.getName());
      if (spec == null || cs.getState() == null) {
        continue;
      }
      ContainerState state = cs.getState();
      int restarts = cs.getRestartCount() == null ? 0 : cs.getRestartCount();
      if (state.getRunning() != null && runFor != null) {
        Instant startedAt = state.getRunning().getStartedAt().instant();
        Instant ends = startedAt.plus(runFor);
        if (now.isBefore(ends)) {
          next = earliest(next, ends);
          continue;
        }
        Time finished = new Time(ends.truncatedTo(ChronoUnit.SECONDS));
        ContainerState terminated =
            terminatedState(
                pod, spec, restarts, exitCode, state.getRunning().getStartedAt(), finished);
        boolean restart = "Always".equals(policy) || ("OnFailure".equals(policy) && exitCode != 0);
        ContainerStatus after = base(pod, spec, restarts);
        after.setReady(false);
        after.setStarted(false);
        if (restart) {
          after.setLastState(terminated);
          ContainerState waiting = new ContainerState();
          ContainerStateWaiting crash = new ContainerStateWaiting();
          crash.setReason("CrashLoopBackOff");
          crash.setMessage(
              "back-off "
                  + formatGo(backoff(restarts))
                  + " restarting failed container="
                  + spec.getName()
                  + " pod="
                  + pod.getMetadata().getName()
                  + "_"
                  + pod.getMetadata().getNamespace()
                  + "("
                  + pod.getMetadata().getUid()
                  + ")");
          waiting.setWaiting(crash);
          after.setState(waiting);
          next = earliest(next, ends.plus(backoff(restarts)));
        } else {
          after.setState(terminated);
          after.setLastState(cs.getLastState());
        }
        statuses.set(i, after);
      } else if (state.getWaiting() != null
          && cs.getLastState() != null
          && cs.getLastState().getTerminated() != null) {
        Instant finished = cs.getLastState().getTerminated().getFinishedAt().instant();
        Instant due = finished.plus(backoff(restarts));
        if (now.isBefore(due)) {
          next = earliest(next, due);
          continue;
        }
        ContainerStatus again =
            running(
                pod,
                spec,
                new Time(now.truncatedTo(ChronoUnit.SECONDS)),
                restarts + 1,
                cs.getLastState());
        statuses.set(i, again);
        if (runFor != null) {
          next = earliest(next, now.plus(runFor));
        }
      }
    }
    boolean allTerminated = true;
    boolean allSucceeded = true;
    for (ContainerStatus cs : statuses) {
      if (cs.getState() == null || cs.getState().getTerminated() == null) {
        allTerminated = false;
      } else if (cs.getState().getTerminated().getExitCode() != 0) {
        allSucceeded = false;
      }
    }
    if (allTerminated) {
      status.setPhase(allSucceeded ? "Succeeded" : "Failed");
      return Optional.empty();
    }
    return Optional.ofNullable(next);
  }

  private Optional<Instant> runEnds(Pod pod, PodStatus status) {
    Duration runFor = runFor(pod);
    if (runFor == null || status.getContainerStatuses() == null) {
      return Optional.empty();
    }
    Instant next = null;
    for (ContainerStatus cs : status.getContainerStatuses()) {
      if (cs.getState() != null && cs.getState().getRunning() != null) {
        next = earliest(next, cs.getState().getRunning().getStartedAt().instant().plus(runFor));
      }
    }
    return Optional.ofNullable(next);
  }

  private Result terminate(
      Pod pod,
      ResourceClient<Pod> client,
      PodAddresses ips,
      String key,
      boolean terminal,
      Instant now) {
    Request request = new Request(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
    if (!terminal && pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
      long grace =
          pod.getMetadata().getDeletionGracePeriodSeconds() == null
              ? 0
              : pod.getMetadata().getDeletionGracePeriodSeconds();
      // The stop is timed from when this kubelet saw the deletion, on the cluster's clock (the
      // deletion timestamp is the server's wall clock, which a test's clock need not follow).
      Instant asked = deletionSeen.computeIfAbsent(pod.getMetadata().getUid(), uid -> now);
      Duration stop =
          Duration.ofSeconds(grace).compareTo(STOP_TIME) < 0
              ? Duration.ofSeconds(grace)
              : STOP_TIME;
      Instant stopped = asked.plus(stop);
      if (now.isBefore(stopped)) {
        wakeAt(request, stopped);
        return Result.done();
      }
      PodStatus status = Copies.of(pod).getStatus();
      Time finished = new Time(now.truncatedTo(ChronoUnit.SECONDS));
      boolean allZero = true;
      List<ContainerStatus> after = new ArrayList<>();
      Map<String, Container> specs = new HashMap<>();
      for (Container c : pod.getSpec().getContainers()) {
        specs.put(c.getName(), c);
      }
      for (ContainerStatus cs : status.getContainerStatuses()) {
        Container spec = specs.get(cs.getName());
        if (cs.getState() != null && cs.getState().getTerminated() != null) {
          allZero &= cs.getState().getTerminated().getExitCode() == 0;
          after.add(cs);
          continue;
        }
        Time startedAt =
            cs.getState() != null && cs.getState().getRunning() != null
                ? cs.getState().getRunning().getStartedAt()
                : finished;
        ContainerStatus done =
            base(
                pod,
                spec == null ? named(cs.getName(), cs.getImage()) : spec,
                cs.getRestartCount() == null ? 0 : cs.getRestartCount());
        done.setLastState(cs.getLastState());
        done.setState(
            terminatedState(
                pod,
                spec == null ? named(cs.getName(), cs.getImage()) : spec,
                done.getRestartCount(),
                0,
                startedAt,
                finished));
        done.setReady(false);
        done.setStarted(false);
        after.add(done);
      }
      status.setContainerStatuses(after);
      status.setPhase(allZero ? "Succeeded" : "Failed");
      setConditions(pod, status, now);
      write(client, pod, status);
    }
    cancelWake(request);
    ips.release(key);
    deletionSeen.remove(pod.getMetadata().getUid());
    DeleteOptions options = new DeleteOptions();
    options.setGracePeriodSeconds(0L);
    Preconditions preconditions = new Preconditions();
    preconditions.setUid(pod.getMetadata().getUid());
    options.setPreconditions(preconditions);
    try {
      client.delete(pod.getMetadata().getName(), options);
    } catch (RuntimeException e) {
      if (!ApiErrors.isNotFound(e) && !ApiErrors.isConflict(e)) {
        throw e;
      }
    }
    return Result.done();
  }

  private static Container named(String name, String image) {
    Container c = new Container();
    c.setName(name);
    c.setImage(image);
    return c;
  }

  private void write(ResourceClient<Pod> client, Pod pod, PodStatus status) {
    Pod copy = Copies.of(pod);
    copy.setStatus(status);
    client.updateStatus(copy, new dev.machinery.unversioned.meta.v1.UpdateOptions());
  }

  private static void setConditions(Pod pod, PodStatus status, Instant now) {
    Time time = new Time(now.truncatedTo(ChronoUnit.SECONDS));
    boolean terminal = "Succeeded".equals(status.getPhase()) || "Failed".equals(status.getPhase());
    List<String> unready = new ArrayList<>();
    if (status.getContainerStatuses() != null) {
      for (ContainerStatus cs : status.getContainerStatuses()) {
        if (!Boolean.TRUE.equals(cs.getReady())) {
          unready.add(cs.getName());
        }
      }
    }
    List<PodCondition> conditions =
        status.getConditions() == null
            ? new ArrayList<>()
            : new ArrayList<>(status.getConditions());
    set(conditions, "PodReadyToStartContainers", terminal ? "False" : "True", null, null, time);
    set(conditions, "Initialized", "True", null, null, time);
    String notReadyReason = terminal ? "PodCompleted" : "ContainersNotReady";
    String notReadyMessage =
        terminal ? null : "containers with unready status: [" + String.join(" ", unready) + "]";
    if (unready.isEmpty() && !terminal) {
      set(conditions, "ContainersReady", "True", null, null, time);
    } else {
      set(conditions, "ContainersReady", "False", notReadyReason, notReadyMessage, time);
    }
    if (!unready.isEmpty() || terminal) {
      set(conditions, "Ready", "False", notReadyReason, notReadyMessage, time);
    } else {
      List<String> gates = new ArrayList<>();
      if (pod.getSpec().getReadinessGates() != null) {
        for (PodReadinessGate gate : pod.getSpec().getReadinessGates()) {
          PodCondition c = find(conditions, gate.getConditionType());
          if (c == null) {
            gates.add(
                "corresponding condition of pod readiness gate \""
                    + gate.getConditionType()
                    + "\" does not exist.");
          } else if (!"True".equals(c.getStatus())) {
            gates.add(
                "the status of pod readiness gate \""
                    + gate.getConditionType()
                    + "\" is not \"True\", but "
                    + c.getStatus());
          }
        }
      }
      if (gates.isEmpty()) {
        set(conditions, "Ready", "True", null, null, time);
      } else {
        set(conditions, "Ready", "False", "ReadinessGatesNotReady", String.join(", ", gates), time);
      }
    }
    if (find(conditions, "PodScheduled") == null) {
      set(conditions, "PodScheduled", "True", null, null, time);
    }
    List<PodCondition> ordered = new ArrayList<>();
    for (String type :
        List.of(
            "PodReadyToStartContainers",
            "Initialized",
            "Ready",
            "ContainersReady",
            "PodScheduled")) {
      PodCondition c = find(conditions, type);
      if (c != null) {
        ordered.add(c);
      }
    }
    for (PodCondition c : conditions) {
      if (!ordered.contains(c)) {
        ordered.add(c);
      }
    }
    status.setConditions(ordered);
  }

  private static PodCondition find(List<PodCondition> conditions, String type) {
    for (PodCondition c : conditions) {
      if (type.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  private static void set(
      List<PodCondition> conditions,
      String type,
      String status,
      String reason,
      String message,
      Time time) {
    PodCondition existing = find(conditions, type);
    if (existing != null
        && status.equals(existing.getStatus())
        && Objects.equals(reason, existing.getReason())
        && Objects.equals(message, existing.getMessage())) {
      return;
    }
    PodCondition c = new PodCondition();
    c.setType(type);
    c.setStatus(status);
    c.setReason(reason);
    c.setMessage(message);
    c.setLastTransitionTime(
        existing != null && status.equals(existing.getStatus())
            ? existing.getLastTransitionTime()
            : time);
    if (existing != null) {
      conditions.set(conditions.indexOf(existing), c);
    } else {
      conditions.add(c);
    }
  }

  private ContainerStatus running(
      Pod pod, Container container, Time startedAt, int restarts, ContainerState lastState) {
    ContainerStatus cs = base(pod, container, restarts);
    ContainerState state = new ContainerState();
    ContainerStateRunning running = new ContainerStateRunning();
    running.setStartedAt(startedAt);
    state.setRunning(running);
    cs.setState(state);
    cs.setLastState(lastState == null ? new ContainerState() : lastState);
    cs.setReady(true);
    cs.setStarted(true);
    return cs;
  }

  private static ContainerStatus base(Pod pod, Container container, int restarts) {
    ContainerStatus cs = new ContainerStatus();
    cs.setName(container.getName());
    cs.setImage(imageName(container.getImage()));
    cs.setImageID(
        imageName(container.getImage()).replaceFirst(":[^:/]*$", "")
            + "@sha256:"
            + sha256(container.getImage()));
    cs.setContainerID("containerd://" + containerId(pod, container, restarts));
    cs.setRestartCount(restarts);
    cs.setLastState(new ContainerState());
    return cs;
  }

  private static ContainerState terminatedState(
      Pod pod, Container container, int restarts, int exitCode, Time startedAt, Time finishedAt) {
    ContainerState state = new ContainerState();
    ContainerStateTerminated terminated = new ContainerStateTerminated();
    terminated.setExitCode(exitCode);
    terminated.setReason(exitCode == 0 ? "Completed" : "Error");
    terminated.setStartedAt(startedAt);
    terminated.setFinishedAt(finishedAt);
    terminated.setContainerID("containerd://" + containerId(pod, container, restarts));
    state.setTerminated(terminated);
    return state;
  }

  /** The image as the runtime reports it: {@code docker.io/library/} and {@code :latest} added. */
  static String imageName(String image) {
    if (image == null || image.isEmpty()) {
      return "";
    }
    String name = image;
    int slash = name.indexOf('/');
    String first = slash < 0 ? "" : name.substring(0, slash);
    if (slash < 0) {
      name = "docker.io/library/" + name;
    } else if (!first.contains(".") && !first.contains(":") && !first.equals("localhost")) {
      name = "docker.io/" + name;
    }
    int lastSlash = name.lastIndexOf('/');
    if (!name.contains("@") && name.indexOf(':', lastSlash) < 0) {
      name = name + ":latest";
    }
    return name;
  }

  private static String containerId(Pod pod, Container container, int restarts) {
    return sha256(pod.getMetadata().getUid() + "/" + container.getName() + "/" + restarts);
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256")
                  .digest(String.valueOf(text).getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }

  static String qosClass(Pod pod) {
    boolean any = false;
    boolean guaranteed = true;
    List<Container> all = new ArrayList<>(pod.getSpec().getContainers());
    if (pod.getSpec().getInitContainers() != null) {
      all.addAll(pod.getSpec().getInitContainers());
    }
    for (Container c : all) {
      Map<String, Quantity> requests =
          c.getResources() == null || c.getResources().getRequests() == null
              ? Map.of()
              : c.getResources().getRequests();
      Map<String, Quantity> limits =
          c.getResources() == null || c.getResources().getLimits() == null
              ? Map.of()
              : c.getResources().getLimits();
      for (String r : List.of("cpu", "memory")) {
        Quantity request = requests.containsKey(r) ? requests.get(r) : limits.get(r);
        Quantity limit = limits.get(r);
        if ((request != null && !request.isZero()) || (limit != null && !limit.isZero())) {
          any = true;
        }
        if (limit == null || request == null || request.compareTo(limit) != 0) {
          guaranteed = false;
        }
      }
    }
    if (!any) {
      return "BestEffort";
    }
    return guaranteed ? "Guaranteed" : "Burstable";
  }

  private static Duration backoff(int restarts) {
    Duration delay = BACKOFF_INITIAL;
    for (int i = 0; i < restarts && delay.compareTo(BACKOFF_MAX) < 0; i++) {
      delay = delay.multipliedBy(2);
    }
    return delay.compareTo(BACKOFF_MAX) > 0 ? BACKOFF_MAX : delay;
  }

  private static String formatGo(Duration duration) {
    long seconds = duration.getSeconds();
    if (seconds < 60) {
      return seconds + "s";
    }
    return (seconds / 60) + "m" + (seconds % 60) + "s";
  }

  private static String restartPolicy(Pod pod) {
    String policy = pod.getSpec().getRestartPolicy();
    return policy == null || policy.isEmpty() ? "Always" : policy;
  }

  /**
   * Reads a pod's {@value #RUN_FOR_ANNOTATION} annotation.
   *
   * @param pod the pod
   * @return the run time, or null when the containers run until stopped
   * @throws IllegalArgumentException naming the annotation and value when it is not a duration
   */
  static Duration runFor(Pod pod) {
    String value = annotation(pod, RUN_FOR_ANNOTATION);
    if (value == null) {
      return null;
    }
    try {
      Duration parsed = GoDurations.parse(value);
      if (parsed.isNegative()) {
        throw new IllegalArgumentException("negative");
      }
      return parsed;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "annotation " + RUN_FOR_ANNOTATION + ": \"" + value + "\" is not a duration", e);
    }
  }

  /**
   * Reads a pod's {@value #EXIT_CODE_ANNOTATION} annotation.
   *
   * @param pod the pod
   * @return the exit code, 0 when unset
   * @throws IllegalArgumentException naming the annotation and value when it is not 0 to 255
   */
  static int exitCode(Pod pod) {
    String value = annotation(pod, EXIT_CODE_ANNOTATION);
    if (value == null) {
      return 0;
    }
    try {
      int code = Integer.parseInt(value.trim());
      if (code < 0 || code > 255) {
        throw new NumberFormatException("out of range");
      }
      return code;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "annotation " + EXIT_CODE_ANNOTATION + ": \"" + value + "\" is not an exit code (0-255)",
          e);
    }
  }

  private static String annotation(Pod pod, String name) {
    Map<String, String> annotations = pod.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(name);
  }

  private static Instant earliest(Instant a, Instant b) {
    return a == null || b.isBefore(a) ? b : a;
  }

  /** Names of the nodes simulated, for tests. */
  Set<String> nodeNames() {
    return new HashSet<>(simulated.keySet());
  }
}
