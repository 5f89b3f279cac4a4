package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import java.util.List;
import java.util.Objects;

/**
 * One expression of a {@link LabelSelector} ({@code metav1.LabelSelectorRequirement}): a key, an
 * operator ({@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist}) and values (required
 * for {@code In} and {@code NotIn}, absent otherwise). The operator is kept as written, so an
 * operator a newer server knows survives a round trip.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"key", "operator", "values"})
public final class LabelSelectorRequirement {
  /** The value must be one of the values. */
  public static final String IN = "In";

  /** The value must be none of the values, or the label absent. */
  public static final String NOT_IN = "NotIn";

  /** The label must be present. */
  public static final String EXISTS = "Exists";

  /** The label must be absent. */
  public static final String DOES_NOT_EXIST = "DoesNotExist";

  private String key;
  private String operator;
  private List<String> values;

  /** Creates an empty LabelSelectorRequirement. */
  public LabelSelectorRequirement() {}

  /**
   * Creates a requirement.
   *
   * @param key the label key
   * @param operator the operator
   * @param values the values
   */
  public LabelSelectorRequirement(String key, String operator, List<String> values) {
    this.key = key;
    this.operator = operator;
    this.values = values;
  }

  /**
   * Returns the label key.
   *
   * @return the key
   */
  @ProtoField(1)
  public String getKey() {
    return key;
  }

  /**
   * Sets the label key.
   *
   * @param key the key
   */
  public void setKey(String key) {
    this.key = key;
  }

  /**
   * Returns the operator.
   *
   * @return the operator, such as {@code In}
   */
  @ProtoField(2)
  public String getOperator() {
    return operator;
  }

  /**
   * Sets the operator.
   *
   * @param operator the operator
   */
  public void setOperator(String operator) {
    this.operator = operator;
  }

  /**
   * Returns the values.
   *
   * @return the values, or null
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(3)
  public List<String> getValues() {
    return values;
  }

  /**
   * Sets the values.
   *
   * @param values the values
   */
  public void setValues(List<String> values) {
    this.values = values;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LabelSelectorRequirement that
        && Objects.equals(key, that.key)
        && Objects.equals(operator, that.operator)
        && Objects.equals(values, that.values);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, operator, values);
  }

  @Override
  public String toString() {
    return "LabelSelectorRequirement{key="
        + key
        + ", operator="
        + operator
        + ", values="
        + values
        + "}";
  }
}
