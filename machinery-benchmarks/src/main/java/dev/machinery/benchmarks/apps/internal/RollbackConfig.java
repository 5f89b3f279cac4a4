package dev.machinery.benchmarks.apps.internal;

import java.util.Objects;

/**
 * The revision a Deployment is to roll back to; Kubernetes' deprecated {@code RollbackConfig},
 * present in {@code apps/v1beta1} and the internal form but not in {@code apps/v1}. Mutable; not
 * thread-safe.
 */
public final class RollbackConfig {
  private long revision;

  /** Creates an empty value. */
  public RollbackConfig() {}

  /**
   * Returns the revision; 0 means the last one.
   *
   * @return the revision
   */
  public long getRevision() {
    return revision;
  }

  /**
   * Sets the revision.
   *
   * @param revision the revision; 0 means the last one
   */
  public void setRevision(long revision) {
    this.revision = revision;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RollbackConfig && ((RollbackConfig) o).revision == revision;
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(revision);
  }
}
