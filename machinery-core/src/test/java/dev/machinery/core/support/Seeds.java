package dev.machinery.core.support;

import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Runs a property over a fixed list of seeds. A failure names its seed; set the system property
 * {@code machinery.seed} to replay one seed alone, {@code machinery.seeds} to run more.
 */
public final class Seeds {
  private static final long BASE = 0x5EED_2026L;

  private Seeds() {}

  public static void forEach(int count, Consumer<SplittableRandom> property) {
    String only = System.getProperty("machinery.seed");
    if (only != null) {
      run(Long.parseLong(only), property);
      return;
    }
    int n = Integer.getInteger("machinery.seeds", count);
    for (int i = 0; i < n; i++) {
      run(BASE + i, property);
    }
  }

  private static void run(long seed, Consumer<SplittableRandom> property) {
    try {
      property.accept(new SplittableRandom(seed));
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          "property failed for seed "
              + seed
              + " (replay with -Dmachinery.seed="
              + seed
              + "): "
              + e.getMessage(),
          e);
    }
  }

  /** A lowercase DNS label of 1..max characters. */
  public static String label(SplittableRandom r, int max) {
    int n = 1 + r.nextInt(max);
    StringBuilder b = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      boolean edge = i == 0 || i == n - 1;
      int pick = r.nextInt(edge ? 36 : 37);
      b.append(pick < 26 ? (char) ('a' + pick) : pick < 36 ? (char) ('0' + pick - 26) : '-');
    }
    return b.toString();
  }

  /** A group: empty, or one to four labels joined with dots. */
  public static String group(SplittableRandom r) {
    if (r.nextInt(5) == 0) {
      return "";
    }
    int labels = 1 + r.nextInt(4);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < labels; i++) {
      if (i > 0) {
        b.append('.');
      }
      b.append(label(r, 12));
    }
    return b.toString();
  }

  /** A version: a Kubernetes-like one, another label, or the internal version. */
  public static String version(SplittableRandom r) {
    switch (r.nextInt(6)) {
      case 0:
        return "v" + (1 + r.nextInt(20));
      case 1:
        return "v" + (1 + r.nextInt(5)) + "beta" + (1 + r.nextInt(5));
      case 2:
        return "v" + (1 + r.nextInt(5)) + "alpha" + (1 + r.nextInt(5));
      case 3:
        return "__internal";
      default:
        return label(r, 10);
    }
  }

  /** A kind: a letter, then letters and digits. */
  public static String kind(SplittableRandom r) {
    int n = 1 + r.nextInt(20);
    StringBuilder b = new StringBuilder(n);
    b.append((char) ((r.nextBoolean() ? 'A' : 'a') + r.nextInt(26)));
    for (int i = 1; i < n; i++) {
      int pick = r.nextInt(62);
      b.append(
          pick < 26
              ? (char) ('A' + pick)
              : pick < 52 ? (char) ('a' + pick - 26) : (char) ('0' + pick - 52));
    }
    return b.toString();
  }
}
