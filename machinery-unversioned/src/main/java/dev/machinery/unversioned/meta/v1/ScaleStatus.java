package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * The observed scale: the replica count and the label selector of the pods.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"replicas", "selector"})
public final class ScaleStatus {
  private int replicas;
  private String selector;

  /** Creates an empty ScaleStatus. */
  public ScaleStatus() {}

  /**
   * Returns the observed replica count.
   *
   * @return the observed replica count
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public int getReplicas() {
    return replicas;
  }

  /**
   * Sets the observed replica count.
   *
   * @param replicas the observed replica count
   */
  public void setReplicas(int replicas) {
    this.replicas = replicas;
  }

  /**
   * Returns the label selector of the pods, in string form.
   *
   * @return the label selector of the pods, in string form
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getSelector() {
    return selector;
  }

  /**
   * Sets the label selector of the pods, in string form.
   *
   * @param selector the label selector of the pods, in string form
   */
  public void setSelector(String selector) {
    this.selector = selector;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof ScaleStatus)) {
      return false;
    }
    ScaleStatus that = (ScaleStatus) other;
    return true
        && Objects.equals(replicas, that.replicas)
        && Objects.equals(selector, that.selector);
  }

  @Override
  public int hashCode() {
    return Objects.hash(replicas, selector);
  }

  @Override
  public String toString() {
    return "ScaleStatus{" + "replicas=" + replicas + ", selector=" + selector + "}";
  }
}
