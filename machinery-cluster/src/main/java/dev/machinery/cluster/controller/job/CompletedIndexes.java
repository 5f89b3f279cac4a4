package dev.machinery.cluster.controller.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * A set of completion indexes written as a Job's {@code status.completedIndexes} and {@code
 * status.failedIndexes} are: ascending, runs of three or more consecutive indexes as {@code
 * first-last}, the others comma-separated ({@code "1,3-5,7"}); as Go's {@code orderedIntervals}.
 *
 * <p>Immutable and thread-safe.
 */
final class CompletedIndexes {
  private final TreeSet<Integer> indexes;

  private CompletedIndexes(TreeSet<Integer> indexes) {
    this.indexes = indexes;
  }

  /** Returns the empty set. */
  static CompletedIndexes empty() {
    return new CompletedIndexes(new TreeSet<>());
  }

  /**
   * Parses a status value, keeping the indexes below {@code completions}: as Go's {@code
   * parseIndexesFromString}, a malformed part is skipped.
   *
   * @param text the value, null or empty for none
   * @param completions the Job's completions
   * @return the set
   */
  static CompletedIndexes parse(String text, int completions) {
    TreeSet<Integer> indexes = new TreeSet<>();
    if (text == null || text.isEmpty()) {
      return new CompletedIndexes(indexes);
    }
    for (String part : text.split(",", -1)) {
      String[] limits = part.split("-", -1);
      try {
        if (limits.length == 1) {
          int index = Integer.parseInt(limits[0]);
          if (index >= 0 && index < completions) {
            indexes.add(index);
          }
        } else if (limits.length == 2) {
          int first = Integer.parseInt(limits[0]);
          int last = Integer.parseInt(limits[1]);
          for (int i = Math.max(0, first); i <= last && i < completions; i++) {
            indexes.add(i);
          }
        }
      } catch (NumberFormatException e) {
        // Go skips what it cannot parse: the index will be counted again from its pod.
      }
    }
    return new CompletedIndexes(indexes);
  }

  /**
   * Returns this set with more indexes, those outside {@code [0, completions)} left out.
   *
   * @param more the indexes to add
   * @param completions the Job's completions
   * @return the union
   */
  CompletedIndexes with(Iterable<Integer> more, int completions) {
    TreeSet<Integer> union = new TreeSet<>(indexes);
    for (Integer index : more) {
      if (index != null && index >= 0 && index < completions) {
        union.add(index);
      }
    }
    return new CompletedIndexes(union);
  }

  /** Tells whether an index is in the set. */
  boolean contains(int index) {
    return indexes.contains(index);
  }

  /** Returns how many indexes the set holds. */
  int total() {
    return indexes.size();
  }

  /** Returns the status value, empty for none. */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    Integer first = null;
    Integer last = null;
    for (int index : indexes) {
      if (last != null && index == last + 1) {
        last = index;
        continue;
      }
      if (first != null) {
        parts.add(interval(first, last));
      }
      first = index;
      last = index;
    }
    if (first != null) {
      parts.add(interval(first, last));
    }
    return String.join(",", parts);
  }

  private static String interval(int first, int last) {
    if (first == last) {
      return Integer.toString(first);
    }
    if (last == first + 1) {
      return first + "," + last;
    }
    return first + "-" + last;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CompletedIndexes that && indexes.equals(that.indexes);
  }

  @Override
  public int hashCode() {
    return Objects.hash(indexes);
  }
}
