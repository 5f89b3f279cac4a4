package dev.machinery.core.schema;

import java.util.Comparator;
import java.util.Objects;

/**
 * Kubernetes' order of preference among version names.
 *
 * <p>Versions of the form {@code vN}, {@code vNbetaM} and {@code vNalphaM} come first: every GA
 * version before every beta, every beta before every alpha; within each, the higher major number
 * first, then the higher minor number. Any other name comes after them all, in plain string order.
 * So {@code v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, v11alpha2, foo1, foo10} is sorted.
 * Stateless and safe for concurrent use.
 */
public final class VersionPriority {
  /** Sorts versions most preferred first. */
  public static final Comparator<String> MOST_PREFERRED_FIRST = VersionPriority::compare;

  private VersionPriority() {}

  /**
   * Compares two version names by preference.
   *
   * @param a a version name
   * @param b another version name
   * @return a negative number if {@code a} is preferred to {@code b}, positive if {@code b} is
   *     preferred, zero if they are equal
   */
  public static int compare(String a, String b) {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    long[] pa = parse(a);
    long[] pb = parse(b);
    if (pa == null || pb == null) {
      if (pa != null) {
        return -1;
      }
      if (pb != null) {
        return 1;
      }
      return a.compareTo(b);
    }
    // Stability rank: 0 = GA, 1 = beta, 2 = alpha (lower is preferred).
    int byStability = Long.compare(pa[1], pb[1]);
    if (byStability != 0) {
      return byStability;
    }
    int byMajor = Long.compare(pb[0], pa[0]);
    if (byMajor != 0) {
      return byMajor;
    }
    return Long.compare(pb[2], pa[2]);
  }

  /** Returns {major, stability rank, minor} for a Kubernetes-like version, or null. */
  private static long[] parse(String v) {
    int n = v.length();
    if (n < 2 || v.charAt(0) != 'v') {
      return null;
    }
    int i = 1;
    int majorStart = i;
    while (i < n && isDigit(v.charAt(i))) {
      i++;
    }
    if (i == majorStart || v.charAt(majorStart) == '0' || i - majorStart > 18) {
      return null;
    }
    long major = Long.parseLong(v.substring(majorStart, i));
    if (i == n) {
      return new long[] {major, 0, 0};
    }
    long rank;
    if (v.startsWith("beta", i)) {
      rank = 1;
      i += 4;
    } else if (v.startsWith("alpha", i)) {
      rank = 2;
      i += 5;
    } else {
      return null;
    }
    int minorStart = i;
    while (i < n && isDigit(v.charAt(i))) {
      i++;
    }
    if (i != n || i == minorStart || v.charAt(minorStart) == '0' || i - minorStart > 18) {
      return null;
    }
    return new long[] {major, rank, Long.parseLong(v.substring(minorStart))};
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
