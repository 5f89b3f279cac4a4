package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * The options of a delete: grace period, preconditions, propagation, dry run.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({
  "gracePeriodSeconds",
  "preconditions",
  "orphanDependents",
  "propagationPolicy",
  "dryRun",
  "ignoreStoreReadErrorWithClusterBreakingPotential"
})
public final class DeleteOptions extends TypeMeta {
  private Long gracePeriodSeconds;
  private Preconditions preconditions;
  private Boolean orphanDependents;
  private String propagationPolicy;
  private List<String> dryRun;
  private Boolean ignoreStoreReadErrorWithClusterBreakingPotential;

  /** Creates an empty DeleteOptions. */
  public DeleteOptions() {}

  /**
   * Returns the grace period.
   *
   * @return the grace period
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public Long getGracePeriodSeconds() {
    return gracePeriodSeconds;
  }

  /**
   * Sets the grace period.
   *
   * @param gracePeriodSeconds the grace period
   */
  public void setGracePeriodSeconds(Long gracePeriodSeconds) {
    this.gracePeriodSeconds = gracePeriodSeconds;
  }

  /**
   * Returns the preconditions.
   *
   * @return the preconditions
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public Preconditions getPreconditions() {
    return preconditions;
  }

  /**
   * Sets the preconditions.
   *
   * @param preconditions the preconditions
   */
  public void setPreconditions(Preconditions preconditions) {
    this.preconditions = preconditions;
  }

  /**
   * Returns the deprecated orphaning switch.
   *
   * @return the deprecated orphaning switch
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public Boolean getOrphanDependents() {
    return orphanDependents;
  }

  /**
   * Sets the deprecated orphaning switch.
   *
   * @param orphanDependents the deprecated orphaning switch
   */
  public void setOrphanDependents(Boolean orphanDependents) {
    this.orphanDependents = orphanDependents;
  }

  /**
   * Returns {@code Orphan}, {@code Background} or {@code Foreground}.
   *
   * @return {@code Orphan}, {@code Background} or {@code Foreground}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getPropagationPolicy() {
    return propagationPolicy;
  }

  /**
   * Sets {@code Orphan}, {@code Background} or {@code Foreground}.
   *
   * @param propagationPolicy {@code Orphan}, {@code Background} or {@code Foreground}
   */
  public void setPropagationPolicy(String propagationPolicy) {
    this.propagationPolicy = propagationPolicy;
  }

  /**
   * Returns the dry-run stages, such as {@code All}.
   *
   * @return the dry-run stages, such as {@code All}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<String> getDryRun() {
    return dryRun;
  }

  /**
   * Sets the dry-run stages, such as {@code All}.
   *
   * @param dryRun the dry-run stages, such as {@code All}
   */
  public void setDryRun(List<String> dryRun) {
    this.dryRun = dryRun;
  }

  /**
   * Returns whether to delete an object that cannot be read.
   *
   * @return whether to delete an object that cannot be read
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public Boolean getIgnoreStoreReadErrorWithClusterBreakingPotential() {
    return ignoreStoreReadErrorWithClusterBreakingPotential;
  }

  /**
   * Sets whether to delete an object that cannot be read.
   *
   * @param ignoreStoreReadErrorWithClusterBreakingPotential whether to delete an object that cannot
   *     be read
   */
  public void setIgnoreStoreReadErrorWithClusterBreakingPotential(
      Boolean ignoreStoreReadErrorWithClusterBreakingPotential) {
    this.ignoreStoreReadErrorWithClusterBreakingPotential =
        ignoreStoreReadErrorWithClusterBreakingPotential;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof DeleteOptions)) {
      return false;
    }
    DeleteOptions that = (DeleteOptions) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(gracePeriodSeconds, that.gracePeriodSeconds)
        && Objects.equals(preconditions, that.preconditions)
        && Objects.equals(orphanDependents, that.orphanDependents)
        && Objects.equals(propagationPolicy, that.propagationPolicy)
        && Objects.equals(dryRun, that.dryRun)
        && Objects.equals(
            ignoreStoreReadErrorWithClusterBreakingPotential,
            that.ignoreStoreReadErrorWithClusterBreakingPotential);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        getApiVersion(),
        getKind(),
        gracePeriodSeconds,
        preconditions,
        orphanDependents,
        propagationPolicy,
        dryRun,
        ignoreStoreReadErrorWithClusterBreakingPotential);
  }

  @Override
  public String toString() {
    return "DeleteOptions{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", gracePeriodSeconds="
        + gracePeriodSeconds
        + ", preconditions="
        + preconditions
        + ", orphanDependents="
        + orphanDependents
        + ", propagationPolicy="
        + propagationPolicy
        + ", dryRun="
        + dryRun
        + ", ignoreStoreReadErrorWithClusterBreakingPotential="
        + ignoreStoreReadErrorWithClusterBreakingPotential
        + "}";
  }
}
