package dev.machinery.benchmarks.apps.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.conversion.ProtoField;
import dev.machinery.conversion.ProtoReserved;
import java.util.Objects;

/** A pod spec. Mutable; not thread-safe. */
// Fields of Kubernetes' message the benchmark model leaves out.
@ProtoReserved({1, 5, 6})
public final class PodSpec {
  private java.util.List<Container> containers;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String restartPolicy;

  private Long terminationGracePeriodSeconds;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private java.util.Map<String, String> nodeSelector;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String serviceAccountName;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String serviceAccount;

  /** Creates an empty value. */
  public PodSpec() {}

  /**
   * Returns the containers.
   *
   * @return the containers
   */
  @ProtoField(2)
  public java.util.List<Container> getContainers() {
    return containers;
  }

  /**
   * Sets the containers.
   *
   * @param containers the containers
   */
  public void setContainers(java.util.List<Container> containers) {
    this.containers = containers;
  }

  /**
   * Returns the restart policy.
   *
   * @return the restart policy
   */
  @ProtoField(3)
  public String getRestartPolicy() {
    return restartPolicy;
  }

  /**
   * Sets the restart policy.
   *
   * @param restartPolicy the restart policy
   */
  public void setRestartPolicy(String restartPolicy) {
    this.restartPolicy = restartPolicy;
  }

  /**
   * Returns the grace period.
   *
   * @return the grace period
   */
  @ProtoField(value = 4, optional = true)
  public Long getTerminationGracePeriodSeconds() {
    return terminationGracePeriodSeconds;
  }

  /**
   * Sets the grace period.
   *
   * @param terminationGracePeriodSeconds the grace period
   */
  public void setTerminationGracePeriodSeconds(Long terminationGracePeriodSeconds) {
    this.terminationGracePeriodSeconds = terminationGracePeriodSeconds;
  }

  /**
   * Returns the node selector.
   *
   * @return the node selector
   */
  @ProtoField(7)
  public java.util.Map<String, String> getNodeSelector() {
    return nodeSelector;
  }

  /**
   * Sets the node selector.
   *
   * @param nodeSelector the node selector
   */
  public void setNodeSelector(java.util.Map<String, String> nodeSelector) {
    this.nodeSelector = nodeSelector;
  }

  /**
   * Returns the service account.
   *
   * @return the service account
   */
  @ProtoField(8)
  public String getServiceAccountName() {
    return serviceAccountName;
  }

  /**
   * Sets the service account.
   *
   * @param serviceAccountName the service account
   */
  public void setServiceAccountName(String serviceAccountName) {
    this.serviceAccountName = serviceAccountName;
  }

  /**
   * Returns the deprecated alias of serviceAccountName.
   *
   * @return the deprecated alias of serviceAccountName
   */
  @ProtoField(9)
  public String getServiceAccount() {
    return serviceAccount;
  }

  /**
   * Sets the deprecated alias of serviceAccountName.
   *
   * @param serviceAccount the deprecated alias of serviceAccountName
   */
  public void setServiceAccount(String serviceAccount) {
    this.serviceAccount = serviceAccount;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof PodSpec)) {
      return false;
    }
    PodSpec that = (PodSpec) o;
    return Objects.equals(containers, that.containers)
        && Objects.equals(restartPolicy, that.restartPolicy)
        && Objects.equals(terminationGracePeriodSeconds, that.terminationGracePeriodSeconds)
        && Objects.equals(nodeSelector, that.nodeSelector)
        && Objects.equals(serviceAccountName, that.serviceAccountName)
        && Objects.equals(serviceAccount, that.serviceAccount);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        containers,
        restartPolicy,
        terminationGracePeriodSeconds,
        nodeSelector,
        serviceAccountName,
        serviceAccount);
  }
}
