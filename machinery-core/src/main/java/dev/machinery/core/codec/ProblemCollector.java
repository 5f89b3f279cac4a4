package dev.machinery.core.codec;

import java.util.ArrayList;
import java.util.List;

/** The unknown and duplicate fields of one decode. Confined to the decoding thread. */
final class ProblemCollector {
  /** The context attribute under which a decode's collector travels. */
  static final Object KEY = ProblemCollector.class;

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
