package dev.machinery.core.codec;

import java.util.ArrayList;
import java.util.List;

/**
 * The unknown and duplicate fields of one decode. Confined to the decoding thread, where {@link
 * #CURRENT} makes it reachable from the Jackson callbacks of the decode under way (cheaper than a
 * per-call reader with context attributes).
 */
final class ProblemCollector {
  /** The collector of the decode under way on this thread, or null outside a decode. */
  static final ThreadLocal<ProblemCollector> CURRENT = new ThreadLocal<>();

  /**
   * Whether the decoder read the root's apiVersion and kind itself (JSON), making any later ones
   * duplicates.
   */
  final boolean rootTypeRead;

  ProblemCollector(boolean rootTypeRead) {
    this.rootTypeRead = rootTypeRead;
  }

  /** The most problems one decode keeps; the rest are only counted. */
  static final int MAX_KEPT = 100;

  private final List<FieldProblem> unknown = new ArrayList<>();
  private final List<FieldProblem> duplicate = new ArrayList<>();
  private int omitted;

  void unknown(String path) {
    if (unknown.size() + duplicate.size() < MAX_KEPT) {
      unknown.add(new FieldProblem(FieldProblem.Type.UNKNOWN_FIELD, path));
    } else {
      omitted++;
    }
  }

  void duplicate(String path) {
    if (unknown.size() + duplicate.size() < MAX_KEPT) {
      duplicate.add(new FieldProblem(FieldProblem.Type.DUPLICATE_FIELD, path));
    } else {
      omitted++;
    }
  }

  boolean isEmpty() {
    return unknown.isEmpty() && duplicate.isEmpty();
  }

  /** Counts problems found elsewhere and not kept. */
  void omit(int count) {
    omitted += count;
  }

  /** How many problems were found past {@link #MAX_KEPT} and not kept. */
  int omitted() {
    return omitted;
  }

  /** Unknown fields first, then duplicates, each in document order. */
  List<FieldProblem> problems() {
    List<FieldProblem> all = new ArrayList<>(unknown.size() + duplicate.size());
    all.addAll(unknown);
    all.addAll(duplicate);
    return all;
  }
}
