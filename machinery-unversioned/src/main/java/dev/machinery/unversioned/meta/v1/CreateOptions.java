package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * The query of a create ({@code metav1.CreateOptions}): dry run, field manager, field validation.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"dryRun", "fieldManager", "fieldValidation"})
public final class CreateOptions extends TypeMeta {
  private List<String> dryRun;
  private String fieldManager;
  private String fieldValidation;

  /** Creates an empty CreateOptions. */
  public CreateOptions() {}

  /**
   * Returns the dry-run stages ({@code All} stores nothing).
   *
   * @return the dry-run stages ({@code All} stores nothing)
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<String> getDryRun() {
    return dryRun;
  }

  /**
   * Sets the dry-run stages ({@code All} stores nothing).
   *
   * @param dryRun the dry-run stages ({@code All} stores nothing)
   */
  public void setDryRun(List<String> dryRun) {
    this.dryRun = dryRun;
  }

  /**
   * Returns the name of the actor making the change.
   *
   * @return the name of the actor making the change
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getFieldManager() {
    return fieldManager;
  }

  /**
   * Sets the name of the actor making the change.
   *
   * @param fieldManager the name of the actor making the change
   */
  public void setFieldManager(String fieldManager) {
    this.fieldManager = fieldManager;
  }

  /**
   * Returns how unknown and duplicate fields are treated ({@code Strict}, {@code Warn} or {@code
   * Ignore}).
   *
   * @return how unknown and duplicate fields are treated ({@code Strict}, {@code Warn} or {@code
   *     Ignore})
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getFieldValidation() {
    return fieldValidation;
  }

  /**
   * Sets how unknown and duplicate fields are treated ({@code Strict}, {@code Warn} or {@code
   * Ignore}).
   *
   * @param fieldValidation how unknown and duplicate fields are treated ({@code Strict}, {@code
   *     Warn} or {@code Ignore})
   */
  public void setFieldValidation(String fieldValidation) {
    this.fieldValidation = fieldValidation;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CreateOptions that
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(dryRun, that.dryRun)
        && Objects.equals(fieldManager, that.fieldManager)
        && Objects.equals(fieldValidation, that.fieldValidation);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), dryRun, fieldManager, fieldValidation);
  }

  @Override
  public String toString() {
    return "CreateOptions{apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", dryRun="
        + dryRun
        + ", fieldManager="
        + fieldManager
        + ", fieldValidation="
        + fieldValidation
        + "}";
  }
}
