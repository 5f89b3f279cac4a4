package dev.machinery.conversion.processor.shapes.internal;

import java.util.List;
import java.util.Objects;

public final class WidgetSpec {
  private int replicas;
  private RestartPolicy restartPolicy;
  private List<Port> ports;
  private Mode mode;
  private Long timeoutSeconds;

  public int getReplicas() {
    return replicas;
  }

  public void setReplicas(int replicas) {
    this.replicas = replicas;
  }

  public RestartPolicy getRestartPolicy() {
    return restartPolicy;
  }

  public void setRestartPolicy(RestartPolicy restartPolicy) {
    this.restartPolicy = restartPolicy;
  }

  public List<Port> getPorts() {
    return ports;
  }

  public void setPorts(List<Port> ports) {
    this.ports = ports;
  }

  public Mode getMode() {
    return mode;
  }

  public void setMode(Mode mode) {
    this.mode = mode;
  }

  public Long getTimeoutSeconds() {
    return timeoutSeconds;
  }

  public void setTimeoutSeconds(Long timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WidgetSpec s
        && replicas == s.replicas
        && restartPolicy == s.restartPolicy
        && Objects.equals(ports, s.ports)
        && mode == s.mode
        && Objects.equals(timeoutSeconds, s.timeoutSeconds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(replicas, restartPolicy, ports, mode, timeoutSeconds);
  }
}
