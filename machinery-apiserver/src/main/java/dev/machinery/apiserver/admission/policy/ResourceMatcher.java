package dev.machinery.apiserver.admission.policy;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@code matchResources} of a policy or a binding against a write, as kube-apiserver's policy
 * matcher: namespaceSelector, objectSelector, excludeResourceRules, then resourceRules (all
 * resources when there are none) with their operations, groups, versions, resources (with {@code
 * *}, {@code *}{@code /*}, {@code pods/*}, {@code *}{@code /status}), resourceNames and scope. The
 * server keeps one version of each resource, so {@code matchPolicy} Exact and Equivalent agree.
 * Stateless.
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
    if (match == null) {
      return true;
    }
    // As kube-apiserver: a selector that cannot be read (or a namespace that cannot be found) is
    // an error only when the resource rules match; a selector that does not match ends the match.
    RuntimeException selectorError = null;
    try {
      if (!namespaceMatches(match, a, object, old, namespaceLabels)) {
        return false;
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
          return false;
        }
      }
    } catch (RuntimeException e) {
      if (selectorError == null) {
        selectorError = e;
      }
    }
    if (rulesMatch(Trees.list(match, "excludeResourceRules"), a)) {
      return false;
    }
    List<Object> rules = Trees.list(match, "resourceRules");
    if (!rules.isEmpty() && !rulesMatch(rules, a)) {
      return false;
    }
    if (selectorError != null) {
      throw selectorError;
    }
    return true;
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

  private static boolean rulesMatch(List<Object> rules, AdmissionAttributes a) {
    for (Object rule : rules) {
      if (ruleMatches(rule, a)) {
        List<String> names = Trees.strings(rule, "resourceNames");
        if (names.isEmpty() || names.contains(a.name())) {
          return true;
        }
      }
    }
    return false;
  }

  static boolean ruleMatches(Object rule, AdmissionAttributes a) {
    return anyOf(Trees.strings(rule, "operations"), a.operation().name())
        && anyOf(Trees.strings(rule, "apiGroups"), a.resource().group())
        && anyOf(Trees.strings(rule, "apiVersions"), a.version())
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
