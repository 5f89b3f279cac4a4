package dev.machinery.examples.apps;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.util.ArrayList;
import java.util.List;

/** Registers the {@code apps/v1} kinds of this example. Stateless; thread-safe. */
public final class AppsV1 {
  /** The group version {@code apps/v1}. */
  public static final GroupVersion APPS_V1 = GroupVersion.of("apps", "v1");

  private AppsV1() {}

  /**
   * Adds {@code Deployment} in {@code apps/v1}, and the shared {@code meta.k8s.io/v1} types.
   *
   * @param builder the scheme builder
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    return MetaV1.addToScheme(builder).addKnownTypes(APPS_V1, Deployment.class);
  }

  /**
   * Fills what kube-apiserver defaults in a Deployment that this model holds and that its schema
   * declares a default for: a container port's {@code protocol} is {@code TCP}. (The port's key in
   * server-side apply is its number and protocol, so the stored object must hold the protocol the
   * key names.)
   *
   * @param deployment the Deployment, changed in place
   */
  public static void setDefaults(Deployment deployment) {
    DeploymentSpec spec = deployment.getSpec();
    DeploymentSpec defaulted = withDefaults(spec);
    if (defaulted != spec) {
      deployment.setSpec(defaulted);
    }
  }

  /**
   * Returns a Deployment spec with what {@link #setDefaults} fills (a container port's {@code
   * protocol}), for the kinds that share the spec (the sample server's {@code demo.example.dev}
   * Rollout calls it on every object a client writes).
   *
   * @param spec the spec, or {@code null}
   * @return the same spec when it lacks nothing, or a defaulted copy
   */
  public static DeploymentSpec withDefaults(DeploymentSpec spec) {
    if (spec == null || spec.template() == null || spec.template().spec() == null) {
      return spec;
    }
    PodSpec pod = spec.template().spec();
    if (pod.containers() == null) {
      return spec;
    }
    List<Container> containers = new ArrayList<>(pod.containers().size());
    boolean changed = false;
    for (Container c : pod.containers()) {
      if (c == null
          || c.ports() == null
          || c.ports().stream().allMatch(p -> p == null || p.protocol() != null)) {
        containers.add(c);
        continue;
      }
      List<ContainerPort> ports = new ArrayList<>(c.ports().size());
      for (ContainerPort p : c.ports()) {
        ports.add(
            p == null || p.protocol() != null
                ? p
                : new ContainerPort(p.name(), p.containerPort(), "TCP"));
      }
      containers.add(
          new Container(
              c.name(),
              c.image(),
              c.args(),
              ports,
              c.env(),
              c.resources(),
              c.livenessProbe(),
              c.readinessProbe(),
              c.imagePullPolicy()));
      changed = true;
    }
    if (!changed) {
      return spec;
    }
    return new DeploymentSpec(
        spec.replicas(),
        spec.selector(),
        new PodTemplateSpec(
            spec.template().metadata(),
            new PodSpec(containers, pod.restartPolicy(), pod.terminationGracePeriodSeconds())),
        spec.strategy(),
        spec.minReadySeconds(),
        spec.revisionHistoryLimit(),
        spec.paused(),
        spec.progressDeadlineSeconds());
  }
}
