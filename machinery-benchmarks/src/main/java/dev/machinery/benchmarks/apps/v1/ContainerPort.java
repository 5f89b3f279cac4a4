package dev.machinery.benchmarks.apps.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.conversion.ProtoField;
import dev.machinery.conversion.ProtoReserved;
import java.util.Objects;

/** A container port. Mutable; not thread-safe. */
// Fields of Kubernetes' message the benchmark model leaves out.
@ProtoReserved(2)
public final class ContainerPort {
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String name;

  private int containerPort;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String protocol;

  /** Creates an empty value. */
  public ContainerPort() {}

  /**
   * Returns the name.
   *
   * @return the name
   */
  @ProtoField(1)
  public String getName() {
    return name;
  }

  /**
   * Sets the name.
   *
   * @param name the name
   */
  public void setName(String name) {
    this.name = name;
  }

  /**
   * Returns the port number.
   *
   * @return the port number
   */
  @ProtoField(3)
  public int getContainerPort() {
    return containerPort;
  }

  /**
   * Sets the port number.
   *
   * @param containerPort the port number
   */
  public void setContainerPort(int containerPort) {
    this.containerPort = containerPort;
  }

  /**
   * Returns the protocol.
   *
   * @return the protocol
   */
  @ProtoField(4)
  public String getProtocol() {
    return protocol;
  }

  /**
   * Sets the protocol.
   *
   * @param protocol the protocol
   */
  public void setProtocol(String protocol) {
    this.protocol = protocol;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ContainerPort)) {
      return false;
    }
    ContainerPort that = (ContainerPort) o;
    return Objects.equals(name, that.name)
        && containerPort == that.containerPort
        && Objects.equals(protocol, that.protocol);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, containerPort, protocol);
  }
}
