package dev.machinery.benchmarks.apps.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.conversion.ProtoField;
import dev.machinery.conversion.ProtoReserved;
import java.util.Objects;

/** A container. Mutable; not thread-safe. */
// Fields of Kubernetes' message the benchmark model leaves out.
@ProtoReserved({5, 8, 9, 10, 11, 12, 13})
public final class Container {
  private String name;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String image;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private java.util.List<String> command;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private java.util.List<String> args;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private java.util.List<ContainerPort> ports;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private java.util.List<EnvVar> env;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String imagePullPolicy;

  /** Creates an empty value. */
  public Container() {}

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
   * Returns the image.
   *
   * @return the image
   */
  @ProtoField(2)
  public String getImage() {
    return image;
  }

  /**
   * Sets the image.
   *
   * @param image the image
   */
  public void setImage(String image) {
    this.image = image;
  }

  /**
   * Returns the entry point.
   *
   * @return the entry point
   */
  @ProtoField(3)
  public java.util.List<String> getCommand() {
    return command;
  }

  /**
   * Sets the entry point.
   *
   * @param command the entry point
   */
  public void setCommand(java.util.List<String> command) {
    this.command = command;
  }

  /**
   * Returns the arguments.
   *
   * @return the arguments
   */
  @ProtoField(4)
  public java.util.List<String> getArgs() {
    return args;
  }

  /**
   * Sets the arguments.
   *
   * @param args the arguments
   */
  public void setArgs(java.util.List<String> args) {
    this.args = args;
  }

  /**
   * Returns the ports.
   *
   * @return the ports
   */
  @ProtoField(6)
  public java.util.List<ContainerPort> getPorts() {
    return ports;
  }

  /**
   * Sets the ports.
   *
   * @param ports the ports
   */
  public void setPorts(java.util.List<ContainerPort> ports) {
    this.ports = ports;
  }

  /**
   * Returns the environment.
   *
   * @return the environment
   */
  @ProtoField(7)
  public java.util.List<EnvVar> getEnv() {
    return env;
  }

  /**
   * Sets the environment.
   *
   * @param env the environment
   */
  public void setEnv(java.util.List<EnvVar> env) {
    this.env = env;
  }

  /**
   * Returns the pull policy.
   *
   * @return the pull policy
   */
  @ProtoField(14)
  public String getImagePullPolicy() {
    return imagePullPolicy;
  }

  /**
   * Sets the pull policy.
   *
   * @param imagePullPolicy the pull policy
   */
  public void setImagePullPolicy(String imagePullPolicy) {
    this.imagePullPolicy = imagePullPolicy;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Container)) {
      return false;
    }
    Container that = (Container) o;
    return Objects.equals(name, that.name)
        && Objects.equals(image, that.image)
        && Objects.equals(command, that.command)
        && Objects.equals(args, that.args)
        && Objects.equals(ports, that.ports)
        && Objects.equals(env, that.env)
        && Objects.equals(imagePullPolicy, that.imagePullPolicy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, image, command, args, ports, env, imagePullPolicy);
  }
}
