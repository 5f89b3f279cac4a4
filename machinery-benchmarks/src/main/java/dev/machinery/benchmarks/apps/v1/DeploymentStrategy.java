package dev.machinery.benchmarks.apps.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.conversion.ProtoField;
import java.util.Objects;

/** A rollout strategy. Mutable; not thread-safe. */
public final class DeploymentStrategy {
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String type;

  private RollingUpdateDeployment rollingUpdate;

  /** Creates an empty value. */
  public DeploymentStrategy() {}

  /**
   * Returns the strategy type.
   *
   * @return the strategy type
   */
  @ProtoField(1)
  public String getType() {
    return type;
  }

  /**
   * Sets the strategy type.
   *
   * @param type the strategy type
   */
  public void setType(String type) {
    this.type = type;
  }

  /**
   * Returns the rolling update parameters.
   *
   * @return the rolling update parameters
   */
  @ProtoField(value = 2, optional = true)
  public RollingUpdateDeployment getRollingUpdate() {
    return rollingUpdate;
  }

  /**
   * Sets the rolling update parameters.
   *
   * @param rollingUpdate the rolling update parameters
   */
  public void setRollingUpdate(RollingUpdateDeployment rollingUpdate) {
    this.rollingUpdate = rollingUpdate;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DeploymentStrategy)) {
      return false;
    }
    DeploymentStrategy that = (DeploymentStrategy) o;
    return Objects.equals(type, that.type) && Objects.equals(rollingUpdate, that.rollingUpdate);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, rollingUpdate);
  }
}
