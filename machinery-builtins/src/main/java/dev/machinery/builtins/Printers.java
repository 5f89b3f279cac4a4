package dev.machinery.builtins;

import dev.machinery.apiserver.negotiation.TableConvertor;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * kube-apiserver's Table columns (its {@code pkg/printers/internalversion} printers) for the kinds
 * {@code kubectl get} users see most. Kinds not here get the server's default Table (name and age),
 * as kube-apiserver gives kinds it has no printer for.
 */
final class Printers {
  private Printers() {}

  /** Where a workload keeps its pod spec. */
  private static final String[] TEMPLATE = {"spec", "template", "spec"};

  private static final java.util.Set<String> PRINTED =
      java.util.Set.of(
          "/Pod",
          "apps/Deployment",
          "apps/ReplicaSet",
          "apps/StatefulSet",
          "apps/DaemonSet",
          "batch/Job",
          "batch/CronJob",
          "/Service",
          "/Endpoints",
          "discovery.k8s.io/EndpointSlice",
          "/ConfigMap",
          "/Secret",
          "/Namespace",
          "/Node",
          "/Event",
          "events.k8s.io/Event",
          "coordination.k8s.io/Lease",
          "autoscaling/HorizontalPodAutoscaler",
          "/ServiceAccount",
          "networking.k8s.io/Ingress",
          "/PersistentVolumeClaim",
          "certificates.k8s.io/CertificateSigningRequest");

  /** Whether kube-apiserver's printers have columns for the kind here. */
  static boolean has(GroupKind kind) {
    return PRINTED.contains(kind.group() + "/" + kind.kind());
  }

  static Optional<TableConvertor> forKind(GroupKind kind) {
    return Optional.ofNullable(
        switch (kind.group() + "/" + kind.kind()) {
          case "/Pod" -> pods();
          case "apps/Deployment" ->
              TreeTable.named()
                  .add(
                      "Ready",
                      "string",
                      0,
                      "Number of the pod with ready state",
                      o ->
                          Cells.number(o, "status", "readyReplicas")
                              + "/"
                              + Cells.number(o, "spec", "replicas"))
                  .add(
                      "Up-to-date",
                      "string",
                      0,
                      "Total number of non-terminated pods targeted by this deployment that have the"
                          + " desired template spec.",
                      o -> Cells.number(o, "status", "updatedReplicas"))
                  .add(
                      "Available",
                      "string",
                      0,
                      "Total number of available pods (ready for at least minReadySeconds) targeted by"
                          + " this deployment.",
                      o -> Cells.number(o, "status", "availableReplicas"))
                  .age()
                  .templateColumns(TEMPLATE, "spec", "selector");
          case "apps/ReplicaSet" ->
              TreeTable.named()
                  .add(
                      "Desired",
                      "integer",
                      0,
                      "Number of desired pods.",
                      o -> Cells.number(o, "spec", "replicas"))
                  .add(
                      "Current",
                      "integer",
                      0,
                      "Number of actual replicas.",
                      o -> Cells.number(o, "status", "replicas"))
                  .add(
                      "Ready",
                      "integer",
                      0,
                      "Number of ready replicas.",
                      o -> Cells.number(o, "status", "readyReplicas"))
                  .age()
                  .templateColumns(TEMPLATE, "spec", "selector");
          case "apps/StatefulSet" ->
              TreeTable.named()
                  .add(
                      "Ready",
                      "string",
                      0,
                      "Number of the pod with ready state",
                      o ->
                          Cells.number(o, "status", "readyReplicas")
                              + "/"
                              + Cells.number(o, "spec", "replicas"))
                  .age()
                  .templateColumns(TEMPLATE);
          case "apps/DaemonSet" ->
              TreeTable.named()
                  .add(
                      "Desired",
                      "integer",
                      0,
                      "The total number of nodes that should be running the daemon pod.",
                      o -> Cells.number(o, "status", "desiredNumberScheduled"))
                  .add(
                      "Current",
                      "integer",
                      0,
                      "The number of nodes that are running at least 1 daemon pod.",
                      o -> Cells.number(o, "status", "currentNumberScheduled"))
                  .add(
                      "Ready",
                      "integer",
                      0,
                      "The number of nodes that should be running the daemon pod and have one or more"
                          + " of the daemon pod running and ready.",
                      o -> Cells.number(o, "status", "numberReady"))
                  .add(
                      "Up-to-date",
                      "integer",
                      0,
                      "The total number of nodes that are running updated daemon pod",
                      o -> Cells.number(o, "status", "updatedNumberScheduled"))
                  .add(
                      "Available",
                      "integer",
                      0,
                      "The number of nodes that should be running the daemon pod and have one or more"
                          + " of the daemon pod running and available.",
                      o -> Cells.number(o, "status", "numberAvailable"))
                  .add(
                      "Node Selector",
                      "string",
                      0,
                      "NodeSelector is a selector which must be true for the pod to fit on a node.",
                      o -> Cells.labels(o, "spec", "template", "spec", "nodeSelector"))
                  .age()
                  .templateColumns(TEMPLATE, "spec", "selector");
          case "batch/Job" -> jobs();
          case "batch/CronJob" ->
              TreeTable.named()
                  .add(
                      "Schedule",
                      "string",
                      0,
                      "The schedule in Cron format.",
                      o -> JsonTrees.string(o, "", "spec", "schedule"))
                  .add(
                      "Timezone",
                      "string",
                      0,
                      "The time zone name for the given schedule.",
                      o -> JsonTrees.string(o, "<none>", "spec", "timeZone"))
                  .add(
                      "Suspend",
                      "boolean",
                      0,
                      "This flag tells the controller to suspend subsequent executions.",
                      o -> Boolean.TRUE.equals(JsonTrees.get(o, "spec", "suspend")))
                  .add(
                      "Active",
                      "integer",
                      0,
                      "A list of pointers to currently running jobs.",
                      o -> (long) JsonTrees.maps(o, "status", "active").size())
                  .add(
                      "Last Schedule",
                      "string",
                      0,
                      "Information when was the last time the job was successfully scheduled.",
                      o -> {
                        String last = JsonTrees.string(o, null, "status", "lastScheduleTime");
                        return last == null ? "<none>" : Cells.since(last);
                      })
                  .age()
                  .templateColumns(
                      new String[] {"spec", "jobTemplate", "spec", "template", "spec"},
                      "spec",
                      "jobTemplate",
                      "spec",
                      "selector");
          case "/Service" -> services();
          case "/Endpoints" ->
              TreeTable.named()
                  .add("Endpoints", "string", 0, "Endpoints of the service.", Printers::endpoints)
                  .age();
          case "discovery.k8s.io/EndpointSlice" ->
              TreeTable.named()
                  .add(
                      "AddressType",
                      "string",
                      0,
                      "The type of address carried by this EndpointSlice.",
                      o -> JsonTrees.string(o, "", "addressType"))
                  .add(
                      "Ports",
                      "string",
                      0,
                      "Ports exposed by the endpoints of this EndpointSlice.",
                      o -> {
                        List<String> ports = new ArrayList<>();
                        JsonTrees.maps(o, "ports")
                            .forEach(p -> ports.add(JsonTrees.get(p, "port") + ""));
                        return ports.isEmpty() ? "<unset>" : String.join(",", ports);
                      })
                  .add(
                      "Endpoints",
                      "string",
                      0,
                      "Addresses of the endpoints of this EndpointSlice.",
                      o -> {
                        List<String> addresses = new ArrayList<>();
                        for (Map<String, Object> e : JsonTrees.maps(o, "endpoints")) {
                          if (JsonTrees.get(e, "addresses") instanceof List<?> list) {
                            list.forEach(a -> addresses.add(String.valueOf(a)));
                          }
                        }
                        return addresses.isEmpty() ? "<unset>" : abbreviate(addresses);
                      })
                  .age();
          case "/ConfigMap" ->
              TreeTable.named()
                  .add(
                      "Data",
                      "integer",
                      0,
                      "Number of keys.",
                      o -> Cells.keys(o, "data", "binaryData"))
                  .age();
          case "/Secret" ->
              TreeTable.named()
                  .add(
                      "Type",
                      "string",
                      0,
                      "The type of the secret.",
                      o -> JsonTrees.string(o, "", "type"))
                  .add("Data", "integer", 0, "Number of keys.", o -> Cells.keys(o, "data"))
                  .age();
          case "/Namespace" ->
              TreeTable.named()
                  .add(
                      "Status",
                      "string",
                      0,
                      "The status of the namespace",
                      o -> JsonTrees.string(o, "Active", "status", "phase"))
                  .age();
          case "/Node" -> nodes();
          case "/Event" -> events();
          // kube-apiserver prints both groups' Events from the one internal type.
          case "events.k8s.io/Event" -> events().viewing(o -> EventConversion.view(o, false));
          case "autoscaling/HorizontalPodAutoscaler" -> horizontalPodAutoscalers();
          case "coordination.k8s.io/Lease" ->
              TreeTable.named()
                  .add(
                      "Holder",
                      "string",
                      0,
                      "The holder of the lease.",
                      o -> JsonTrees.string(o, "", "spec", "holderIdentity"))
                  .age();
          case "/ServiceAccount" ->
              TreeTable.named()
                  .add(
                      "Secrets",
                      "string",
                      0,
                      "Secrets is a list of the secrets in the same namespace that pods running using"
                          + " this ServiceAccount are allowed to use.",
                      o -> String.valueOf(JsonTrees.maps(o, "secrets").size()))
                  .age();
          case "networking.k8s.io/Ingress" -> ingresses();
          case "/PersistentVolumeClaim" -> claims();
          case "certificates.k8s.io/CertificateSigningRequest" -> certificateSigningRequests();
          default -> null;
        });
  }

  /**
   * A CertificateSigningRequest's columns: the age comes second, then the signer, the requestor
   * ({@code spec.username}), the requested duration and the condition ({@code Denied} before {@code
   * Approved} before {@code Pending}, then {@code ,Failed} and {@code ,Issued}). The descriptions
   * are the first paragraphs of the fields' documentation.
   */
  private static TreeTable certificateSigningRequests() {
    return TreeTable.named()
        .age()
        .add(
            "SignerName",
            "string",
            0,
            "signerName indicates the requested signer, and is a qualified name.",
            o -> JsonTrees.string(o, "<none>", "spec", "signerName"))
        .add(
            "Requestor",
            "string",
            0,
            "Name of the user which made this request.",
            o -> JsonTrees.string(o, "", "spec", "username"))
        .add(
            "RequestedDuration",
            "string",
            0,
            "expirationSeconds is the requested duration of validity of the issued certificate."
                + " The certificate signer may issue a certificate with a different validity"
                + " duration so a client must check the delta between the notBefore and and"
                + " notAfter fields in the issued certificate to determine the actual duration.",
            o ->
                JsonTrees.get(o, "spec", "expirationSeconds") instanceof Number seconds
                    ? dev.machinery.apiserver.negotiation.Ages.human(
                        Duration.ofSeconds(seconds.longValue()))
                    : "<none>")
        .add(
            "Condition",
            "string",
            0,
            "Current condition of the certificate signing request",
            Printers::csrCondition);
  }

  /** kube's {@code extractCSRStatus}. */
  static String csrCondition(Map<String, Object> csr) {
    boolean approved = false;
    boolean denied = false;
    boolean failed = false;
    for (Map<String, Object> c : JsonTrees.maps(csr, "status", "conditions")) {
      switch (String.valueOf(c.get("type"))) {
        case "Approved" -> approved = true;
        case "Denied" -> denied = true;
        case "Failed" -> failed = true;
        default -> {}
      }
    }
    String status = denied ? "Denied" : approved ? "Approved" : "Pending";
    if (failed) {
      status += ",Failed";
    }
    if (!JsonTrees.string(csr, "", "status", "certificate").isEmpty()) {
      status += ",Issued";
    }
    return status;
  }

  private static TreeTable pods() {
    return TreeTable.named()
        .add(
            "Ready",
            "string",
            0,
            "The aggregate readiness state of this pod for accepting traffic.",
            o -> {
              long ready =
                  JsonTrees.maps(o, "status", "containerStatuses").stream()
                      .filter(s -> Boolean.TRUE.equals(s.get("ready")))
                      .count();
              return ready + "/" + JsonTrees.maps(o, "spec", "containers").size();
            })
        .add(
            "Status",
            "string",
            0,
            "The aggregate status of the containers in this pod.",
            Printers::podStatus)
        .add(
            "Restarts",
            "string",
            0,
            "The number of times the containers in this pod have been restarted and when the last"
                + " container in this pod has restarted.",
            o ->
                String.valueOf(
                    JsonTrees.maps(o, "status", "containerStatuses").stream()
                        .mapToLong(s -> JsonTrees.number(s, 0, "restartCount"))
                        .sum()))
        .age()
        .add(
            "IP",
            "string",
            1,
            "IP address allocated to the pod. Routable at least within the cluster.",
            o -> JsonTrees.string(o, "<none>", "status", "podIP"))
        .add(
            "Node",
            "string",
            1,
            "NodeName is a request to schedule this pod onto a specific node.",
            o -> JsonTrees.string(o, "<none>", "spec", "nodeName"))
        .add(
            "Nominated Node",
            "string",
            1,
            "nominatedNodeName is set only when this pod preempts other pods on the node.",
            o -> JsonTrees.string(o, "<none>", "status", "nominatedNodeName"))
        .add(
            "Readiness Gates",
            "string",
            1,
            "If specified, all readiness gates will be evaluated for pod readiness.",
            o -> {
              List<Map<String, Object>> gates = JsonTrees.maps(o, "spec", "readinessGates");
              return gates.isEmpty() ? "<none>" : "0/" + gates.size();
            });
  }

  /** The pod's phase, or why it is not running, as kubectl shows it. */
  private static String podStatus(Map<String, Object> o) {
    String reason = JsonTrees.string(o, null, "status", "reason");
    if (reason == null) {
      reason = JsonTrees.string(o, "Pending", "status", "phase");
    }
    for (Map<String, Object> status : JsonTrees.maps(o, "status", "containerStatuses")) {
      String waiting = JsonTrees.string(status, null, "state", "waiting", "reason");
      String terminated = JsonTrees.string(status, null, "state", "terminated", "reason");
      if (waiting != null && !waiting.isEmpty()) {
        reason = waiting;
      } else if (terminated != null && !terminated.isEmpty()) {
        reason = terminated;
      }
    }
    if (JsonTrees.get(o, "metadata", "deletionTimestamp") != null) {
      reason = "Terminating";
    }
    return reason;
  }

  private static TreeTable jobs() {
    return TreeTable.named()
        .add(
            "Status",
            "string",
            0,
            "Status of the job.",
            o -> {
              for (Map<String, Object> c : JsonTrees.maps(o, "status", "conditions")) {
                if ("True".equals(c.get("status"))) {
                  String type = String.valueOf(c.get("type"));
                  if (type.equals("Complete")) {
                    return "Complete";
                  }
                  if (type.equals("Failed")) {
                    return "Failed";
                  }
                  if (type.equals("Suspended")) {
                    return "Suspended";
                  }
                }
              }
              return Boolean.TRUE.equals(JsonTrees.get(o, "spec", "suspend"))
                  ? "Suspended"
                  : "Running";
            })
        .add(
            "Completions",
            "string",
            0,
            "The completion status of the job",
            o -> {
              long succeeded = Cells.number(o, "status", "succeeded");
              Object completions = JsonTrees.get(o, "spec", "completions");
              if (completions instanceof Number n) {
                return succeeded + "/" + n.longValue();
              }
              long parallelism = JsonTrees.number(o, 0, "spec", "parallelism");
              return parallelism > 1 ? succeeded + "/1 of " + parallelism : succeeded + "/1";
            })
        .add(
            "Duration",
            "string",
            0,
            "Time required to complete the job.",
            o -> {
              Instant start = Cells.instant(JsonTrees.string(o, null, "status", "startTime"));
              if (start == null) {
                return "";
              }
              Instant end = Cells.instant(JsonTrees.string(o, null, "status", "completionTime"));
              Duration duration = Duration.between(start, end == null ? Instant.now() : end);
              return dev.machinery.apiserver.negotiation.Ages.human(duration);
            })
        .age()
        .templateColumns(TEMPLATE, "spec", "selector");
  }

  private static TreeTable services() {
    return TreeTable.named()
        .add(
            "Type",
            "string",
            0,
            "type determines how the Service is exposed.",
            o -> JsonTrees.string(o, "ClusterIP", "spec", "type"))
        .add(
            "Cluster-IP",
            "string",
            0,
            "clusterIP is the IP address of the service and is usually assigned randomly.",
            o -> {
              String ip = JsonTrees.string(o, "", "spec", "clusterIP");
              return ip.isEmpty() ? "<none>" : ip;
            })
        .add(
            "External-IP",
            "string",
            0,
            "externalIPs is a list of IP addresses for which nodes in the cluster will also"
                + " accept traffic for this service.",
            Printers::externalIp)
        .add(
            "Port(s)",
            "string",
            0,
            "The list of ports that are exposed by this service.",
            o -> {
              List<String> ports = new ArrayList<>();
              for (Map<String, Object> port : JsonTrees.maps(o, "spec", "ports")) {
                String text = JsonTrees.get(port, "port") + "";
                if (JsonTrees.get(port, "nodePort") != null) {
                  text += ":" + JsonTrees.get(port, "nodePort");
                }
                ports.add(text + "/" + JsonTrees.string(port, "TCP", "protocol"));
              }
              return ports.isEmpty() ? "<none>" : String.join(",", ports);
            })
        .age()
        .add(
            "Selector",
            "string",
            1,
            "Route service traffic to pods with label keys and values matching this selector.",
            o -> Cells.labels(o, "spec", "selector"));
  }

  private static String externalIp(Map<String, Object> o) {
    String type = JsonTrees.string(o, "ClusterIP", "spec", "type");
    List<String> ips = new ArrayList<>();
    if (JsonTrees.get(o, "spec", "externalIPs") instanceof List<?> list) {
      list.forEach(v -> ips.add(String.valueOf(v)));
    }
    switch (type) {
      case "ExternalName":
        return JsonTrees.string(o, "<none>", "spec", "externalName");
      case "LoadBalancer":
        for (Map<String, Object> ingress : JsonTrees.maps(o, "status", "loadBalancer", "ingress")) {
          Object ip = ingress.get("ip") != null ? ingress.get("ip") : ingress.get("hostname");
          if (ip != null) {
            ips.add(String.valueOf(ip));
          }
        }
        return ips.isEmpty() ? "<pending>" : String.join(",", ips);
      default:
        return ips.isEmpty() ? "<none>" : String.join(",", ips);
    }
  }

  private static String endpoints(Map<String, Object> o) {
    List<String> out = new ArrayList<>();
    for (Map<String, Object> subset : JsonTrees.maps(o, "subsets")) {
      List<Map<String, Object>> ports = JsonTrees.maps(subset, "ports");
      for (Map<String, Object> address : JsonTrees.maps(subset, "addresses")) {
        String ip = JsonTrees.string(address, "", "ip");
        if (ports.isEmpty()) {
          out.add(ip);
        } else {
          ports.forEach(p -> out.add(ip + ":" + JsonTrees.get(p, "port")));
        }
      }
    }
    return out.isEmpty() ? "<none>" : abbreviate(out);
  }

  /** The first three entries and how many more, as kubectl abbreviates long lists. */
  private static String abbreviate(List<String> entries) {
    if (entries.size() <= 3) {
      return String.join(",", entries);
    }
    return String.join(",", entries.subList(0, 3)) + " + " + (entries.size() - 3) + " more...";
  }

  private static TreeTable nodes() {
    return TreeTable.named()
        .add(
            "Status",
            "string",
            0,
            "The status of the node",
            o -> {
              String ready = "Unknown";
              for (Map<String, Object> c : JsonTrees.maps(o, "status", "conditions")) {
                if ("Ready".equals(c.get("type"))) {
                  ready = "True".equals(c.get("status")) ? "Ready" : "NotReady";
                }
              }
              return Boolean.TRUE.equals(JsonTrees.get(o, "spec", "unschedulable"))
                  ? ready + ",SchedulingDisabled"
                  : ready;
            })
        .add(
            "Roles",
            "string",
            0,
            "The roles of the node",
            o -> {
              Map<String, Object> labels = JsonTrees.map(o, "metadata", "labels");
              List<String> roles = new ArrayList<>();
              if (labels != null) {
                for (String key : labels.keySet()) {
                  if (key.startsWith("node-role.kubernetes.io/")) {
                    roles.add(key.substring("node-role.kubernetes.io/".length()));
                  }
                }
              }
              return roles.isEmpty()
                  ? "<none>"
                  : roles.stream().sorted().collect(Collectors.joining(","));
            })
        .age()
        .add(
            "Version",
            "string",
            0,
            "Kubelet Version reported by the node.",
            o -> JsonTrees.string(o, "", "status", "nodeInfo", "kubeletVersion"))
        .add(
            "Internal-IP",
            "string",
            1,
            "List of addresses reachable to the node.",
            o -> address(o, "InternalIP"))
        .add(
            "External-IP",
            "string",
            1,
            "List of addresses reachable to the node.",
            o -> address(o, "ExternalIP"))
        .add(
            "OS-Image",
            "string",
            1,
            "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
            o -> JsonTrees.string(o, "<unknown>", "status", "nodeInfo", "osImage"))
        .add(
            "Kernel-Version",
            "string",
            1,
            "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
            o -> JsonTrees.string(o, "<unknown>", "status", "nodeInfo", "kernelVersion"))
        .add(
            "Container-Runtime",
            "string",
            1,
            "ContainerRuntime Version reported by the node through runtime remote API (e.g."
                + " containerd://1.4.2).",
            o -> JsonTrees.string(o, "<unknown>", "status", "nodeInfo", "containerRuntimeVersion"));
  }

  private static String address(Map<String, Object> o, String type) {
    for (Map<String, Object> address : JsonTrees.maps(o, "status", "addresses")) {
      if (type.equals(address.get("type"))) {
        return JsonTrees.string(address, "<none>", "address");
      }
    }
    return "<none>";
  }

  private static TreeTable events() {
    return TreeTable.unnamed()
        .add(
            "Last Seen",
            "string",
            0,
            "The time at which the most recent occurrence of this event was recorded.",
            o -> {
              String last = JsonTrees.string(o, null, "lastTimestamp");
              if (last == null) {
                last = JsonTrees.string(o, null, "eventTime");
              }
              if (last == null) {
                last = JsonTrees.string(o, null, "metadata", "creationTimestamp");
              }
              return Cells.since(last);
            })
        .add(
            "Type",
            "string",
            0,
            "Type of this event (Normal, Warning).",
            o -> JsonTrees.string(o, "", "type"))
        .add(
            "Reason",
            "string",
            0,
            "This should be a short, machine understandable string that gives the reason for the"
                + " transition into the object's current status.",
            o -> JsonTrees.string(o, "", "reason"))
        .add(
            "Object",
            "string",
            0,
            "The object that this event is about.",
            o ->
                JsonTrees.string(o, "", "involvedObject", "kind").toLowerCase(java.util.Locale.ROOT)
                    + "/"
                    + JsonTrees.string(o, "", "involvedObject", "name"))
        .add(
            "Subobject",
            "string",
            1,
            "The subobject that this event is about.",
            o -> JsonTrees.string(o, "", "involvedObject", "fieldPath"))
        .add("Source", "string", 1, "The component reporting this event.", Printers::eventSource)
        .add(
            "Message",
            "string",
            0,
            "A human-readable description of the status of this operation.",
            o -> JsonTrees.string(o, "", "message"))
        .add(
            "First Seen",
            "string",
            1,
            "The time at which the event was first recorded.",
            o -> Cells.since(JsonTrees.string(o, null, "firstTimestamp")))
        .add(
            "Count",
            "string",
            1,
            "The number of times this event has occurred.",
            o -> String.valueOf(JsonTrees.number(o, 1, "count")))
        .name(1);
  }

  /**
   * kube's HorizontalPodAutoscaler columns, the same in both versions served: an {@code
   * autoscaling/v1} object is printed as its {@code v2} form (kube prints its internal type).
   */
  private static TableConvertor horizontalPodAutoscalers() {
    TreeTable v2 = hpaColumns();
    TreeTable v1 = hpaColumns().viewing(HorizontalPodAutoscalerConversion::v2View);
    return new TableConvertor() {
      @Override
      public List<dev.machinery.unversioned.meta.v1.TableColumnDefinition> columns() {
        return v2.columns();
      }

      @Override
      public List<Object> cells(Object object) {
        return v2.cells(object);
      }

      @Override
      public TableConvertor forVersion(dev.machinery.core.schema.GroupVersion version) {
        return version.equals(HorizontalPodAutoscalerConversion.V1) ? v1 : this;
      }
    };
  }

  private static TreeTable hpaColumns() {
    return TreeTable.named()
        .add(
            "Reference",
            "string",
            0,
            "The reference to the scaled resource.",
            o ->
                JsonTrees.string(o, "", "spec", "scaleTargetRef", "kind")
                    + "/"
                    + JsonTrees.string(o, "", "spec", "scaleTargetRef", "name"))
        .add(
            "Targets",
            "string",
            0,
            "The metrics used to calculate the desired replica count.",
            Printers::hpaTargets)
        .add(
            "MinPods",
            "string",
            0,
            "The lower limit for the number of replicas to which the autoscaler can scale down.",
            o -> {
              Object min = JsonTrees.get(o, "spec", "minReplicas");
              return min == null ? "<unset>" : String.valueOf(min);
            })
        .add(
            "MaxPods",
            "integer",
            0,
            "The upper limit for the number of pods that can be set by the autoscaler.",
            o -> JsonTrees.number(o, 0, "spec", "maxReplicas"))
        .add(
            "Replicas",
            "integer",
            0,
            "The current number of replicas of pods managed by this autoscaler.",
            o -> JsonTrees.number(o, 0, "status", "currentReplicas"))
        .age();
  }

  /**
   * The Targets cell as kube's printer writes it: each metric's current value (from the status
   * metric at the same index, {@code <unknown>} without one) over its target, the first two, then
   * how many more.
   */
  private static String hpaTargets(Map<String, Object> hpa) {
    List<Map<String, Object>> specs = JsonTrees.maps(hpa, "spec", "metrics");
    if (specs.isEmpty()) {
      return "<none>";
    }
    List<Map<String, Object>> statuses = JsonTrees.maps(hpa, "status", "currentMetrics");
    List<String> list = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      Map<String, Object> spec = specs.get(i);
      Map<String, Object> status = i < statuses.size() ? statuses.get(i) : Map.of();
      String type = JsonTrees.string(spec, "", "type");
      list.add(
          switch (type) {
            case "External", "Object" -> {
              String key = type.equals("External") ? "external" : "object";
              String average = quantity(spec, null, key, "target", "averageValue");
              if (average != null) {
                yield quantity(status, "<unknown>", key, "current", "averageValue")
                    + "/"
                    + average
                    + " (avg)";
              }
              yield (status.get(key) == null
                      ? "<unknown>"
                      : quantity(status, "0", key, "current", "value"))
                  + "/"
                  + quantity(spec, "0", key, "target", "value");
            }
            case "Pods" ->
                (status.get("pods") == null
                        ? "<unknown>"
                        : quantity(status, "0", "pods", "current", "averageValue"))
                    + "/"
                    + quantity(spec, "0", "pods", "target", "averageValue");
            case "Resource", "ContainerResource" -> {
              String key = type.equals("Resource") ? "resource" : "containerResource";
              String name = JsonTrees.string(spec, "", key, "name");
              String average = quantity(spec, null, key, "target", "averageValue");
              if (average != null) {
                yield name
                    + ": "
                    + (status.get(key) == null
                        ? "<unknown>"
                        : quantity(status, "0", key, "current", "averageValue"))
                    + "/"
                    + average;
              }
              Object current = JsonTrees.get(status, key, "current", "averageUtilization");
              Object target = JsonTrees.get(spec, key, "target", "averageUtilization");
              yield name
                  + ": "
                  + (current == null ? "<unknown>" : current + "%")
                  + "/"
                  + (target == null ? "<auto>" : target + "%");
            }
            default -> "<unknown type>";
          });
    }
    if (list.size() > 2) {
      return String.join(", ", list.subList(0, 2)) + " + " + (list.size() - 2) + " more...";
    }
    return String.join(", ", list);
  }

  /** A quantity at a path as its text (a string, or a number written as JSON allows), or else. */
  private static String quantity(Object tree, String otherwise, String... path) {
    Object value = JsonTrees.get(tree, path);
    return value instanceof String || value instanceof Number ? String.valueOf(value) : otherwise;
  }

  /**
   * An Event's source as kube's printer writes it: the source's component and host, each in place
   * of the reporting controller and instance when empty, the host left out when both are.
   */
  private static String eventSource(Map<String, Object> event) {
    String component = JsonTrees.string(event, "", "source", "component");
    if (component.isEmpty()) {
      component = JsonTrees.string(event, "", "reportingComponent");
    }
    String host = JsonTrees.string(event, "", "source", "host");
    if (host.isEmpty()) {
      host = JsonTrees.string(event, "", "reportingInstance");
    }
    return host.isEmpty() ? component : component + ", " + host;
  }

  private static TreeTable ingresses() {
    return TreeTable.named()
        .add(
            "Class",
            "string",
            0,
            "The name of the IngressClass cluster resource.",
            o -> JsonTrees.string(o, "<none>", "spec", "ingressClassName"))
        .add(
            "Hosts",
            "string",
            0,
            "Hosts that incoming requests are matched against before the ingress rule",
            o -> {
              List<String> hosts = new ArrayList<>();
              JsonTrees.maps(o, "spec", "rules")
                  .forEach(r -> hosts.add(JsonTrees.string(r, "*", "host")));
              return hosts.isEmpty() ? "*" : abbreviate(hosts);
            })
        .add(
            "Address",
            "string",
            0,
            "Address is a list containing ingress points for the load-balancer",
            o -> {
              List<String> addresses = new ArrayList<>();
              for (Map<String, Object> i : JsonTrees.maps(o, "status", "loadBalancer", "ingress")) {
                Object a = i.get("ip") != null ? i.get("ip") : i.get("hostname");
                if (a != null) {
                  addresses.add(String.valueOf(a));
                }
              }
              return String.join(",", addresses);
            })
        .add(
            "Ports",
            "string",
            0,
            "Ports of TLS configurations that open",
            o -> JsonTrees.maps(o, "spec", "tls").isEmpty() ? "80" : "80, 443")
        .age();
  }

  private static TreeTable claims() {
    return TreeTable.named()
        .add(
            "Status",
            "string",
            0,
            "The phase of the claim.",
            o -> JsonTrees.string(o, "Pending", "status", "phase"))
        .add(
            "Volume",
            "string",
            0,
            "The binding reference to the PersistentVolume backing this claim.",
            o -> JsonTrees.string(o, "", "spec", "volumeName"))
        .add(
            "Capacity",
            "string",
            0,
            "The actual resources of the underlying volume.",
            o -> {
              Object storage = JsonTrees.get(o, "status", "capacity", "storage");
              return storage == null ? "" : String.valueOf(storage);
            })
        .add(
            "Access Modes",
            "string",
            0,
            "AccessModes contains the desired access modes the volume should have.",
            o -> accessModes(o))
        .add(
            "StorageClass",
            "string",
            0,
            "StorageClass of the pvc",
            o -> JsonTrees.string(o, "<unset>", "spec", "storageClassName"))
        .add(
            "VolumeAttributesClass",
            "string",
            0,
            "VolumeAttributesClass of the pvc",
            o -> JsonTrees.string(o, "<unset>", "spec", "volumeAttributesClassName"))
        .age()
        .add(
            "VolumeMode",
            "string",
            1,
            "The volume mode of the claim.",
            o -> JsonTrees.string(o, "Filesystem", "spec", "volumeMode"));
  }

  /** Access modes in kubectl's short form (RWO, ROX, RWX, RWOP), of the bound volume. */
  private static String accessModes(Map<String, Object> o) {
    List<String> out = new ArrayList<>();
    if (JsonTrees.get(o, "status", "accessModes") instanceof List<?> modes) {
      for (Object mode : modes) {
        out.add(
            switch (String.valueOf(mode)) {
              case "ReadWriteOnce" -> "RWO";
              case "ReadOnlyMany" -> "ROX";
              case "ReadWriteMany" -> "RWX";
              case "ReadWriteOncePod" -> "RWOP";
              default -> String.valueOf(mode);
            });
      }
    }
    return String.join(",", out);
  }
}
