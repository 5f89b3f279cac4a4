package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.core.patch.MapType;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A label query as API objects hold it ({@code metav1.LabelSelector}): labels that must equal, and
 * expressions; all must hold. An empty selector matches everything, an absent one nothing. {@code
 * dev.machinery.unversioned.labels.LabelSelectors} turns it into a {@code Selector} and back.
 *
 * <p>Atomic for server-side apply, as Kubernetes marks it ({@code +structType=atomic}): whoever
 * sets a selector owns all of it.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@MapType("atomic")
@JsonPropertyOrder({"matchLabels", "matchExpressions"})
public final class LabelSelector {
  private Map<String, String> matchLabels;
  private List<LabelSelectorRequirement> matchExpressions;

  /** Creates an empty LabelSelector. */
  public LabelSelector() {}

  /**
   * Returns the labels that must have these values.
   *
   * @return the labels, or null
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(1)
  public Map<String, String> getMatchLabels() {
    return matchLabels;
  }

  /**
   * Sets the labels that must have these values.
   *
   * @param matchLabels the labels
   */
  public void setMatchLabels(Map<String, String> matchLabels) {
    this.matchLabels = matchLabels;
  }

  /**
   * Returns the expressions that must hold.
   *
   * @return the expressions, or null
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(2)
  public List<LabelSelectorRequirement> getMatchExpressions() {
    return matchExpressions;
  }

  /**
   * Sets the expressions that must hold.
   *
   * @param matchExpressions the expressions
   */
  public void setMatchExpressions(List<LabelSelectorRequirement> matchExpressions) {
    this.matchExpressions = matchExpressions;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LabelSelector that
        && Objects.equals(matchLabels, that.matchLabels)
        && Objects.equals(matchExpressions, that.matchExpressions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(matchLabels, matchExpressions);
  }

  @Override
  public String toString() {
    return "LabelSelector{matchLabels="
        + matchLabels
        + ", matchExpressions="
        + matchExpressions
        + "}";
  }
}
