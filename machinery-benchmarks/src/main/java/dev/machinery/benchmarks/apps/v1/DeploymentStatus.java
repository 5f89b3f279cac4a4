package dev.machinery.benchmarks.apps.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.conversion.ProtoField;
import dev.machinery.conversion.ProtoReserved;
import java.util.Objects;

/** The observed state of a Deployment. Mutable; not thread-safe. */
// Fields of Kubernetes' message the benchmark model leaves out.
@ProtoReserved(6)
public final class DeploymentStatus {
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  private long observedGeneration;

  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  private int replicas;

  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  private int updatedReplicas;

  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  private int readyReplicas;

  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  private int availableReplicas;

  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  private int unavailableReplicas;

  /** Creates an empty value. */
  public DeploymentStatus() {}

  /**
   * Returns the generation observed.
   *
   * @return the generation observed
   */
  @ProtoField(1)
  public long getObservedGeneration() {
    return observedGeneration;
  }

  /**
   * Sets the generation observed.
   *
   * @param observedGeneration the generation observed
   */
  public void setObservedGeneration(long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  /**
   * Returns pods targeted.
   *
   * @return pods targeted
   */
  @ProtoField(2)
  public int getReplicas() {
    return replicas;
  }

  /**
   * Sets pods targeted.
   *
   * @param replicas pods targeted
   */
  public void setReplicas(int replicas) {
    this.replicas = replicas;
  }

  /**
   * Returns pods updated.
   *
   * @return pods updated
   */
  @ProtoField(3)
  public int getUpdatedReplicas() {
    return updatedReplicas;
  }

  /**
   * Sets pods updated.
   *
   * @param updatedReplicas pods updated
   */
  public void setUpdatedReplicas(int updatedReplicas) {
    this.updatedReplicas = updatedReplicas;
  }

  /**
   * Returns pods ready.
   *
   * @return pods ready
   */
  @ProtoField(7)
  public int getReadyReplicas() {
    return readyReplicas;
  }

  /**
   * Sets pods ready.
   *
   * @param readyReplicas pods ready
   */
  public void setReadyReplicas(int readyReplicas) {
    this.readyReplicas = readyReplicas;
  }

  /**
   * Returns pods available.
   *
   * @return pods available
   */
  @ProtoField(4)
  public int getAvailableReplicas() {
    return availableReplicas;
  }

  /**
   * Sets pods available.
   *
   * @param availableReplicas pods available
   */
  public void setAvailableReplicas(int availableReplicas) {
    this.availableReplicas = availableReplicas;
  }

  /**
   * Returns pods unavailable.
   *
   * @return pods unavailable
   */
  @ProtoField(5)
  public int getUnavailableReplicas() {
    return unavailableReplicas;
  }

  /**
   * Sets pods unavailable.
   *
   * @param unavailableReplicas pods unavailable
   */
  public void setUnavailableReplicas(int unavailableReplicas) {
    this.unavailableReplicas = unavailableReplicas;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DeploymentStatus)) {
      return false;
    }
    DeploymentStatus that = (DeploymentStatus) o;
    return observedGeneration == that.observedGeneration
        && replicas == that.replicas
        && updatedReplicas == that.updatedReplicas
        && readyReplicas == that.readyReplicas
        && availableReplicas == that.availableReplicas
        && unavailableReplicas == that.unavailableReplicas;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        observedGeneration,
        replicas,
        updatedReplicas,
        readyReplicas,
        availableReplicas,
        unavailableReplicas);
  }
}
