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

  private final List<FieldProblem> unknown = new ArrayList<>();
  private final List<FieldProblem> duplicate = new ArrayList<>();

  void unknown(String path) {
    unknown.add(new FieldProblem(FieldProblem.Type.UNKNOWN_FIELD, path));
  }

  void duplicate(String path) {
    duplicate.add(new FieldProblem(FieldProblem.Type.DUPLICATE_FIELD, path));
  }

  boolean isEmpty() {
    return unknown.isEmpty() && duplicate.isEmpty();
  }

  /** Unknown fields first, then duplicates, each in document order. */
  List<FieldProblem> problems() {
    List<FieldProblem> all = new ArrayList<>(unknown.size() + duplicate.size());
    all.addAll(unknown);
    all.addAll(duplicate);
    return all;
  }
}
