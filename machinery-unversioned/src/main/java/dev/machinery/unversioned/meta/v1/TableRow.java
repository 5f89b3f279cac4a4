package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One row of a {@link Table}: its cells, conditions, and the object it shows (as JSON).
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"cells", "conditions", "object"})
public final class TableRow {
  private List<Object> cells;
  private List<TableRowCondition> conditions;
  private Map<String, Object> object;

  /** Creates an empty TableRow. */
  public TableRow() {}

  /**
   * Returns the cells, in column order (strings, numbers, booleans, or null).
   *
   * @return the cells, in column order (strings, numbers, booleans, or null)
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<Object> getCells() {
    return cells;
  }

  /**
   * Sets the cells, in column order (strings, numbers, booleans, or null).
   *
   * @param cells the cells, in column order (strings, numbers, booleans, or null)
   */
  public void setCells(List<Object> cells) {
    this.cells = cells;
  }

  /**
   * Returns the conditions.
   *
   * @return the conditions
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public List<TableRowCondition> getConditions() {
    return conditions;
  }

  /**
   * Sets the conditions.
   *
   * @param conditions the conditions
   */
  public void setConditions(List<TableRowCondition> conditions) {
    this.conditions = conditions;
  }

  /**
   * Returns the object the row shows, as JSON ({@code PartialObjectMetadata} or the full object),
   * or {@code null}.
   *
   * @return the object the row shows, as JSON ({@code PartialObjectMetadata} or the full object),
   *     or {@code null}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public Map<String, Object> getObject() {
    return object;
  }

  /**
   * Sets the object the row shows, as JSON ({@code PartialObjectMetadata} or the full object), or
   * {@code null}.
   *
   * @param object the object the row shows, as JSON ({@code PartialObjectMetadata} or the full
   *     object), or {@code null}
   */
  public void setObject(Map<String, Object> object) {
    this.object = object;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof TableRow)) {
      return false;
    }
    TableRow that = (TableRow) other;
    return true
        && Objects.equals(cells, that.cells)
        && Objects.equals(conditions, that.conditions)
        && Objects.equals(object, that.object);
  }

  @Override
  public int hashCode() {
    return Objects.hash(cells, conditions, object);
  }

  @Override
  public String toString() {
    return "TableRow{"
        + "cells="
        + cells
        + ", conditions="
        + conditions
        + ", object="
        + object
        + "}";
  }
}
