package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * The desired scale: the replica count.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"replicas"})
public final class ScaleSpec {
  private int replicas;

  /** Creates an empty ScaleSpec. */
  public ScaleSpec() {}

  /**
   * Returns the desired replica count.
   *
   * @return the desired replica count
   */
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  public int getReplicas() {
    return replicas;
  }

  /**
   * Sets the desired replica count.
   *
   * @param replicas the desired replica count
   */
  public void setReplicas(int replicas) {
    this.replicas = replicas;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof ScaleSpec)) {
      return false;
    }
    ScaleSpec that = (ScaleSpec) other;
    return true && Objects.equals(replicas, that.replicas);
  }

  @Override
  public int hashCode() {
    return Objects.hash(replicas);
  }

  @Override
  public String toString() {
    return "ScaleSpec{" + "replicas=" + replicas + "}";
  }
}
