package dev.machinery.apiserver.rbac;

import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Brings a stored ClusterRole or ClusterRoleBinding in line with the one expected, as
 * kube-apiserver reconciles its default roles and bindings at start ({@code reconciliation}): the
 * expected labels and annotations are added (a value already stored is kept); rules the stored role
 * does not cover are added, broken down into one verb and one resource each (or, asked to remove
 * extra permissions, the rules become the expected ones); missing aggregation selectors are added
 * back, and an aggregation rule the expected role does not have is dropped; missing subjects of a
 * binding are added (or, asked to, extra ones removed); a binding that refers to another role is
 * replaced. An object annotated {@code rbac.authorization.kubernetes.io/autoupdate: "false"} is
 * {@linkplain RoleResult#isProtected() protected}: the result says what would change, and the
 * caller leaves it alone. Stateless; thread-safe. Neither argument is changed.
 */
public final class Reconciliation {
  private Reconciliation() {}

  /** What bringing an object in line takes. */
  public enum Operation {
    /** Nothing: the object is as expected. */
    NONE,
    /** The object does not exist: create the expected one. */
    CREATE,
    /** Update the stored object with the result's values. */
    UPDATE,
    /** A binding refers to another role, which cannot be changed: delete it and create anew. */
    RECREATE
  }

  /**
   * A ClusterRole reconciled.
   *
   * @param operation what it takes
   * @param isProtected whether the stored role opts out ({@code autoupdate: "false"}), in which
   *     case nothing is to be written whatever the operation
   * @param labels the labels the role should have, or {@code null} for none
   * @param annotations the annotations the role should have, or {@code null} for none
   * @param rules the rules the role should have
   * @param aggregationRule the aggregation rule the role should have, or {@code null}
   * @param missingRules the expected rules the stored role did not cover, broken down
   * @param extraRules the stored rules the expected role does not cover, broken down
   */
  public record RoleResult(
      Operation operation,
      boolean isProtected,
      Map<String, String> labels,
      Map<String, String> annotations,
      List<PolicyRule> rules,
      AggregationRule aggregationRule,
      List<PolicyRule> missingRules,
      List<PolicyRule> extraRules) {
    /**
     * Copies the lists and maps.
     *
     * @param operation see the record description
     * @param isProtected see the record description
     * @param labels see the record description
     * @param annotations see the record description
     * @param rules see the record description
     * @param aggregationRule see the record description
     * @param missingRules see the record description
     * @param extraRules see the record description
     */
    public RoleResult {
      Objects.requireNonNull(operation, "operation");
      labels = labels == null ? null : Map.copyOf(labels);
      annotations = annotations == null ? null : Map.copyOf(annotations);
      rules = List.copyOf(rules);
      missingRules = List.copyOf(missingRules);
      extraRules = List.copyOf(extraRules);
    }

    /**
     * Whether something is to be written: an operation other than {@link Operation#NONE} on a role
     * that is not protected.
     *
     * @return whether to write
     */
    public boolean needsWrite() {
      return operation != Operation.NONE && !isProtected;
    }

    /**
     * Sets the result's labels, annotations, rules and aggregation rule on a role, such as the
     * stored one read again for an update.
     *
     * @param role the role to change; it has metadata
     */
    public void applyTo(ClusterRole role) {
      role.getMetadata().setLabels(labels == null ? null : new LinkedHashMap<>(labels));
      role.getMetadata()
          .setAnnotations(annotations == null ? null : new LinkedHashMap<>(annotations));
      role.setRules(new ArrayList<>(rules));
      role.setAggregationRule(aggregationRule);
    }
  }

  /**
   * A ClusterRoleBinding reconciled.
   *
   * @param operation what it takes
   * @param isProtected whether the stored binding opts out ({@code autoupdate: "false"}), in which
   *     case nothing is to be written whatever the operation
   * @param labels the labels the binding should have, or {@code null} for none
   * @param annotations the annotations the binding should have, or {@code null} for none
   * @param roleRef the role it should refer to
   * @param subjects the subjects it should have
   * @param missingSubjects the expected subjects the stored binding did not have
   * @param extraSubjects the stored subjects the expected binding does not have
   */
  public record BindingResult(
      Operation operation,
      boolean isProtected,
      Map<String, String> labels,
      Map<String, String> annotations,
      RoleRef roleRef,
      List<Subject> subjects,
      List<Subject> missingSubjects,
      List<Subject> extraSubjects) {
    /**
     * Copies the lists and maps.
     *
     * @param operation see the record description
     * @param isProtected see the record description
     * @param labels see the record description
     * @param annotations see the record description
     * @param roleRef see the record description
     * @param subjects see the record description
     * @param missingSubjects see the record description
     * @param extraSubjects see the record description
     */
    public BindingResult {
      Objects.requireNonNull(operation, "operation");
      labels = labels == null ? null : Map.copyOf(labels);
      annotations = annotations == null ? null : Map.copyOf(annotations);
      subjects = List.copyOf(subjects);
      missingSubjects = List.copyOf(missingSubjects);
      extraSubjects = List.copyOf(extraSubjects);
    }

    /**
     * Whether something is to be written: an operation other than {@link Operation#NONE} on a
     * binding that is not protected.
     *
     * @return whether to write
     */
    public boolean needsWrite() {
      return operation != Operation.NONE && !isProtected;
    }

    /**
     * Sets the result's labels, annotations, role reference and subjects on a binding, such as the
     * stored one read again for an update.
     *
     * @param binding the binding to change; it has metadata
     */
    public void applyTo(ClusterRoleBinding binding) {
      binding.getMetadata().setLabels(labels == null ? null : new LinkedHashMap<>(labels));
      binding
          .getMetadata()
          .setAnnotations(annotations == null ? null : new LinkedHashMap<>(annotations));
      binding.setRoleRef(roleRef);
      binding.setSubjects(new ArrayList<>(subjects));
    }
  }

  /**
   * Reconciles a stored ClusterRole with the expected one.
   *
   * @param existing the stored role, or {@code null} when there is none
   * @param expected the role expected
   * @param removeExtraPermissions whether rules and aggregation selectors the expected role does
   *     not have are removed (kube-apiserver's start keeps them: {@code false})
   * @return what to do, and the values to write
   */
  public static RoleResult clusterRole(
      ClusterRole existing, ClusterRole expected, boolean removeExtraPermissions) {
    ObjectMeta want = metadata(expected.getMetadata());
    List<PolicyRule> expectedRules = orEmpty(expected.getRules());
    if (existing == null) {
      return new RoleResult(
          Operation.CREATE,
          false,
          want.getLabels(),
          want.getAnnotations(),
          expectedRules,
          expected.getAggregationRule(),
          expectedRules,
          List.of());
    }
    ObjectMeta have = metadata(existing.getMetadata());
    Operation operation = Operation.NONE;
    Map<String, String> annotations = merge(want.getAnnotations(), have.getAnnotations());
    Map<String, String> labels = merge(want.getLabels(), have.getLabels());
    if (!sameMap(annotations, have.getAnnotations()) || !sameMap(labels, have.getLabels())) {
      operation = Operation.UPDATE;
    }

    List<PolicyRule> existingRules = orEmpty(existing.getRules());
    List<PolicyRule> extra = PolicyRules.uncovered(expectedRules, existingRules);
    List<PolicyRule> missing = PolicyRules.uncovered(existingRules, expectedRules);
    List<PolicyRule> rules = existingRules;
    if (!removeExtraPermissions && !missing.isEmpty()) {
      rules = new ArrayList<>(existingRules);
      rules.addAll(missing);
      operation = Operation.UPDATE;
    } else if (removeExtraPermissions && (!missing.isEmpty() || !extra.isEmpty())) {
      rules = expectedRules;
      operation = Operation.UPDATE;
    }

    AggregationRule wanted = expected.getAggregationRule();
    AggregationRule held = existing.getAggregationRule();
    List<LabelSelector> extraSelectors = uncoveredSelectors(wanted, held);
    List<LabelSelector> missingSelectors = uncoveredSelectors(held, wanted);
    AggregationRule aggregation = held;
    if (wanted == null && held != null) {
      aggregation = null;
      operation = Operation.UPDATE;
    } else if (!removeExtraPermissions && !missingSelectors.isEmpty()) {
      List<LabelSelector> selectors =
          new ArrayList<>(held == null ? List.of() : held.clusterRoleSelectors());
      selectors.addAll(missingSelectors);
      aggregation = new AggregationRule(selectors);
      operation = Operation.UPDATE;
    } else if (removeExtraPermissions
        && (!missingSelectors.isEmpty() || !extraSelectors.isEmpty())) {
      aggregation = wanted;
      operation = Operation.UPDATE;
    }
    return new RoleResult(
        operation, isProtected(have), labels, annotations, rules, aggregation, missing, extra);
  }

  /**
   * Reconciles a stored ClusterRoleBinding with the expected one.
   *
   * @param existing the stored binding, or {@code null} when there is none
   * @param expected the binding expected
   * @param removeExtraSubjects whether subjects the expected binding does not have are removed
   *     (kube-apiserver's start keeps them: {@code false})
   * @return what to do, and the values to write
   */
  public static BindingResult clusterRoleBinding(
      ClusterRoleBinding existing, ClusterRoleBinding expected, boolean removeExtraSubjects) {
    ObjectMeta want = metadata(expected.getMetadata());
    List<Subject> expectedSubjects = orEmpty(expected.getSubjects());
    if (existing == null) {
      return new BindingResult(
          Operation.CREATE,
          false,
          want.getLabels(),
          want.getAnnotations(),
          expected.getRoleRef(),
          expectedSubjects,
          expectedSubjects,
          List.of());
    }
    ObjectMeta have = metadata(existing.getMetadata());
    boolean isProtected = isProtected(have);
    if (!normal(expected.getRoleRef()).equals(normal(existing.getRoleRef()))) {
      return new BindingResult(
          Operation.RECREATE,
          isProtected,
          want.getLabels(),
          want.getAnnotations(),
          expected.getRoleRef(),
          expectedSubjects,
          expectedSubjects,
          List.of());
    }
    Operation operation = Operation.NONE;
    Map<String, String> annotations = merge(want.getAnnotations(), have.getAnnotations());
    Map<String, String> labels = merge(want.getLabels(), have.getLabels());
    if (!sameMap(annotations, have.getAnnotations()) || !sameMap(labels, have.getLabels())) {
      operation = Operation.UPDATE;
    }
    List<Subject> existingSubjects = orEmpty(existing.getSubjects());
    List<Subject> missing = onlyIn(expectedSubjects, existingSubjects);
    List<Subject> extra = onlyIn(existingSubjects, expectedSubjects);
    List<Subject> subjects = existingSubjects;
    if (!removeExtraSubjects && !missing.isEmpty()) {
      subjects = new ArrayList<>(existingSubjects);
      subjects.addAll(missing);
      operation = Operation.UPDATE;
    } else if (removeExtraSubjects && (!missing.isEmpty() || !extra.isEmpty())) {
      subjects = expectedSubjects;
      operation = Operation.UPDATE;
    }
    return new BindingResult(
        operation,
        isProtected,
        labels,
        annotations,
        existing.getRoleRef(),
        subjects,
        missing,
        extra);
  }

  /**
   * The subjects of one list not in the other, each once, in order ({@code diffSubjectLists}).
   *
   * @param list the subjects looked for
   * @param other the subjects looked in
   * @return those of {@code list} not in {@code other}
   */
  public static List<Subject> onlyIn(List<Subject> list, List<Subject> other) {
    List<Subject> only = new ArrayList<>();
    for (Subject subject : list) {
      if (!contains(other, subject) && !contains(only, subject)) {
        only.add(subject);
      }
    }
    return only;
  }

  /** Whether a list holds a subject, an absent field and an empty one being the same. */
  private static boolean contains(List<Subject> list, Subject subject) {
    Subject wanted = normal(subject);
    for (Subject held : list) {
      if (normal(held).equals(wanted)) {
        return true;
      }
    }
    return false;
  }

  private static Subject normal(Subject subject) {
    return new Subject(
        text(subject.kind()),
        text(subject.apiGroup()),
        text(subject.name()),
        text(subject.namespace()));
  }

  private static RoleRef normal(RoleRef ref) {
    return ref == null
        ? new RoleRef("", "", "")
        : new RoleRef(text(ref.apiGroup()), text(ref.kind()), text(ref.name()));
  }

  private static String text(String value) {
    return value == null ? "" : value;
  }

  private static boolean isProtected(ObjectMeta meta) {
    return meta.getAnnotations() != null
        && "false".equals(meta.getAnnotations().get(BootstrapPolicy.AUTOUPDATE_ANNOTATION));
  }

  private static ObjectMeta metadata(ObjectMeta meta) {
    return meta == null ? new ObjectMeta() : meta;
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }

  /** The maps in one, a later map's value winning; {@code null} when every map is. */
  private static Map<String, String> merge(Map<String, String> first, Map<String, String> then) {
    if (first == null && then == null) {
      return null;
    }
    Map<String, String> merged = new LinkedHashMap<>();
    if (first != null) {
      merged.putAll(first);
    }
    if (then != null) {
      merged.putAll(then);
    }
    return merged;
  }

  /** Maps compared as Kubernetes' semantic equality does: no map is an empty one. */
  private static boolean sameMap(Map<String, String> a, Map<String, String> b) {
    return (a == null ? Map.of() : a).equals(b == null ? Map.of() : b);
  }

  /** The selectors of {@code servant} no selector of {@code owner} equals. */
  private static List<LabelSelector> uncoveredSelectors(
      AggregationRule owner, AggregationRule servant) {
    if (servant == null) {
      return List.of();
    }
    if (owner == null) {
      return servant.clusterRoleSelectors();
    }
    List<LabelSelector> uncovered = new ArrayList<>();
    for (LabelSelector wanted : servant.clusterRoleSelectors()) {
      boolean covered = false;
      for (LabelSelector held : owner.clusterRoleSelectors()) {
        covered |= sameSelector(held, wanted);
      }
      if (!covered) {
        uncovered.add(wanted);
      }
    }
    return uncovered;
  }

  private static boolean sameSelector(LabelSelector a, LabelSelector b) {
    return sameMap(a.getMatchLabels(), b.getMatchLabels())
        && orEmpty(a.getMatchExpressions()).equals(orEmpty(b.getMatchExpressions()));
  }
}
