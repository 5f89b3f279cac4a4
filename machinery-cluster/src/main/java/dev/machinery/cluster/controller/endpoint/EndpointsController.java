package dev.machinery.cluster.controller.endpoint;

import dev.machinery.api.core.v1.EndpointAddress;
import dev.machinery.api.core.v1.EndpointPort;
import dev.machinery.api.core.v1.EndpointSubset;
import dev.machinery.api.core.v1.Endpoints;
import dev.machinery.api.core.v1.ObjectReference;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.Service;
import dev.machinery.api.core.v1.ServicePort;
import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.EventHandlers;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
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
import java.util.TreeMap;

/**
 * Keeps the legacy {@code Endpoints} of every Service with a selector, as Go's {@code
 * endpoint.Controller}: each selected pod with an IP that is not finished is an address ({@code
 * addresses} when ready or when the Service publishes not-ready addresses, else {@code
 * notReadyAddresses}; pods being deleted are left out unless not-ready addresses are published)
 * with its {@code nodeName} and a {@code targetRef} to the pod, and, for a headless Service the pod
 * names as its subdomain, its {@code hostname}; each Service port is resolved in each pod (named
 * ports through the containers' ports of the same protocol; a pod without the name is left out of
 * that port); addresses with the same ports share a subset. A headless Service without ports lists
 * its pods without ports. The Endpoints carry the Service's labels (plus {@value
 * EndpointPods#HEADLESS_LABEL} for a headless one) and {@value
 * EndpointPods#TRIGGER_TIME_ANNOTATION}; more than {@value #MAX_CAPACITY} addresses are truncated
 * and marked {@value #OVER_CAPACITY_ANNOTATION}. They are written only when they differ; the
 * Endpoints of a deleted Service are deleted. It writes as {@value #IDENTITY}.
 *
 * <p>Thread-safe: the controller's workers sync different Services at once.
 */
public final class EndpointsController {
  /** kube-controller-manager's name of this controller. */
  public static final String NAME = "endpoints-controller";

  /** The older name {@code --controllers} accepts. */
  public static final String ALIAS = "endpoint";

  /** The service account the controller writes as. */
  public static final String IDENTITY = "endpoint-controller";

  /** The most addresses an Endpoints object holds (kube's {@code maxCapacity}). */
  public static final int MAX_CAPACITY = 1000;

  /** The annotation marking truncated Endpoints. */
  public static final String OVER_CAPACITY_ANNOTATION = "endpoints.kubernetes.io/over-capacity";

  private final Lister<Service> services;
  private final Lister<Pod> pods;
  private final Lister<Endpoints> endpoints;
  private final Client client;

  private EndpointsController(
      Lister<Service> services, Lister<Pod> pods, Lister<Endpoints> endpoints, Client client) {
    this.services = services;
    this.pods = pods;
    this.endpoints = endpoints;
    this.client = client;
  }

  /**
   * Sets the controller up in a context: informers of Services, pods and Endpoints, a controller
   * keyed by Service.
   *
   * @param context the controller context
   * @throws InterruptedException when interrupted while a late controller waits for its caches
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    var serviceInformer = context.informer(Service.class);
    var podInformer = context.informer(Pod.class);
    var endpointsInformer = context.informer(Endpoints.class);
    EndpointsController sync =
        new EndpointsController(
            serviceInformer.lister(),
            podInformer.lister(),
            endpointsInformer.lister(),
            context.client(IDENTITY));
    context.add(
        Controller.builder(NAME, sync::reconcile)
            .watches(serviceInformer, EventHandlers.enqueueRequestForObject())
            .watches(podInformer, EndpointPods.servicesOfPod(serviceInformer.lister()))
            .watches(endpointsInformer, deletedEndpoints())
            .workers(5)
            .build());
  }

  /** Syncs one Service. */
  Result reconcile(Request request) {
    Optional<Service> found = services.namespace(request.namespace()).get(request.name());
    if (found.isEmpty()) {
      try {
        client.resources(Endpoints.class).inNamespace(request.namespace()).delete(request.name());
      } catch (RuntimeException e) {
        if (!ApiErrors.isNotFound(e)) {
          throw e;
        }
      }
      return Result.done();
    }
    Service service = found.get();
    if (!EndpointPods.selects(service)) {
      return Result.done();
    }
    Desired desired = desired(service, EndpointPods.selected(service, pods));
    Optional<Endpoints> current = endpoints.namespace(request.namespace()).get(request.name());

    Map<String, String> labels = new LinkedHashMap<>();
    if (service.getMetadata().getLabels() != null) {
      labels.putAll(service.getMetadata().getLabels());
    }
    labels.remove(EndpointPods.HEADLESS_LABEL);
    if (current.isPresent()) {
      Map<String, String> compareLabels =
          new LinkedHashMap<>(
              current.get().getMetadata().getLabels() == null
                  ? Map.of()
                  : current.get().getMetadata().getLabels());
      compareLabels.remove(EndpointPods.HEADLESS_LABEL);
      Map<String, String> annotations =
          current.get().getMetadata().getAnnotations() == null
              ? Map.of()
              : current.get().getMetadata().getAnnotations();
      boolean capacityRight =
          desired.truncated == annotations.containsKey(OVER_CAPACITY_ANNOTATION);
      if (sameSubsets(current.get().getSubsets(), desired.subsets)
          && compareLabels.equals(labels)
          && capacityRight) {
        return Result.done();
      }
    }
    if (EndpointPods.isHeadless(service)) {
      labels.put(EndpointPods.HEADLESS_LABEL, "");
    }
    Instant trigger = service.getMetadata().getCreationTimestamp();
    trigger = EndpointPods.newer(trigger, desired.triggerTime);

    Endpoints written = new Endpoints();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(service.getMetadata().getName());
    meta.setNamespace(service.getMetadata().getNamespace());
    Map<String, String> annotations = new LinkedHashMap<>();
    if (current.isPresent()) {
      ObjectMeta old = current.get().getMetadata();
      meta.setUid(old.getUid());
      meta.setResourceVersion(old.getResourceVersion());
      meta.setCreationTimestamp(old.getCreationTimestamp());
      meta.setOwnerReferences(old.getOwnerReferences());
      meta.setFinalizers(old.getFinalizers());
      if (old.getAnnotations() != null) {
        annotations.putAll(old.getAnnotations());
      }
    }
    if (trigger != null) {
      annotations.put(
          EndpointPods.TRIGGER_TIME_ANNOTATION, DateTimeFormatter.ISO_INSTANT.format(trigger));
    } else {
      annotations.remove(EndpointPods.TRIGGER_TIME_ANNOTATION);
    }
    if (desired.truncated) {
      annotations.put(OVER_CAPACITY_ANNOTATION, "truncated");
    } else {
      annotations.remove(OVER_CAPACITY_ANNOTATION);
    }
    meta.setLabels(labels);
    meta.setAnnotations(annotations.isEmpty() ? null : annotations);
    written.setMetadata(meta);
    written.setSubsets(desired.subsets.isEmpty() ? null : desired.subsets);
    var resource = client.resources(Endpoints.class).inNamespace(meta.getNamespace());
    try {
      if (current.isPresent()) {
        resource.update(written);
      } else {
        resource.create(written);
      }
    } catch (RuntimeException e) {
      if (current.isEmpty() && ApiErrors.isAlreadyExists(e)) {
        // The cache has not seen it yet: try again once it has.
        return Result.requeueRateLimited();
      }
      if (isNamespaceTerminating(e)) {
        return Result.done();
      }
      throw e;
    }
    return Result.done();
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

  /** The subsets a Service's pods make, repacked, with the newest change among them. */
  record Desired(List<EndpointSubset> subsets, boolean truncated, Instant triggerTime) {}

  /** One address and the ports it serves. */
  private static final class Entry {
    final EndpointAddress address;
    final boolean ready;
    final List<EndpointPort> ports = new ArrayList<>();

    Entry(EndpointAddress address, boolean ready) {
      this.address = address;
      this.ready = ready;
    }
  }

  /**
   * Computes the subsets of a Service over its selected pods, as Go's {@code syncService} and
   * {@code RepackSubsets}.
   *
   * @param service the Service
   * @param selected its selected pods
   * @return the subsets
   */
  static Desired desired(Service service, List<Pod> selected) {
    boolean tolerateUnready = Boolean.TRUE.equals(service.getSpec().getPublishNotReadyAddresses());
    List<ServicePort> servicePorts =
        service.getSpec().getPorts() == null ? List.of() : service.getSpec().getPorts();
    List<Entry> entries = new ArrayList<>();
    Instant trigger = null;
    for (Pod pod : selected) {
      if (!EndpointPods.shouldBeInEndpoints(pod, tolerateUnready)) {
        continue;
      }
      trigger = EndpointPods.newer(trigger, EndpointPods.triggerTime(pod));
      Entry entry = new Entry(address(pod, service), tolerateUnready || EndpointPods.isReady(pod));
      if (servicePorts.isEmpty()) {
        if (EndpointPods.isHeadless(service)) {
          entries.add(entry);
        }
        continue;
      }
      for (ServicePort port : servicePorts) {
        OptionalInt number = EndpointPods.findPort(pod, port);
        if (number.isEmpty()) {
          continue;
        }
        EndpointPort endpointPort = new EndpointPort();
        endpointPort.setName(
            port.getName() == null || port.getName().isEmpty() ? null : port.getName());
        endpointPort.setPort(number.getAsInt());
        endpointPort.setProtocol(EndpointPods.protocol(port.getProtocol()));
        endpointPort.setAppProtocol(port.getAppProtocol());
        entry.ports.add(endpointPort);
      }
      if (!entry.ports.isEmpty()) {
        entries.add(entry);
      }
    }
    // Repack: addresses serving the same ports share a subset; addresses sorted by IP then pod.
    Comparator<EndpointPort> portOrder =
        Comparator.comparing((EndpointPort p) -> Objects.toString(p.getName(), ""))
            .thenComparing(p -> p.getPort())
            .thenComparing(p -> Objects.toString(p.getProtocol(), ""));
    Comparator<EndpointAddress> addressOrder =
        Comparator.comparing(EndpointAddress::getIp, EndpointsController::compareIps)
            .thenComparing(
                a ->
                    a.getTargetRef() == null
                        ? ""
                        : Objects.toString(a.getTargetRef().getUid(), ""));
    entries.sort(Comparator.comparing(e -> e.address, addressOrder));
    int kept = 0;
    boolean truncated = false;
    TreeMap<String, EndpointSubset> byPorts = new TreeMap<>();
    // Ready addresses are kept first when truncating, as kube keeps ready over not-ready ones.
    List<Entry> ordered = new ArrayList<>();
    entries.stream().filter(e -> e.ready).forEach(ordered::add);
    entries.stream().filter(e -> !e.ready).forEach(ordered::add);
    for (Entry entry : ordered) {
      if (kept == MAX_CAPACITY) {
        truncated = true;
        break;
      }
      kept++;
      entry.ports.sort(portOrder);
      String key = portsKey(entry.ports);
      EndpointSubset subset =
          byPorts.computeIfAbsent(
              key,
              k -> {
                EndpointSubset made = new EndpointSubset();
                made.setPorts(entry.ports.isEmpty() ? null : List.copyOf(entry.ports));
                return made;
              });
      if (entry.ready) {
        subset.setAddresses(append(subset.getAddresses(), entry.address));
      } else {
        subset.setNotReadyAddresses(append(subset.getNotReadyAddresses(), entry.address));
      }
    }
    List<EndpointSubset> subsets = new ArrayList<>();
    for (EndpointSubset subset : byPorts.values()) {
      if (subset.getAddresses() != null) {
        subset.getAddresses().sort(addressOrder);
      }
      if (subset.getNotReadyAddresses() != null) {
        subset.getNotReadyAddresses().sort(addressOrder);
      }
      subsets.add(subset);
    }
    return new Desired(subsets, truncated, trigger);
  }

  private static List<EndpointAddress> append(List<EndpointAddress> list, EndpointAddress address) {
    List<EndpointAddress> out = list == null ? new ArrayList<>() : list;
    out.add(address);
    return out;
  }

  private static String portsKey(List<EndpointPort> ports) {
    StringBuilder key = new StringBuilder();
    for (EndpointPort port : ports) {
      key.append(Objects.toString(port.getName(), ""))
          .append('/')
          .append(port.getPort())
          .append('/')
          .append(port.getProtocol())
          .append('/')
          .append(Objects.toString(port.getAppProtocol(), ""))
          .append(';');
    }
    return key.toString();
  }

  private static int compareIps(String a, String b) {
    long[] x = octets(a);
    long[] y = octets(b);
    if (x == null || y == null) {
      return a.compareTo(b);
    }
    long left = (x[0] << 24) | (x[1] << 16) | (x[2] << 8) | x[3];
    long right = (y[0] << 24) | (y[1] << 16) | (y[2] << 8) | y[3];
    return Long.compare(left, right);
  }

  private static long[] octets(String ip) {
    String[] parts = ip.split("\\.");
    if (parts.length != 4) {
      return null;
    }
    long[] out = new long[4];
    for (int i = 0; i < 4; i++) {
      try {
        out[i] = Long.parseLong(parts[i]);
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return out;
  }

  private static EndpointAddress address(Pod pod, Service service) {
    EndpointAddress address = new EndpointAddress();
    address.setIp(EndpointPods.ipv4(pod).orElseThrow());
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    if (node != null && !node.isEmpty()) {
      address.setNodeName(node);
    }
    if (EndpointPods.shouldSetHostname(pod, service)) {
      address.setHostname(pod.getSpec().getHostname());
    }
    ObjectReference ref = new ObjectReference();
    ref.setKind("Pod");
    ref.setNamespace(pod.getMetadata().getNamespace());
    ref.setName(pod.getMetadata().getName());
    ref.setUid(pod.getMetadata().getUid());
    address.setTargetRef(ref);
    return address;
  }

  /** Compares subsets ignoring the pods' resource versions in the target references. */
  private static boolean sameSubsets(List<EndpointSubset> current, List<EndpointSubset> desired) {
    List<EndpointSubset> a = current == null ? List.of() : current;
    return normalize(a).equals(normalize(desired));
  }

  private static List<String> normalize(List<EndpointSubset> subsets) {
    List<String> out = new ArrayList<>();
    for (EndpointSubset subset : subsets) {
      StringBuilder line = new StringBuilder();
      line.append(portsKey(subset.getPorts() == null ? List.of() : subset.getPorts())).append('|');
      appendAddresses(line, subset.getAddresses());
      line.append('|');
      appendAddresses(line, subset.getNotReadyAddresses());
      out.add(line.toString());
    }
    return out;
  }

  private static void appendAddresses(StringBuilder line, List<EndpointAddress> addresses) {
    if (addresses == null) {
      return;
    }
    for (EndpointAddress address : addresses) {
      ObjectReference ref = address.getTargetRef();
      line.append(address.getIp())
          .append(',')
          .append(Objects.toString(address.getHostname(), ""))
          .append(',')
          .append(Objects.toString(address.getNodeName(), ""))
          .append(',')
          .append(
              ref == null
                  ? ""
                  : ref.getKind()
                      + "/"
                      + ref.getNamespace()
                      + "/"
                      + ref.getName()
                      + "/"
                      + ref.getUid())
          .append(';');
    }
  }

  private static EventHandler<Endpoints> deletedEndpoints() {
    return new EventHandler<>() {
      @Override
      public void create(Endpoints object, RateLimitingQueue<Request> queue) {}

      @Override
      public void update(
          Endpoints oldObject, Endpoints newObject, RateLimitingQueue<Request> queue) {}

      @Override
      public void delete(
          Endpoints object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        queue.add(Request.of(object));
      }
    };
  }
}
