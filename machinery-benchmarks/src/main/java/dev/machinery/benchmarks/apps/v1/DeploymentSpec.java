package dev.machinery.benchmarks.apps.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import java.util.Objects;

/** The desired state of a Deployment. Mutable; not thread-safe. */
public final class DeploymentSpec {
  private Integer replicas;
  private LabelSelector selector;
  private PodTemplateSpec template;
  private DeploymentStrategy strategy;

  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  private int minReadySeconds;

  private Integer revisionHistoryLimit;

  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  private boolean paused;

  /** Creates an empty value. */
  public DeploymentSpec() {}

  /**
   * Returns the replica count; null means unset.
   *
   * @return the replica count; null means unset
   */
  @ProtoField(value = 1, optional = true)
  public Integer getReplicas() {
    return replicas;
  }

  /**
   * Sets the replica count; null means unset.
   *
   * @param replicas the replica count; null means unset
   */
  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  /**
   * Returns the pod selector.
   *
   * @return the pod selector
   */
  @ProtoField(value = 2, optional = true)
  public LabelSelector getSelector() {
    return selector;
  }

  /**
   * Sets the pod selector.
   *
   * @param selector the pod selector
   */
  public void setSelector(LabelSelector selector) {
    this.selector = selector;
  }

  /**
   * Returns the pod template.
   *
   * @return the pod template
   */
  @ProtoField(3)
  public PodTemplateSpec getTemplate() {
    return template;
  }

  /**
   * Sets the pod template.
   *
   * @param template the pod template
   */
  public void setTemplate(PodTemplateSpec template) {
    this.template = template;
  }

  /**
   * Returns the rollout strategy.
   *
   * @return the rollout strategy
   */
  @ProtoField(4)
  public DeploymentStrategy getStrategy() {
    return strategy;
  }

  /**
   * Sets the rollout strategy.
   *
   * @param strategy the rollout strategy
   */
  public void setStrategy(DeploymentStrategy strategy) {
    this.strategy = strategy;
  }

  /**
   * Returns seconds a pod must be ready.
   *
   * @return seconds a pod must be ready
   */
  @ProtoField(5)
  public int getMinReadySeconds() {
    return minReadySeconds;
  }

  /**
   * Sets seconds a pod must be ready.
   *
   * @param minReadySeconds seconds a pod must be ready
   */
  public void setMinReadySeconds(int minReadySeconds) {
    this.minReadySeconds = minReadySeconds;
  }

  /**
   * Returns old replica sets kept.
   *
   * @return old replica sets kept
   */
  @ProtoField(value = 6, optional = true)
  public Integer getRevisionHistoryLimit() {
    return revisionHistoryLimit;
  }

  /**
   * Sets old replica sets kept.
   *
   * @param revisionHistoryLimit old replica sets kept
   */
  public void setRevisionHistoryLimit(Integer revisionHistoryLimit) {
    this.revisionHistoryLimit = revisionHistoryLimit;
  }

  /**
   * Returns whether the rollout is paused.
   *
   * @return whether the rollout is paused
   */
  @ProtoField(7)
  public boolean isPaused() {
    return paused;
  }

  /**
   * Sets whether the rollout is paused.
   *
   * @param paused whether the rollout is paused
   */
  public void setPaused(boolean paused) {
    this.paused = paused;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DeploymentSpec)) {
      return false;
    }
    DeploymentSpec that = (DeploymentSpec) o;
    return Objects.equals(replicas, that.replicas)
        && Objects.equals(selector, that.selector)
        && Objects.equals(template, that.template)
        && Objects.equals(strategy, that.strategy)
        && minReadySeconds == that.minReadySeconds
        && Objects.equals(revisionHistoryLimit, that.revisionHistoryLimit)
        && paused == that.paused;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        replicas, selector, template, strategy, minReadySeconds, revisionHistoryLimit, paused);
  }
}
