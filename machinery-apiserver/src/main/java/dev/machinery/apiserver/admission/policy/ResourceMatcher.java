package dev.machinery.apiserver.admission.policy;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The {@code matchResources} of a policy or a binding against a write, as kube-apiserver's policy
 * matcher: namespaceSelector, objectSelector, excludeResourceRules, then resourceRules (all
 * resources when there are none) with their operations, groups, versions, resources (with {@code
 * *}, {@code *}{@code /*}, {@code pods/*}, {@code *}{@code /status}), resourceNames and scope. A
 * rule is matched against the version the request was made in; under {@code matchPolicy:
 * Equivalent} (the default, as the API defaults it) a rule naming another version the resource is
 * served in matches too, in that version ({@link AdmissionAttributes#versions()}). Stateless.
 */
final class ResourceMatcher {
  private ResourceMatcher() {}

  /** Thrown when the namespace a selector needs cannot be read. */
  static final class MatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MatchException(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Whether the write matches.
   *
   * @param match the {@code matchResources} tree, or {@code null} (everything matches)
   * @param a the write
   * @param object the object's tree (or null)
   * @param old the old object's tree (or null)
   * @param namespaceLabels the labels of a namespace by name, null when it does not exist
   */
  static boolean matches(
      Map<String, Object> match,
      AdmissionAttributes a,
      Map<String, Object> object,
      Map<String, Object> old,
      Function<String, Map<String, String>> namespaceLabels) {
    return matchedVersion(match, a, object, old, namespaceLabels).isPresent();
  }

  /**
   * The version of the resource the write matches in: the one its request was made in, or under
   * {@code matchPolicy: Equivalent} another served version a rule names, as kube-apiserver's
   * matcher answers its match resource.
   *
   * @param match the {@code matchResources} tree, or {@code null} (everything matches)
   * @param a the write
   * @param object the object's tree (or null)
   * @param old the old object's tree (or null)
   * @param namespaceLabels the labels of a namespace by name, null when it does not exist
   * @return the version, or empty when the write does not match
   */
  static Optional<String> matchedVersion(
      Map<String, Object> match,
      AdmissionAttributes a,
      Map<String, Object> object,
      Map<String, Object> old,
      Function<String, Map<String, String>> namespaceLabels) {
    String requested = a.versions().requested();
    if (match == null) {
      return Optional.of(requested);
    }
    // As kube-apiserver: a selector that cannot be read (or a namespace that cannot be found) is
    // an error only when the resource rules match; a selector that does not match ends the match.
    RuntimeException selectorError = null;
    try {
      if (!namespaceMatches(match, a, object, old, namespaceLabels)) {
        return Optional.empty();
      }
    } catch (RuntimeException e) {
      selectorError = e;
    }
    try {
      var objectSelector = Trees.selector(Trees.map(match, "objectSelector"));
      if (!objectSelector.isEmpty()) {
        boolean any =
            (object != null && objectSelector.matches(Trees.labels(object)))
                || (old != null && objectSelector.matches(Trees.labels(old)));
        if (!any) {
          return Optional.empty();
        }
      }
    } catch (RuntimeException e) {
      if (selectorError == null) {
        selectorError = e;
      }
    }
    boolean exact = "Exact".equals(Trees.string(match, "matchPolicy"));
    if (rulesMatch(Trees.list(match, "excludeResourceRules"), a, exact).isPresent()) {
      return Optional.empty();
    }
    List<Object> rules = Trees.list(match, "resourceRules");
    Optional<String> version =
        rules.isEmpty() ? Optional.of(requested) : rulesMatch(rules, a, exact);
    if (version.isEmpty()) {
      return version;
    }
    if (selectorError != null) {
      throw selectorError;
    }
    return version;
  }

  private static boolean namespaceMatches(
      Map<String, Object> match,
      AdmissionAttributes a,
      Map<String, Object> object,
      Map<String, Object> old,
      Function<String, Map<String, String>> namespaceLabels) {
    boolean isNamespace =
        a.resource().group().isEmpty() && a.resource().resource().equals("namespaces");
    if (a.namespace().isEmpty() && !isNamespace) {
      return true;
    }
    var selector = Trees.selector(Trees.map(match, "namespaceSelector"));
    if (selector.isEmpty()) {
      return true;
    }
    Map<String, String> labels;
    if (isNamespace) {
      // A Namespace is matched by its own labels.
      labels = Trees.labels(object != null ? object : old);
    } else {
      labels = namespaceLabels.apply(a.namespace());
      if (labels == null) {
        throw new MatchException("namespaces \"" + a.namespace() + "\" not found");
      }
    }
    return selector.matches(labels);
  }

  /**
   * The version the rules match in: the requested one, else (unless exact) the first served
   * version, in the order of the rules, that a rule names.
   */
  private static Optional<String> rulesMatch(
      List<Object> rules, AdmissionAttributes a, boolean exact) {
    String requested = a.versions().requested();
    if (rulesMatchIn(rules, a, requested)) {
      return Optional.of(requested);
    }
    if (exact) {
      return Optional.empty();
    }
    for (Object rule : rules) {
      for (String version : a.versions().served()) {
        if (!version.equals(requested) && rulesMatchIn(List.of(rule), a, version)) {
          return Optional.of(version);
        }
      }
    }
    return Optional.empty();
  }

  private static boolean rulesMatchIn(List<Object> rules, AdmissionAttributes a, String version) {
    for (Object rule : rules) {
      if (ruleMatches(rule, a, version)) {
        List<String> names = Trees.strings(rule, "resourceNames");
        if (names.isEmpty() || names.contains(a.name())) {
          return true;
        }
      }
    }
    return false;
  }

  static boolean ruleMatches(Object rule, AdmissionAttributes a) {
    return ruleMatches(rule, a, a.versions().requested());
  }

  private static boolean ruleMatches(Object rule, AdmissionAttributes a, String version) {
    return anyOf(Trees.strings(rule, "operations"), a.operation().name())
        && anyOf(Trees.strings(rule, "apiGroups"), a.resource().group())
        && anyOf(Trees.strings(rule, "apiVersions"), version)
        && resourceMatches(Trees.strings(rule, "resources"), a)
        && scopeMatches(Trees.string(rule, "scope"), a);
  }

  private static boolean anyOf(List<String> values, String value) {
    return values.contains("*") || values.contains(value);
  }

  private static boolean resourceMatches(List<String> resources, AdmissionAttributes a) {
    for (String entry : resources) {
      int slash = entry.indexOf('/');
      String resource = slash < 0 ? entry : entry.substring(0, slash);
      String sub = slash < 0 ? "" : entry.substring(slash + 1);
      boolean resourceMatch = resource.equals("*") || resource.equals(a.resource().resource());
      boolean subMatch = sub.equals("*") || sub.equals(a.subresource());
      if (resourceMatch && subMatch) {
        return true;
      }
    }
    return false;
  }

  private static boolean scopeMatches(String scope, AdmissionAttributes a) {
    if (scope == null || scope.equals("*")) {
      return true;
    }
    return switch (scope) {
      case "Cluster" -> a.namespace().isEmpty();
      case "Namespaced" -> !a.namespace().isEmpty();
      default -> false;
    };
  }
}
