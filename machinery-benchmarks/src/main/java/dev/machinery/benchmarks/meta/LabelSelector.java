package dev.machinery.benchmarks.meta;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/** A label selector (match labels only). Mutable; not thread-safe. */
public final class LabelSelector {
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private java.util.Map<String, String> matchLabels;

  /** Creates an empty value. */
  public LabelSelector() {}

  /**
   * Returns the labels to match.
   *
   * @return the labels to match
   */
  public java.util.Map<String, String> getMatchLabels() {
    return matchLabels;
  }

  /**
   * Sets the labels to match.
   *
   * @param matchLabels the labels to match
   */
  public void setMatchLabels(java.util.Map<String, String> matchLabels) {
    this.matchLabels = matchLabels;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LabelSelector)) {
      return false;
    }
    LabelSelector that = (LabelSelector) o;
    return Objects.equals(matchLabels, that.matchLabels);
  }

  @Override
  public int hashCode() {
    return Objects.hash(matchLabels);
  }
}
