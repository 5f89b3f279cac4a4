package dev.machinery.cluster.controller.endpoint;

import dev.machinery.api.core.v1.Container;
import dev.machinery.api.core.v1.ContainerPort;
import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodCondition;
import dev.machinery.api.core.v1.PodIP;
import dev.machinery.api.core.v1.Service;
import dev.machinery.api.core.v1.ServicePort;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.Request;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.labels.Selector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The rules both endpoint controllers read pods and Services by, as Go's {@code endpointsliceutil}
 * and {@code podutil}: which pods belong in a Service's endpoints, the port a Service port resolves
 * to in a pod, readiness, hostnames of headless Services, and which Services select a pod.
 *
 * <p>Stateless; thread-safe.
 */
public final class EndpointPods {
  /** The label kube sets on the endpoints of a Service whose {@code clusterIP} is {@code None}. */
  public static final String HEADLESS_LABEL = "service.kubernetes.io/headless";

  /** The annotation of the newest change the endpoints reflect. */
  public static final String TRIGGER_TIME_ANNOTATION =
      "endpoints.kubernetes.io/last-change-trigger-time";

  private EndpointPods() {}

  /**
   * Tells whether a Service's endpoints are kept by the controllers: it has a selector and is not
   * of type {@code ExternalName}.
   *
   * @param service the Service
   * @return true when the controllers manage its endpoints
   */
  public static boolean selects(Service service) {
    if (service.getSpec() == null || service.getSpec().getSelector() == null) {
      return false;
    }
    return !"ExternalName".equals(service.getSpec().getType());
  }

  /**
   * Tells whether a Service is headless ({@code clusterIP: None}).
   *
   * @param service the Service
   * @return true when headless
   */
  public static boolean isHeadless(Service service) {
    return service.getSpec() != null && "None".equals(service.getSpec().getClusterIP());
  }

  /**
   * Tells whether a pod belongs in endpoints, as Go's {@code ShouldPodBeInEndpoints}: it has an IP,
   * is not being deleted (unless terminating pods are included), and is not finished: {@code Never}
   * pods that {@code Succeeded} or {@code Failed}, {@code OnFailure} pods that {@code Succeeded}.
   *
   * @param pod the pod
   * @param includeTerminating whether pods being deleted count
   * @return true when it belongs
   */
  public static boolean shouldBeInEndpoints(Pod pod, boolean includeTerminating) {
    if (ipv4(pod).isEmpty()) {
      return false;
    }
    if (!includeTerminating && pod.getMetadata().getDeletionTimestamp() != null) {
      return false;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    String restart = pod.getSpec() == null ? null : pod.getSpec().getRestartPolicy();
    if ("Never".equals(restart)) {
      return !"Failed".equals(phase) && !"Succeeded".equals(phase);
    }
    if ("OnFailure".equals(restart)) {
      return !"Succeeded".equals(phase);
    }
    return true;
  }

  /**
   * Returns the pod's IPv4 address: {@code status.podIP} when it is one, else the first IPv4 of
   * {@code status.podIPs}.
   *
   * @param pod the pod
   * @return the address, or empty
   */
  public static Optional<String> ipv4(Pod pod) {
    if (pod.getStatus() == null) {
      return Optional.empty();
    }
    String ip = pod.getStatus().getPodIP();
    if (ip != null && isIpv4(ip)) {
      return Optional.of(ip);
    }
    List<PodIP> ips = pod.getStatus().getPodIPs();
    if (ips != null) {
      for (PodIP candidate : ips) {
        if (candidate.getIp() != null && isIpv4(candidate.getIp())) {
          return Optional.of(candidate.getIp());
        }
      }
    }
    return Optional.empty();
  }

  private static boolean isIpv4(String ip) {
    String[] parts = ip.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String part : parts) {
      if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)) {
        return false;
      }
      if (Integer.parseInt(part) > 255) {
        return false;
      }
    }
    return true;
  }

  /**
   * Tells whether the pod's {@code Ready} condition is {@code True}.
   *
   * @param pod the pod
   * @return true when ready
   */
  public static boolean isReady(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return false;
    }
    for (PodCondition condition : pod.getStatus().getConditions()) {
      if ("Ready".equals(condition.getType())) {
        return "True".equals(condition.getStatus());
      }
    }
    return false;
  }

  /**
   * Resolves a Service port to the pod's port, as Go's {@code podutil.FindPort}: a number is taken
   * as is, a name is looked up among the containers' (and restartable init containers') ports of
   * the same protocol; a missing target port is the Service port.
   *
   * @param pod the pod
   * @param port the Service port
   * @return the port number, or empty when the name is not found
   */
  public static OptionalInt findPort(Pod pod, ServicePort port) {
    IntOrString target = port.getTargetPort();
    if (target == null) {
      return port.getPort() == null ? OptionalInt.empty() : OptionalInt.of(port.getPort());
    }
    if (target.isInt()) {
      return OptionalInt.of(target.intValue());
    }
    String name = target.stringValue();
    String protocol = protocol(port.getProtocol());
    List<Container> containers = new ArrayList<>();
    if (pod.getSpec() != null && pod.getSpec().getContainers() != null) {
      containers.addAll(pod.getSpec().getContainers());
    }
    if (pod.getSpec() != null && pod.getSpec().getInitContainers() != null) {
      for (Container init : pod.getSpec().getInitContainers()) {
        if ("Always".equals(init.getRestartPolicy())) {
          containers.add(init);
        }
      }
    }
    for (Container container : containers) {
      if (container.getPorts() == null) {
        continue;
      }
      for (ContainerPort candidate : container.getPorts()) {
        if (name.equals(candidate.getName())
            && protocol.equals(protocol(candidate.getProtocol()))
            && candidate.getContainerPort() != null) {
          return OptionalInt.of(candidate.getContainerPort());
        }
      }
    }
    return OptionalInt.empty();
  }

  /**
   * Returns a protocol, {@code TCP} when unset.
   *
   * @param protocol the protocol or null
   * @return the protocol
   */
  public static String protocol(String protocol) {
    return protocol == null || protocol.isEmpty() ? "TCP" : protocol;
  }

  /**
   * Tells whether a pod's hostname is published for a Service, as Go's {@code ShouldSetHostname}:
   * the Service is headless, the pod sets {@code hostname} and its {@code subdomain} is the
   * Service's name, in the same namespace.
   *
   * @param pod the pod
   * @param service the Service
   * @return true when the hostname is published
   */
  public static boolean shouldSetHostname(Pod pod, Service service) {
    String hostname = pod.getSpec() == null ? null : pod.getSpec().getHostname();
    return isHeadless(service)
        && hostname != null
        && !hostname.isEmpty()
        && service.getMetadata().getName().equals(pod.getSpec().getSubdomain())
        && service.getMetadata().getNamespace().equals(pod.getMetadata().getNamespace());
  }

  /**
   * Returns the time of a pod's last change that moves endpoints: its {@code Ready} condition's
   * last transition, else its creation.
   *
   * @param pod the pod
   * @return the time, or null when neither is set
   */
  public static Instant triggerTime(Pod pod) {
    if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
      for (PodCondition condition : pod.getStatus().getConditions()) {
        if ("Ready".equals(condition.getType()) && condition.getLastTransitionTime() != null) {
          return condition.getLastTransitionTime().instant();
        }
      }
    }
    return pod.getMetadata().getCreationTimestamp();
  }

  /**
   * Returns the pods a Service selects, from a pod lister.
   *
   * @param service the Service, with a selector
   * @param pods the pods
   * @return the selected pods of its namespace
   */
  public static List<Pod> selected(Service service, Lister<Pod> pods) {
    Map<String, String> selector = service.getSpec().getSelector();
    return pods.namespace(service.getMetadata().getNamespace()).list(Selector.fromSet(selector));
  }

  /**
   * Returns a handler that enqueues the Services selecting a pod (before and after a change).
   *
   * @param services the Services
   * @return the handler
   */
  public static EventHandler<Pod> servicesOfPod(Lister<Service> services) {
    return new EventHandler<>() {
      @Override
      public void create(Pod object, RateLimitingQueue<Request> queue) {
        requests(object).forEach(queue::add);
      }

      @Override
      public void update(Pod oldObject, Pod newObject, RateLimitingQueue<Request> queue) {
        Set<Request> all = requests(oldObject);
        all.addAll(requests(newObject));
        all.forEach(queue::add);
      }

      @Override
      public void delete(Pod object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        requests(object).forEach(queue::add);
      }

      private Set<Request> requests(Pod pod) {
        Set<Request> found = new LinkedHashSet<>();
        Map<String, String> labels =
            pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        for (Service service :
            services.namespace(pod.getMetadata().getNamespace()).list(Selector.everything())) {
          if (selects(service)
              && !service.getSpec().getSelector().isEmpty()
              && Selector.fromSet(service.getSpec().getSelector()).matches(labels)) {
            found.add(Request.of(service));
          }
        }
        return found;
      }
    };
  }

  /**
   * Returns the newer of two times, either possibly null.
   *
   * @param a a time or null
   * @param b a time or null
   * @return the newer, or null when both are
   */
  public static Instant newer(Instant a, Instant b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return a.isAfter(b) ? a : b;
  }
}
