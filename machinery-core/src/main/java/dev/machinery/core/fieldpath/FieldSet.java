package dev.machinery.core.fieldpath;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A set of field paths, such as the fields one manager owns, kept as a tree: the path elements that
 * are members at this level, and for each element with members below it, the set of those paths
 * (its child). A path is a member only if inserted: inserting {@code .spec.replicas} does not make
 * {@code .spec} a member, and the empty path is never one.
 *
 * <p>This is structured-merge-diff's {@code fieldpath.Set}. The operations return new sets: {@link
 * #union}, {@link #intersection}, {@link #difference} (where removing a child leaves its parent,
 * and removing a parent leaves its children), {@link #recursiveDifference} (where removing a parent
 * removes its children too), {@link #leaves} and {@link #withPrefix}. Iteration is Go's: at each
 * level the members in order, then each child's paths in order. {@link FieldsV1} reads and writes
 * the {@code FieldsV1} JSON that {@code managedFields} carry.
 *
 * <p>Immutable and safe to share between threads. Operations recurse once per path element, so
 * paths deeper than a few thousand elements may overflow the stack; {@link FieldsV1} refuses deeper
 * input.
 */
public final class FieldSet implements Iterable<FieldPath> {
  private static final PathElement[] NO_ELEMENTS = {};
  private static final FieldSet[] NO_SETS = {};
  private static final FieldSet EMPTY = new FieldSet(NO_ELEMENTS, NO_ELEMENTS, NO_SETS);

  final PathElement[] members;
  final PathElement[] childElements;
  final FieldSet[] childSets;
  private final int size;
  private int hash;

  // The arrays are sorted, without duplicates, and every child set is non-empty.
  private FieldSet(PathElement[] members, PathElement[] childElements, FieldSet[] childSets) {
    this.members = members;
    this.childElements = childElements;
    this.childSets = childSets;
    int n = members.length;
    for (FieldSet child : childSets) {
      n += child.size;
    }
    this.size = n;
  }

  static FieldSet of(List<PathElement> members, List<PathElement> elements, List<FieldSet> sets) {
    if (members.isEmpty() && elements.isEmpty()) {
      return EMPTY;
    }
    return new FieldSet(
        members.toArray(NO_ELEMENTS), elements.toArray(NO_ELEMENTS), sets.toArray(NO_SETS));
  }

  /**
   * Returns the empty set.
   *
   * @return the empty set
   */
  public static FieldSet empty() {
    return EMPTY;
  }

  /**
   * Returns the set of these paths (the empty path is ignored).
   *
   * @param paths the paths
   * @return the set
   */
  public static FieldSet of(FieldPath... paths) {
    return of(Arrays.asList(paths));
  }

  /**
   * Returns the set of these paths (the empty path is ignored).
   *
   * @param paths the paths
   * @return the set
   */
  public static FieldSet of(Collection<FieldPath> paths) {
    Builder builder = builder();
    paths.forEach(builder::insert);
    return builder.build();
  }

  /**
   * Returns a builder of a set, empty at first.
   *
   * @return the builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns whether the path is a member. The empty path never is.
   *
   * @param path the path
   * @return whether it is in the set
   */
  public boolean has(FieldPath path) {
    List<PathElement> elements = path.elements();
    if (elements.isEmpty()) {
      return false;
    }
    FieldSet set = this;
    for (int i = 0; i < elements.size() - 1; i++) {
      set = set.child(elements.get(i));
      if (set == null) {
        return false;
      }
    }
    return Arrays.binarySearch(set.members, elements.get(elements.size() - 1)) >= 0;
  }

  /**
   * Returns this set with one more path (the empty path is ignored).
   *
   * @param path the path to insert
   * @return the larger set, or this set if the path is already in it
   */
  public FieldSet with(FieldPath path) {
    return has(path) || path.isEmpty() ? this : union(of(path));
  }

  /**
   * Returns whether the set has no members.
   *
   * @return whether it is empty
   */
  public boolean isEmpty() {
    return size == 0;
  }

  /**
   * Returns the number of paths in the set.
   *
   * @return the number of members at every level
   */
  public int size() {
    return size;
  }

  /**
   * Returns the elements that are members at this level, in order.
   *
   * @return the members of this level
   */
  public List<PathElement> members() {
    return List.of(members);
  }

  /**
   * Returns, in order, each element with members below it and the set of those paths.
   *
   * @return the children of this level
   */
  public Map<PathElement, FieldSet> children() {
    Map<PathElement, FieldSet> children = new LinkedHashMap<>();
    for (int i = 0; i < childElements.length; i++) {
      children.put(childElements[i], childSets[i]);
    }
    return Collections.unmodifiableMap(children);
  }

  /**
   * Returns the paths below an element, without it: {@code withPrefix(field("spec"))} of {@code
   * .spec.replicas} is {@code .replicas}.
   *
   * @param element the first element
   * @return the paths that continue after it, or the empty set
   */
  public FieldSet withPrefix(PathElement element) {
    FieldSet child = child(element);
    return child == null ? EMPTY : child;
  }

  private FieldSet child(PathElement element) {
    int at = Arrays.binarySearch(childElements, element);
    return at >= 0 ? childSets[at] : null;
  }

  /**
   * Returns the paths in either set.
   *
   * @param other the other set
   * @return the union
   */
  public FieldSet union(FieldSet other) {
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    List<PathElement> m = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < members.length || j < other.members.length) {
      int c = compare(members, i, other.members, j);
      m.add(c <= 0 ? members[i] : other.members[j]);
      i += c <= 0 ? 1 : 0;
      j += c >= 0 ? 1 : 0;
    }
    List<PathElement> ce = new ArrayList<>();
    List<FieldSet> cs = new ArrayList<>();
    i = 0;
    j = 0;
    while (i < childElements.length || j < other.childElements.length) {
      int c = compare(childElements, i, other.childElements, j);
      if (c < 0) {
        ce.add(childElements[i]);
        cs.add(childSets[i++]);
      } else if (c > 0) {
        ce.add(other.childElements[j]);
        cs.add(other.childSets[j++]);
      } else {
        ce.add(childElements[i]);
        cs.add(childSets[i++].union(other.childSets[j++]));
      }
    }
    return of(m, ce, cs);
  }

  /**
   * Returns the paths in both sets.
   *
   * @param other the other set
   * @return the intersection
   */
  public FieldSet intersection(FieldSet other) {
    List<PathElement> m = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < members.length && j < other.members.length) {
      int c = members[i].compareTo(other.members[j]);
      if (c == 0) {
        m.add(members[i]);
      }
      i += c <= 0 ? 1 : 0;
      j += c >= 0 ? 1 : 0;
    }
    List<PathElement> ce = new ArrayList<>();
    List<FieldSet> cs = new ArrayList<>();
    i = 0;
    j = 0;
    while (i < childElements.length && j < other.childElements.length) {
      int c = childElements[i].compareTo(other.childElements[j]);
      if (c == 0) {
        FieldSet both = childSets[i].intersection(other.childSets[j]);
        if (!both.isEmpty()) {
          ce.add(childElements[i]);
          cs.add(both);
        }
      }
      i += c <= 0 ? 1 : 0;
      j += c >= 0 ? 1 : 0;
    }
    return of(m, ce, cs);
  }

  /**
   * Returns the paths of this set that are not in the other. Paths are removed one by one: a parent
   * stays when its child is removed, and children stay when their parent is removed.
   *
   * @param other the paths to remove
   * @return the difference
   */
  public FieldSet difference(FieldSet other) {
    return subtract(other, false);
  }

  /**
   * Returns the paths of this set that are not in the other, removing with each path of the other
   * every path that begins with it: {@code .a.b.c} minus {@code .a.b} is empty here, while {@link
   * #difference} keeps {@code .a.b.c}.
   *
   * @param other the paths to remove, each with all paths below it
   * @return the difference
   */
  public FieldSet recursiveDifference(FieldSet other) {
    return subtract(other, true);
  }

  private FieldSet subtract(FieldSet other, boolean recursive) {
    if (isEmpty() || other.isEmpty()) {
      return this;
    }
    List<PathElement> m = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < members.length) {
      int c = compare(members, i, other.members, j);
      if (c < 0) {
        m.add(members[i]);
      }
      i += c <= 0 ? 1 : 0;
      j += c >= 0 ? 1 : 0;
    }
    List<PathElement> ce = new ArrayList<>();
    List<FieldSet> cs = new ArrayList<>();
    for (i = 0; i < childElements.length; i++) {
      PathElement element = childElements[i];
      if (recursive && Arrays.binarySearch(other.members, element) >= 0) {
        continue;
      }
      FieldSet removed = other.child(element);
      FieldSet left = removed == null ? childSets[i] : childSets[i].subtract(removed, recursive);
      if (!left.isEmpty()) {
        ce.add(element);
        cs.add(left);
      }
    }
    return of(m, ce, cs);
  }

  /**
   * Returns the paths of the set that no other path of the set begins with.
   *
   * @return the leaves
   */
  public FieldSet leaves() {
    List<PathElement> m = new ArrayList<>();
    for (PathElement member : members) {
      if (Arrays.binarySearch(childElements, member) < 0) {
        m.add(member);
      }
    }
    List<FieldSet> cs = new ArrayList<>();
    for (FieldSet child : childSets) {
      cs.add(child.leaves());
    }
    return of(m, Arrays.asList(childElements), cs);
  }

  // Compares a[i] with b[j], an exhausted side after the other.
  private static int compare(PathElement[] a, int i, PathElement[] b, int j) {
    if (i >= a.length) {
      return 1;
    }
    if (j >= b.length) {
      return -1;
    }
    return a[i].compareTo(b[j]);
  }

  /**
   * Returns the paths in Go's order: at each level the members, then each child's paths.
   *
   * @return the paths
   */
  public List<FieldPath> paths() {
    List<FieldPath> paths = new ArrayList<>(size);
    forEach(paths::add);
    return Collections.unmodifiableList(paths);
  }

  @Override
  public Iterator<FieldPath> iterator() {
    return paths().iterator();
  }

  @Override
  public void forEach(Consumer<? super FieldPath> action) {
    collect(new ArrayList<>(), action);
  }

  private void collect(List<PathElement> prefix, Consumer<? super FieldPath> action) {
    for (PathElement member : members) {
      prefix.add(member);
      action.accept(new FieldPath(prefix));
      prefix.remove(prefix.size() - 1);
    }
    for (int i = 0; i < childElements.length; i++) {
      prefix.add(childElements[i]);
      childSets[i].collect(prefix, action);
      prefix.remove(prefix.size() - 1);
    }
  }

  /**
   * Returns whether the other object is a set of the same paths.
   *
   * @param o the other object
   * @return whether the sets are equal
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof FieldSet other
        && size == other.size
        && Arrays.equals(members, other.members)
        && Arrays.equals(childElements, other.childElements)
        && Arrays.equals(childSets, other.childSets);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h =
          31 * (31 * Arrays.hashCode(members) + Arrays.hashCode(childElements))
              + Arrays.hashCode(childSets);
      hash = h;
    }
    return h;
  }

  /**
   * Returns the paths one per line, in Go's order, as Go's {@code Set.String()} prints them.
   *
   * @return the set's text
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    forEach(path -> b.append(b.length() > 0 ? "\n" : "").append(path));
    return b.toString();
  }

  /** Collects paths into a {@link FieldSet}. Not thread-safe; use one builder per thread. */
  public static final class Builder {
    private final TreeSet<PathElement> members = new TreeSet<>();
    private final TreeMap<PathElement, Builder> children = new TreeMap<>();

    private Builder() {}

    /**
     * Adds a path (the empty path is ignored, as no one owns the whole object).
     *
     * @param path the path
     * @return this builder
     */
    public Builder insert(FieldPath path) {
      Objects.requireNonNull(path, "path");
      List<PathElement> elements = path.elements();
      if (elements.isEmpty()) {
        return this;
      }
      Builder node = this;
      for (int i = 0; i < elements.size() - 1; i++) {
        node = node.children.computeIfAbsent(elements.get(i), e -> new Builder());
      }
      node.members.add(elements.get(elements.size() - 1));
      return this;
    }

    /**
     * Adds every path of a set.
     *
     * @param set the paths
     * @return this builder
     */
    public Builder insertAll(FieldSet set) {
      set.forEach(this::insert);
      return this;
    }

    /**
     * Returns the set of the paths added so far.
     *
     * @return the set
     */
    public FieldSet build() {
      List<FieldSet> sets = new ArrayList<>(children.size());
      for (Builder child : children.values()) {
        sets.add(child.build());
      }
      return of(new ArrayList<>(members), new ArrayList<>(children.keySet()), sets);
    }
  }
}
