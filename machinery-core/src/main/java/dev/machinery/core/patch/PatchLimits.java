package dev.machinery.core.patch;

/**
 * Bounds on what a patch may do, so that a hostile patch is refused rather than exhausting the
 * server: the number of JSON patch operations (kube-apiserver allows 10,000), and the number of
 * JSON values {@code copy} and {@code move}-free {@code add}s may duplicate in total (each copy of
 * a subtree counts its values; without a bound, a few thousand copies double a document into
 * gigabytes).
 *
 * @param maxOperations the most operations a JSON patch may have
 * @param maxCopiedValues the most JSON values all {@code copy} operations of one patch may create
 */
public record PatchLimits(int maxOperations, long maxCopiedValues) {
  /** 10,000 operations, as kube-apiserver; one million copied values. */
  public static final PatchLimits DEFAULTS = new PatchLimits(10_000, 1_000_000);

  /**
   * Checks the bounds.
   *
   * @param maxOperations the most operations a JSON patch may have
   * @param maxCopiedValues the most JSON values copies may create
   */
  public PatchLimits {
    if (maxOperations < 1 || maxCopiedValues < 0) {
      throw new IllegalArgumentException(
          "maxOperations must be positive and maxCopiedValues not negative");
    }
  }
}
