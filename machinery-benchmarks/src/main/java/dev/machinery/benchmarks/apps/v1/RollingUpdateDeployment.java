package dev.machinery.benchmarks.apps.v1;

import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.intstr.IntOrString;
import java.util.Objects;

/** Rolling update parameters. Mutable; not thread-safe. */
public final class RollingUpdateDeployment {
  private IntOrString maxUnavailable;
  private IntOrString maxSurge;

  /** Creates an empty value. */
  public RollingUpdateDeployment() {}

  /**
   * Returns pods that may be unavailable.
   *
   * @return pods that may be unavailable
   */
  @ProtoField(value = 1, optional = true)
  public IntOrString getMaxUnavailable() {
    return maxUnavailable;
  }

  /**
   * Sets pods that may be unavailable.
   *
   * @param maxUnavailable pods that may be unavailable
   */
  public void setMaxUnavailable(IntOrString maxUnavailable) {
    this.maxUnavailable = maxUnavailable;
  }

  /**
   * Returns pods that may be created above the desired count.
   *
   * @return pods that may be created above the desired count
   */
  @ProtoField(value = 2, optional = true)
  public IntOrString getMaxSurge() {
    return maxSurge;
  }

  /**
   * Sets pods that may be created above the desired count.
   *
   * @param maxSurge pods that may be created above the desired count
   */
  public void setMaxSurge(IntOrString maxSurge) {
    this.maxSurge = maxSurge;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RollingUpdateDeployment)) {
      return false;
    }
    RollingUpdateDeployment that = (RollingUpdateDeployment) o;
    return Objects.equals(maxUnavailable, that.maxUnavailable)
        && Objects.equals(maxSurge, that.maxSurge);
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxUnavailable, maxSurge);
  }
}
