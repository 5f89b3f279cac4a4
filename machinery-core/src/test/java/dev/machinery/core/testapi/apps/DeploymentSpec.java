package dev.machinery.core.testapi.apps;

import java.util.List;
import java.util.Map;

/** The spec of the test Deployment: a record with every shape of field. */
public record DeploymentSpec(
    Integer replicas,
    boolean paused,
    Double ratio,
    String version,
    Strategy strategy,
    List<Container> containers,
    Map<String, Object> extra) {

  /** Rollout strategies, written as their names. */
  public enum Strategy {
    RollingUpdate,
    Recreate
  }

  /** A container. */
  public record Container(String name, String image, List<Integer> ports) {}
}
