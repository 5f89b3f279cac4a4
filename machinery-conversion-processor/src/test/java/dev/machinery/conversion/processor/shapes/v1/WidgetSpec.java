package dev.machinery.conversion.processor.shapes.v1;

import dev.machinery.conversion.NotConverted;
import java.util.List;
import java.util.Objects;

public final class WidgetSpec {
  private Integer replicas;
  private String restartPolicy;
  private List<Port> ports;
  private Mode mode;
  private Long timeoutSeconds;
  private String legacyOwner;

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public String getRestartPolicy() {
    return restartPolicy;
  }

  public void setRestartPolicy(String restartPolicy) {
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

  @NotConverted(reason = "read by v1 clients only; the server ignores it")
  public String getLegacyOwner() {
    return legacyOwner;
  }

  public void setLegacyOwner(String legacyOwner) {
    this.legacyOwner = legacyOwner;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WidgetSpec s
        && Objects.equals(replicas, s.replicas)
        && Objects.equals(restartPolicy, s.restartPolicy)
        && Objects.equals(ports, s.ports)
        && mode == s.mode
        && Objects.equals(timeoutSeconds, s.timeoutSeconds)
        && Objects.equals(legacyOwner, s.legacyOwner);
  }

  @Override
  public int hashCode() {
    return Objects.hash(replicas, restartPolicy, ports, mode, timeoutSeconds, legacyOwner);
  }
}
