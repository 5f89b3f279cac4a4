package dev.machinery.cluster.controller.endpointslice;

import dev.machinery.api.core.v1.Node;
import dev.machinery.api.core.v1.ObjectReference;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.Service;
import dev.machinery.api.core.v1.ServicePort;
import dev.machinery.api.discovery.v1.Endpoint;
import dev.machinery.api.discovery.v1.EndpointConditions;
import dev.machinery.api.discovery.v1.EndpointPort;
import dev.machinery.api.discovery.v1.EndpointSlice;
import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.controller.endpoint.EndpointPods;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the {@code discovery.k8s.io/v1} EndpointSlices of every Service with a selector, as Go's
 * {@code endpointslice.Controller} and its reconciler: every selected pod with an IPv4 address that
 * is not finished is an endpoint (pods being deleted included, {@code terminating: true}) with
 * conditions {@code ready} (ready and not terminating, or always when the Service publishes
 * not-ready addresses), {@code serving} (ready) and {@code terminating}, its {@code nodeName} and
 * the node's {@code topology.kubernetes.io/zone}, a {@code targetRef} to the pod and, for a
 * headless Service the pod names as its subdomain, its {@code hostname}. Endpoints whose resolved
 * ports are equal share slices of at most {@value #MAX_ENDPOINTS_PER_SLICE}; an endpoint stays in
 * the slice that holds it, new ones fill the slices with room before new slices are made, emptied
 * slices are deleted, and a Service with no endpoint keeps one empty slice. Slices are named after
 * the Service ({@code generateName}), labelled with the Service's labels, {@value
 * #SERVICE_NAME_LABEL}, {@value #MANAGED_BY_LABEL}{@code : }{@value #CONTROLLER_NAME} (and {@value
 * EndpointPods#HEADLESS_LABEL} when headless), owned by the Service (controller, blocking its
 * deletion) and annotated with {@value EndpointPods#TRIGGER_TIME_ANNOTATION} when written. Slices
 * of a deleted Service go with it through the garbage collector. A sync that would act on a cache
 * that has not seen this controller's last writes waits for it (kube's slice tracker). It writes as
 * {@value #IDENTITY}.
 *
 * <p>Thread-safe: the controller's workers sync different Services at once.
 */
public final class EndpointSliceController {
  /** kube-controller-manager's name of this controller. */
  public static final String NAME = "endpointslice-controller";

  /** The older name {@code --controllers} accepts. */
  public static final String ALIAS = "endpointslice";

  /** The service account the controller writes as. */
  public static final String IDENTITY = "endpointslice-controller";

  /** The label naming the Service of a slice. */
  public static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

  /** The label naming the controller that manages a slice. */
  public static final String MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by";

  /** This controller's value of {@value #MANAGED_BY_LABEL}. */
  public static final String CONTROLLER_NAME = "endpointslice-controller.k8s.io";

  /** kube-controller-manager's default {@code --max-endpoints-per-slice}. */
  public static final int MAX_ENDPOINTS_PER_SLICE = 100;

  /** The address type this controller writes. */
  public static final String ADDRESS_TYPE = "IPv4";

  private static final String ZONE_LABEL = "topology.kubernetes.io/zone";
  private static final long DELETION_EXPECTED = -1;

  private final Lister<Service> services;
  private final Lister<Pod> pods;
  private final Lister<EndpointSlice> slices;
  private final Lister<Node> nodes;
  private final Client client;
  private final int maxPerSlice;

  /** Per Service key, the generation expected of each slice (by UID) this controller wrote. */
  private final Map<String, Map<String, Long>> tracker = new ConcurrentHashMap<>();

  EndpointSliceController(
      Lister<Service> services,
      Lister<Pod> pods,
      Lister<EndpointSlice> slices,
      Lister<Node> nodes,
      Client client,
      int maxPerSlice) {
    this.services = services;
    this.pods = pods;
    this.slices = slices;
    this.nodes = nodes;
    this.client = client;
    this.maxPerSlice = maxPerSlice;
  }

  /**
   * Sets the controller up in a context: informers of Services, pods, EndpointSlices and nodes, a
   * controller keyed by Service.
   *
   * @param context the controller context
   * @throws InterruptedException when interrupted while a late controller waits for its caches
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    var serviceInformer = context.informer(Service.class);
    var podInformer = context.informer(Pod.class);
    var sliceInformer = context.informer(EndpointSlice.class);
    var nodeInformer = context.informer(Node.class);
    EndpointSliceController sync =
        new EndpointSliceController(
            serviceInformer.lister(),
            podInformer.lister(),
            sliceInformer.lister(),
            nodeInformer.lister(),
            context.client(IDENTITY),
            MAX_ENDPOINTS_PER_SLICE);
    context.add(
        Controller.builder(NAME, sync::reconcile)
            .watches(serviceInformer, EventHandlers.enqueueRequestForObject())
            .watches(podInformer, EndpointPods.servicesOfPod(serviceInformer.lister()))
            .watches(sliceInformer, sync.sliceEvents())
            .workers(5)
            .build());
  }

  /** Syncs one Service. */
  Result reconcile(Request request) {
    String key = request.toString();
    Optional<Service> found = services.namespace(request.namespace()).get(request.name());
    if (found.isEmpty()) {
      // The garbage collector deletes the slices through their owner reference, as in kube.
      tracker.remove(key);
      return Result.done();
    }
    Service service = found.get();
    if (!EndpointPods.selects(service)) {
      return Result.done();
    }
    List<EndpointSlice> existing =
        slices
            .namespace(request.namespace())
            .list(
                Selector.fromSet(
                    Map.of(SERVICE_NAME_LABEL, request.name(), MANAGED_BY_LABEL, CONTROLLER_NAME)));
    if (stale(key, existing)) {
      return Result.requeueRateLimited();
    }
    Instant trigger = service.getMetadata().getCreationTimestamp();
    Map<String, Group> desired = new LinkedHashMap<>();
    List<Pod> selected = new ArrayList<>(EndpointPods.selected(service, pods));
    selected.sort(Comparator.comparing(p -> p.getMetadata().getName()));
    for (Pod pod : selected) {
      if (!EndpointPods.shouldBeInEndpoints(pod, true)) {
        continue;
      }
      trigger = EndpointPods.newer(trigger, EndpointPods.triggerTime(pod));
      List<EndpointPort> ports = ports(service, pod);
      Group group = desired.computeIfAbsent(portsKey(ports), k -> new Group(ports));
      Endpoint endpoint = endpoint(pod, service);
      group.endpoints.put(identity(endpoint), endpoint);
    }
    Plan plan = plan(service, existing, desired, maxPerSlice);
    apply(key, service, plan, trigger);
    return Result.done();
  }

  /**
   * Decides the writes that bring a Service's slices to the desired endpoints, as kube's
   * reconciler: slices of another address type or of port sets no endpoint has are deleted; in each
   * port set, endpoints stay in the slice holding them (updated when they changed), emptied slices
   * take new endpoints or are deleted, new endpoints fill the fullest slices with room and then new
   * slices of at most {@code maxPerSlice}; no endpoint at all keeps one empty slice.
   *
   * @param service the Service
   * @param existing its managed slices
   * @param desired the endpoints by port set key
   * @param maxPerSlice the most endpoints a slice holds
   * @return what to create, update and delete
   */
  static Plan plan(
      Service service, List<EndpointSlice> existing, Map<String, Group> desired, int maxPerSlice) {
    Plan plan = new Plan();
    List<EndpointSlice> remaining = new ArrayList<>();
    for (EndpointSlice slice : existing) {
      if (!ADDRESS_TYPE.equals(slice.getAddressType())) {
        plan.delete.add(slice);
      } else {
        remaining.add(slice);
      }
    }
    Map<String, String> labels = labels(service);
    if (desired.isEmpty()) {
      placeholder(service, remaining, labels, plan);
      return plan;
    }
    Map<String, List<EndpointSlice>> byPorts = new LinkedHashMap<>();
    for (EndpointSlice slice : remaining) {
      List<EndpointPort> ports = slice.getPorts() == null ? List.of() : slice.getPorts();
      byPorts.computeIfAbsent(portsKey(ports), k -> new ArrayList<>()).add(slice);
    }
    for (Map.Entry<String, List<EndpointSlice>> entry : byPorts.entrySet()) {
      if (!desired.containsKey(entry.getKey())) {
        plan.delete.addAll(entry.getValue());
      }
    }
    for (Map.Entry<String, Group> entry : desired.entrySet()) {
      reconcileGroup(
          service,
          entry.getValue(),
          byPorts.getOrDefault(entry.getKey(), List.of()),
          labels,
          plan,
          maxPerSlice);
    }
    return plan;
  }

  /** Endpoints of one port set, keyed by their pod. */
  static final class Group {
    final List<EndpointPort> ports;
    final Map<String, Endpoint> endpoints = new LinkedHashMap<>();

    Group(List<EndpointPort> ports) {
      this.ports = ports;
    }
  }

  /** What a sync writes. */
  static final class Plan {
    final List<EndpointSlice> create = new ArrayList<>();
    final List<EndpointSlice> update = new ArrayList<>();
    final List<EndpointSlice> delete = new ArrayList<>();
  }

  private static void placeholder(
      Service service, List<EndpointSlice> existing, Map<String, String> labels, Plan plan) {
    EndpointSlice keep = null;
    for (EndpointSlice slice : existing) {
      boolean empty = slice.getEndpoints() == null || slice.getEndpoints().isEmpty();
      boolean noPorts = slice.getPorts() == null || slice.getPorts().isEmpty();
      if (keep == null && empty && noPorts) {
        keep = slice;
      } else {
        plan.delete.add(slice);
      }
    }
    if (keep == null) {
      plan.create.add(newSlice(service, List.of(), List.of(), labels));
    } else if (!labels.equals(currentLabels(keep)) || !ownedBy(keep, service)) {
      plan.update.add(copy(keep, service, labels, List.of()));
    }
  }

  private static void reconcileGroup(
      Service service,
      Group group,
      List<EndpointSlice> existing,
      Map<String, String> labels,
      Plan plan,
      int maxPerSlice) {
    Map<String, Endpoint> unplaced = new LinkedHashMap<>(group.endpoints);
    List<List<Endpoint>> contents = new ArrayList<>();
    List<Boolean> changed = new ArrayList<>();
    for (EndpointSlice slice : existing) {
      List<Endpoint> kept = new ArrayList<>();
      boolean sliceChanged = false;
      for (Endpoint endpoint :
          slice.getEndpoints() == null ? List.<Endpoint>of() : slice.getEndpoints()) {
        Endpoint wanted = unplaced.remove(identity(endpoint));
        if (wanted == null) {
          sliceChanged = true;
        } else {
          kept.add(wanted);
          if (!wanted.equals(endpoint)) {
            sliceChanged = true;
          }
        }
      }
      if (kept.size() > maxPerSlice) {
        for (Endpoint extra : kept.subList(maxPerSlice, kept.size())) {
          unplaced.put(identity(extra), extra);
        }
        kept = new ArrayList<>(kept.subList(0, maxPerSlice));
        sliceChanged = true;
      }
      contents.add(kept);
      changed.add(sliceChanged);
    }
    // New endpoints fill the slices with room, fullest first, then new slices.
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < existing.size(); i++) {
      if (!contents.get(i).isEmpty()) {
        order.add(i);
      }
    }
    order.sort(Comparator.comparing((Integer i) -> contents.get(i).size()).reversed());
    List<Endpoint> left = new ArrayList<>(unplaced.values());
    for (int i : order) {
      while (!left.isEmpty() && contents.get(i).size() < maxPerSlice) {
        contents.get(i).add(left.remove(0));
        changed.set(i, true);
      }
    }
    for (int i = 0; i < existing.size(); i++) {
      EndpointSlice slice = existing.get(i);
      if (contents.get(i).isEmpty()) {
        if (!left.isEmpty()) {
          // An emptied slice is reused rather than deleted and made again.
          List<Endpoint> part =
              new ArrayList<>(left.subList(0, Math.min(maxPerSlice, left.size())));
          left.subList(0, part.size()).clear();
          plan.update.add(copy(slice, service, labels, part));
        } else {
          plan.delete.add(slice);
        }
        continue;
      }
      if (changed.get(i) || !labels.equals(currentLabels(slice)) || !ownedBy(slice, service)) {
        plan.update.add(copy(slice, service, labels, contents.get(i)));
      }
    }
    while (!left.isEmpty()) {
      List<Endpoint> part = new ArrayList<>(left.subList(0, Math.min(maxPerSlice, left.size())));
      left.subList(0, part.size()).clear();
      plan.create.add(newSlice(service, group.ports, part, labels));
    }
  }

  private void apply(String key, Service service, Plan plan, Instant trigger) {
    String namespace = service.getMetadata().getNamespace();
    var resource = client.resources(EndpointSlice.class).inNamespace(namespace);
    Map<String, Long> expected = tracker.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
    try {
      for (EndpointSlice slice : plan.create) {
        annotate(slice, trigger);
        EndpointSlice made = resource.create(slice);
        expected.put(made.getMetadata().getUid(), made.getMetadata().getGeneration());
      }
      for (EndpointSlice slice : plan.update) {
        annotate(slice, trigger);
        EndpointSlice written = resource.update(slice);
        expected.put(written.getMetadata().getUid(), written.getMetadata().getGeneration());
      }
      for (EndpointSlice slice : plan.delete) {
        try {
          resource.delete(slice.getMetadata().getName());
        } catch (RuntimeException e) {
          if (!ApiErrors.isNotFound(e)) {
            throw e;
          }
        }
        expected.put(slice.getMetadata().getUid(), DELETION_EXPECTED);
      }
    } catch (RuntimeException e) {
      if (isNamespaceTerminating(e)) {
        return;
      }
      throw e;
    }
  }

  private static void annotate(EndpointSlice slice, Instant trigger) {
    if (trigger == null) {
      return;
    }
    Map<String, String> annotations =
        new LinkedHashMap<>(
            slice.getMetadata().getAnnotations() == null
                ? Map.of()
                : slice.getMetadata().getAnnotations());
    annotations.put(
        EndpointPods.TRIGGER_TIME_ANNOTATION, DateTimeFormatter.ISO_INSTANT.format(trigger));
    slice.getMetadata().setAnnotations(annotations);
  }

  /** Whether the cache has not yet seen a write of this controller, as kube's slice tracker. */
  private boolean stale(String key, List<EndpointSlice> cached) {
    Map<String, Long> expected = tracker.get(key);
    if (expected == null || expected.isEmpty()) {
      return false;
    }
    Map<String, Long> seen = new LinkedHashMap<>();
    for (EndpointSlice slice : cached) {
      String uid = slice.getMetadata().getUid();
      seen.put(uid, slice.getMetadata().getGeneration());
      Long want = expected.get(uid);
      if (want != null
          && (want == DELETION_EXPECTED || want > slice.getMetadata().getGeneration())) {
        return true;
      }
    }
    for (Map.Entry<String, Long> entry : expected.entrySet()) {
      if (entry.getValue() != DELETION_EXPECTED && !seen.containsKey(entry.getKey())) {
        return true;
      }
    }
    return false;
  }

  private EventHandler<EndpointSlice> sliceEvents() {
    return new EventHandler<>() {
      @Override
      public void create(EndpointSlice object, RateLimitingQueue<Request> queue) {
        enqueue(object, queue);
      }

      @Override
      public void update(
          EndpointSlice oldObject, EndpointSlice newObject, RateLimitingQueue<Request> queue) {
        enqueue(newObject, queue);
        if (!Objects.equals(serviceOf(oldObject), serviceOf(newObject))) {
          enqueue(oldObject, queue);
        }
      }

      @Override
      public void delete(
          EndpointSlice object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        String service = serviceOf(object);
        if (service != null) {
          Map<String, Long> expected =
              tracker.get(new Request(object.getMetadata().getNamespace(), service).toString());
          if (expected != null) {
            expected.remove(object.getMetadata().getUid());
          }
        }
        enqueue(object, queue);
      }

      private void enqueue(EndpointSlice slice, RateLimitingQueue<Request> queue) {
        String service = serviceOf(slice);
        if (service != null) {
          queue.add(new Request(slice.getMetadata().getNamespace(), service));
        }
      }
    };
  }

  private static String serviceOf(EndpointSlice slice) {
    Map<String, String> labels = slice.getMetadata().getLabels();
    if (labels == null || !CONTROLLER_NAME.equals(labels.get(MANAGED_BY_LABEL))) {
      return null;
    }
    String service = labels.get(SERVICE_NAME_LABEL);
    return service == null || service.isEmpty() ? null : service;
  }

  private static boolean isNamespaceTerminating(RuntimeException e) {
    if (!ApiErrors.isForbidden(e)) {
      return false;
    }
    var status = ApiErrors.statusFor(e);
    return status.getDetails() != null
        && status.getDetails().getCauses() != null
        && status.getDetails().getCauses().stream()
            .anyMatch(c -> "NamespaceTerminating".equals(c.getReason()));
  }

  /** The ports a pod serves a Service on: each Service port resolved, unresolved ones left out. */
  static List<EndpointPort> ports(Service service, Pod pod) {
    List<EndpointPort> out = new ArrayList<>();
    if (service.getSpec().getPorts() == null) {
      return out;
    }
    for (ServicePort port : service.getSpec().getPorts()) {
      OptionalInt number = EndpointPods.findPort(pod, port);
      if (number.isEmpty()) {
        continue;
      }
      EndpointPort endpointPort = new EndpointPort();
      endpointPort.setName(port.getName() == null ? "" : port.getName());
      endpointPort.setPort(number.getAsInt());
      endpointPort.setProtocol(EndpointPods.protocol(port.getProtocol()));
      endpointPort.setAppProtocol(port.getAppProtocol());
      out.add(endpointPort);
    }
    return out;
  }

  static String portsKey(List<EndpointPort> ports) {
    List<String> parts = new ArrayList<>();
    for (EndpointPort port : ports) {
      parts.add(
          Objects.toString(port.getName(), "")
              + "/"
              + port.getPort()
              + "/"
              + EndpointPods.protocol(port.getProtocol())
              + "/"
              + Objects.toString(port.getAppProtocol(), ""));
    }
    parts.sort(null);
    return String.join(";", parts);
  }

  private Endpoint endpoint(Pod pod, Service service) {
    boolean serving = EndpointPods.isReady(pod);
    boolean terminating = pod.getMetadata().getDeletionTimestamp() != null;
    boolean ready =
        Boolean.TRUE.equals(service.getSpec().getPublishNotReadyAddresses())
            || (serving && !terminating);
    Endpoint endpoint = new Endpoint();
    endpoint.setAddresses(List.of(EndpointPods.ipv4(pod).orElseThrow()));
    EndpointConditions conditions = new EndpointConditions();
    conditions.setReady(ready);
    conditions.setServing(serving);
    conditions.setTerminating(terminating);
    endpoint.setConditions(conditions);
    ObjectReference ref = new ObjectReference();
    ref.setKind("Pod");
    ref.setNamespace(pod.getMetadata().getNamespace());
    ref.setName(pod.getMetadata().getName());
    ref.setUid(pod.getMetadata().getUid());
    endpoint.setTargetRef(ref);
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    if (node != null && !node.isEmpty()) {
      endpoint.setNodeName(node);
      nodes
          .get(node)
          .map(n -> n.getMetadata().getLabels())
          .map(l -> l.get(ZONE_LABEL))
          .ifPresent(endpoint::setZone);
    }
    if (EndpointPods.shouldSetHostname(pod, service)) {
      endpoint.setHostname(pod.getSpec().getHostname());
    }
    return endpoint;
  }

  static String identity(Endpoint endpoint) {
    ObjectReference ref = endpoint.getTargetRef();
    String pod = ref == null ? "" : ref.getNamespace() + "/" + ref.getName();
    return pod + "@" + endpoint.getAddresses();
  }

  /** The labels of a Service's slices, as kube's {@code setEndpointSliceLabels}. */
  static Map<String, String> labels(Service service) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (service.getMetadata().getLabels() != null) {
      labels.putAll(service.getMetadata().getLabels());
    }
    labels.remove(EndpointPods.HEADLESS_LABEL);
    labels.put(SERVICE_NAME_LABEL, service.getMetadata().getName());
    labels.put(MANAGED_BY_LABEL, CONTROLLER_NAME);
    if (EndpointPods.isHeadless(service)) {
      labels.put(EndpointPods.HEADLESS_LABEL, "");
    }
    return labels;
  }

  private static Map<String, String> currentLabels(EndpointSlice slice) {
    return slice.getMetadata().getLabels() == null ? Map.of() : slice.getMetadata().getLabels();
  }

  private static boolean ownedBy(EndpointSlice slice, Service service) {
    List<OwnerReference> owners = slice.getMetadata().getOwnerReferences();
    return owners != null
        && owners.stream()
            .anyMatch(
                o ->
                    Objects.equals(o.getUid(), service.getMetadata().getUid())
                        && Boolean.TRUE.equals(o.getController()));
  }

  private static OwnerReference owner(Service service) {
    OwnerReference owner = new OwnerReference();
    owner.setApiVersion("v1");
    owner.setKind("Service");
    owner.setName(service.getMetadata().getName());
    owner.setUid(service.getMetadata().getUid());
    owner.setController(true);
    owner.setBlockOwnerDeletion(true);
    return owner;
  }

  private static EndpointSlice newSlice(
      Service service,
      List<EndpointPort> ports,
      List<Endpoint> endpoints,
      Map<String, String> labels) {
    EndpointSlice slice = new EndpointSlice();
    ObjectMeta meta = new ObjectMeta();
    meta.setGenerateName(service.getMetadata().getName() + "-");
    meta.setNamespace(service.getMetadata().getNamespace());
    meta.setLabels(new LinkedHashMap<>(labels));
    meta.setOwnerReferences(List.of(owner(service)));
    slice.setMetadata(meta);
    slice.setAddressType(ADDRESS_TYPE);
    slice.setPorts(List.copyOf(ports));
    slice.setEndpoints(List.copyOf(endpoints));
    return slice;
  }

  private static EndpointSlice copy(
      EndpointSlice from, Service service, Map<String, String> labels, List<Endpoint> endpoints) {
    EndpointSlice slice = new EndpointSlice();
    ObjectMeta old = from.getMetadata();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(old.getName());
    meta.setGenerateName(old.getGenerateName());
    meta.setNamespace(old.getNamespace());
    meta.setUid(old.getUid());
    meta.setResourceVersion(old.getResourceVersion());
    meta.setCreationTimestamp(old.getCreationTimestamp());
    meta.setFinalizers(old.getFinalizers());
    meta.setAnnotations(old.getAnnotations());
    meta.setLabels(new LinkedHashMap<>(labels));
    List<OwnerReference> owners = new ArrayList<>();
    if (old.getOwnerReferences() != null) {
      for (OwnerReference reference : old.getOwnerReferences()) {
        if (!Boolean.TRUE.equals(reference.getController())) {
          owners.add(reference);
        }
      }
    }
    owners.add(owner(service));
    meta.setOwnerReferences(owners);
    slice.setMetadata(meta);
    slice.setAddressType(from.getAddressType());
    slice.setPorts(from.getPorts() == null ? List.of() : from.getPorts());
    slice.setEndpoints(List.copyOf(endpoints));
    return slice;
  }
}
