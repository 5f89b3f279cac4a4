package dev.machinery.apiserver.rbac;

import dev.machinery.apiserver.authorization.Attributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Kubernetes' RBAC rule arithmetic: whether a rule allows a request ({@code RuleAllows} and its
 * matchers), whether one set of rules covers another ({@code Covers}, for escalation prevention),
 * breaking a rule into its atoms and compacting atoms back for a message. Stateless; thread-safe.
 */
public final class PolicyRules {
  /** Every verb, group, resource or path. */
  public static final String ALL = "*";

  private PolicyRules() {}

  /**
   * Whether a rule allows a request: for a resource request its verb, group, resource (with the
   * subresource as {@code resource/subresource}) and name; for a non-resource request its verb and
   * path.
   *
   * @param attributes the request
   * @param rule the rule
   * @return whether it allows it
   */
  public static boolean allows(Attributes attributes, PolicyRule rule) {
    if (attributes.resourceRequest()) {
      String combined = attributes.resource();
      if (!attributes.subresource().isEmpty()) {
        combined = combined + "/" + attributes.subresource();
      }
      return verbMatches(rule, attributes.verb())
          && apiGroupMatches(rule, attributes.apiGroup())
          && resourceMatches(rule, combined, attributes.subresource())
          && resourceNameMatches(rule, attributes.name());
    }
    return verbMatches(rule, attributes.verb()) && nonResourceURLMatches(rule, attributes.path());
  }

  /**
   * Whether the rule names the verb or {@code *}.
   *
   * @param rule the rule
   * @param verb the verb
   * @return whether it matches
   */
  public static boolean verbMatches(PolicyRule rule, String verb) {
    return rule.verbs().contains(ALL) || rule.verbs().contains(verb);
  }

  /**
   * Whether the rule names the group or {@code *}.
   *
   * @param rule the rule
   * @param group the group
   * @return whether it matches
   */
  public static boolean apiGroupMatches(PolicyRule rule, String group) {
    return rule.apiGroups().contains(ALL) || rule.apiGroups().contains(group);
  }

  /**
   * Whether the rule names the resource: {@code *}, the resource itself ({@code pods/log} for a
   * subresource), or {@code *}{@code /SUB} for the subresource {@code SUB} of any resource.
   *
   * @param rule the rule
   * @param combined the resource, {@code resource/subresource} for a subresource
   * @param subresource the subresource, or {@code ""}
   * @return whether it matches
   */
  public static boolean resourceMatches(PolicyRule rule, String combined, String subresource) {
    for (String resource : rule.resources()) {
      if (resource.equals(ALL) || resource.equals(combined)) {
        return true;
      }
      if (!subresource.isEmpty() && resource.equals("*/" + subresource)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the rule allows the name: a rule without names allows every name (and requests without
   * one); a rule with names only those.
   *
   * @param rule the rule
   * @param name the name, or {@code ""}
   * @return whether it matches
   */
  public static boolean resourceNameMatches(PolicyRule rule, String name) {
    return rule.resourceNames().isEmpty() || rule.resourceNames().contains(name);
  }

  /**
   * Whether the rule names the path: {@code *}, the path itself, or a prefix of it followed by
   * {@code *}.
   *
   * @param rule the rule
   * @param path the path
   * @return whether it matches
   */
  public static boolean nonResourceURLMatches(PolicyRule rule, String path) {
    for (String url : rule.nonResourceURLs()) {
      if (url.equals(ALL) || url.equals(path)) {
        return true;
      }
      if (url.endsWith("*") && path.startsWith(stripStars(url))) {
        return true;
      }
    }
    return false;
  }

  private static String stripStars(String url) {
    int end = url.length();
    while (end > 0 && url.charAt(end - 1) == '*') {
      end--;
    }
    return url.substring(0, end);
  }

  /**
   * Breaks a rule into atoms, one verb on one resource of one group (and one name, if the rule has
   * names), or one verb on one path, as Kubernetes' {@code BreakdownRule}.
   *
   * @param rule the rule
   * @return the atoms
   */
  public static List<PolicyRule> breakdown(PolicyRule rule) {
    List<PolicyRule> atoms = new ArrayList<>();
    for (String group : rule.apiGroups()) {
      for (String resource : rule.resources()) {
        for (String verb : rule.verbs()) {
          if (rule.resourceNames().isEmpty()) {
            atoms.add(PolicyRule.resources(List.of(verb), List.of(group), List.of(resource)));
          } else {
            for (String name : rule.resourceNames()) {
              atoms.add(
                  PolicyRule.resources(List.of(verb), List.of(group), List.of(resource))
                      .withResourceNames(List.of(name)));
            }
          }
        }
      }
    }
    for (String url : rule.nonResourceURLs()) {
      for (String verb : rule.verbs()) {
        atoms.add(PolicyRule.nonResourceURLs(List.of(verb), List.of(url)));
      }
    }
    return atoms;
  }

  /**
   * The atoms of {@code wanted} that no rule of {@code held} covers, as Kubernetes' {@code Covers}:
   * empty when whoever holds {@code held} may grant {@code wanted}.
   *
   * @param held the rules someone holds
   * @param wanted the rules they would grant
   * @return the atoms not covered, in order
   */
  public static List<PolicyRule> uncovered(List<PolicyRule> held, List<PolicyRule> wanted) {
    List<PolicyRule> missing = new ArrayList<>();
    for (PolicyRule rule : wanted) {
      for (PolicyRule atom : breakdown(rule)) {
        boolean covered = false;
        for (PolicyRule owner : held) {
          if (covers(owner, atom)) {
            covered = true;
            break;
          }
        }
        if (!covered) {
          missing.add(atom);
        }
      }
    }
    return missing;
  }

  /**
   * Whether one rule covers another ({@code ruleCovers}): every verb, group, resource, name and
   * path of {@code sub} is in {@code owner}, counting {@code *}, {@code *}{@code /SUB} and paths
   * ending in {@code *}; an owner limited to names covers only rules limited to some of them.
   *
   * @param owner the rule held
   * @param sub the rule to grant
   * @return whether it is covered
   */
  public static boolean covers(PolicyRule owner, PolicyRule sub) {
    boolean verbs = owner.verbs().contains(ALL) || owner.verbs().containsAll(sub.verbs());
    boolean groups =
        owner.apiGroups().contains(ALL) || owner.apiGroups().containsAll(sub.apiGroups());
    boolean resources = resourcesCover(owner.resources(), sub.resources());
    boolean urls = urlsCover(owner.nonResourceURLs(), sub.nonResourceURLs());
    boolean names =
        sub.resourceNames().isEmpty()
            ? owner.resourceNames().isEmpty()
            : owner.resourceNames().isEmpty()
                || owner.resourceNames().containsAll(sub.resourceNames());
    return verbs && groups && resources && names && urls;
  }

  private static boolean resourcesCover(List<String> owner, List<String> sub) {
    if (owner.contains(ALL) || owner.containsAll(sub)) {
      return true;
    }
    for (String resource : sub) {
      if (owner.contains(resource)) {
        continue;
      }
      int slash = resource.indexOf('/');
      if (slash < 0 || !owner.contains("*/" + resource.substring(slash + 1))) {
        return false;
      }
    }
    return true;
  }

  private static boolean urlsCover(List<String> owner, List<String> sub) {
    for (String path : sub) {
      boolean covered = false;
      for (String url : owner) {
        if (url.equals(path) || url.endsWith("*") && path.startsWith(stripStars(url))) {
          covered = true;
          break;
        }
      }
      if (!covered) {
        return false;
      }
    }
    return true;
  }

  /**
   * Merges the verbs of rules on one resource of one group without names, as Kubernetes' {@code
   * CompactRules}; other rules are kept as they are.
   *
   * @param rules the rules
   * @return the compacted rules
   */
  public static List<PolicyRule> compact(List<PolicyRule> rules) {
    Map<List<String>, List<String>> simple = new LinkedHashMap<>();
    List<PolicyRule> out = new ArrayList<>();
    for (PolicyRule rule : rules) {
      if (rule.resourceNames().isEmpty()
          && rule.nonResourceURLs().isEmpty()
          && rule.apiGroups().size() == 1
          && rule.resources().size() == 1) {
        List<String> key = List.of(rule.apiGroups().get(0), rule.resources().get(0));
        List<String> verbs = simple.get(key);
        if (verbs == null) {
          verbs = new ArrayList<>();
          simple.put(key, verbs);
          out.add(null);
        }
        for (String verb : rule.verbs()) {
          if (!verbs.contains(verb)) {
            verbs.add(verb);
          }
        }
        continue;
      }
      out.add(rule);
    }
    List<PolicyRule> result = new ArrayList<>();
    var keys = simple.entrySet().iterator();
    for (PolicyRule rule : out) {
      if (rule != null) {
        result.add(rule);
      } else {
        var entry = keys.next();
        result.add(
            PolicyRule.resources(
                entry.getValue(), List.of(entry.getKey().get(0)), List.of(entry.getKey().get(1))));
      }
    }
    return result;
  }

  /**
   * The rules' {@link PolicyRule#compactString} lines, compacted and sorted, as an escalation
   * refusal lists them.
   *
   * @param rules the rules
   * @return one line a rule
   */
  public static String describe(List<PolicyRule> rules) {
    TreeSet<String> lines = new TreeSet<>();
    for (PolicyRule rule : compact(rules)) {
      lines.add(rule.compactString());
    }
    return String.join("\n", lines);
  }
}
