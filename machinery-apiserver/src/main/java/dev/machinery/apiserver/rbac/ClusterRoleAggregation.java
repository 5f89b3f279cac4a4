package dev.machinery.apiserver.rbac;

import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ClusterRole aggregation, as Kubernetes' {@code clusterrole-aggregation} controller does it: a
 * ClusterRole with an {@link AggregationRule} gets the rules of every other ClusterRole whose
 * labels match one of its selectors (selectors in order, roles by name, each rule once), repeated
 * until nothing changes, so that aggregated roles may aggregate each other. Stateless; thread-safe.
 */
public final class ClusterRoleAggregation {
  private ClusterRoleAggregation() {}

  /**
   * Computes the rules each aggregated ClusterRole should have.
   *
   * @param roles every ClusterRole
   * @return the new rules of each aggregated role whose rules differ from its stored ones, by name
   */
  public static Map<String, List<PolicyRule>> changes(List<ClusterRole> roles) {
    List<ClusterRole> sorted = new ArrayList<>(roles);
    sorted.sort(Comparator.comparing(r -> r.getMetadata().getName()));
    Map<String, List<PolicyRule>> rules = new HashMap<>();
    for (ClusterRole role : sorted) {
      rules.put(role.getMetadata().getName(), rulesOf(role));
    }
    for (int pass = 0; pass <= sorted.size(); pass++) {
      boolean changed = false;
      for (ClusterRole role : sorted) {
        AggregationRule aggregation = role.getAggregationRule();
        if (aggregation == null) {
          continue;
        }
        List<PolicyRule> gathered = new ArrayList<>();
        for (LabelSelector selector : aggregation.clusterRoleSelectors()) {
          var matcher = LabelSelectors.toSelector(selector);
          for (ClusterRole other : sorted) {
            if (other == role) {
              continue;
            }
            Map<String, String> labels = other.getMetadata().getLabels();
            if (!matcher.matches(labels == null ? Map.of() : labels)) {
              continue;
            }
            for (PolicyRule rule : rules.get(other.getMetadata().getName())) {
              if (!gathered.contains(rule)) {
                gathered.add(rule);
              }
            }
          }
        }
        if (!gathered.equals(rules.get(role.getMetadata().getName()))) {
          rules.put(role.getMetadata().getName(), List.copyOf(gathered));
          changed = true;
        }
      }
      if (!changed) {
        break;
      }
    }
    Map<String, List<PolicyRule>> changes = new HashMap<>();
    for (ClusterRole role : sorted) {
      List<PolicyRule> now = rules.get(role.getMetadata().getName());
      if (role.getAggregationRule() != null && !now.equals(rulesOf(role))) {
        changes.put(role.getMetadata().getName(), now);
      }
    }
    return changes;
  }

  private static List<PolicyRule> rulesOf(ClusterRole role) {
    return role.getRules() == null ? List.of() : List.copyOf(role.getRules());
  }
}
