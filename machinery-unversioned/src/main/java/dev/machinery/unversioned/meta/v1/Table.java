package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * A tabular representation of objects ({@code as=Table}): column definitions and rows.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "columnDefinitions", "rows"})
public final class Table extends TypeMeta {
  private ListMeta metadata = new ListMeta();
  private List<TableColumnDefinition> columnDefinitions;
  private List<TableRow> rows;

  /** Creates an empty Table. */
  public Table() {}

  /**
   * Returns the list metadata.
   *
   * @return the list metadata
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public ListMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the list metadata.
   *
   * @param metadata the list metadata
   */
  public void setMetadata(ListMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the columns.
   *
   * @return the columns
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<TableColumnDefinition> getColumnDefinitions() {
    return columnDefinitions;
  }

  /**
   * Sets the columns.
   *
   * @param columnDefinitions the columns
   */
  public void setColumnDefinitions(List<TableColumnDefinition> columnDefinitions) {
    this.columnDefinitions = columnDefinitions;
  }

  /**
   * Returns the rows.
   *
   * @return the rows
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<TableRow> getRows() {
    return rows;
  }

  /**
   * Sets the rows.
   *
   * @param rows the rows
   */
  public void setRows(List<TableRow> rows) {
    this.rows = rows;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Table)) {
      return false;
    }
    Table that = (Table) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(metadata, that.metadata)
        && Objects.equals(columnDefinitions, that.columnDefinitions)
        && Objects.equals(rows, that.rows);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), metadata, columnDefinitions, rows);
  }

  @Override
  public String toString() {
    return "Table{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", metadata="
        + metadata
        + ", columnDefinitions="
        + columnDefinitions
        + ", rows="
        + rows
        + "}";
  }
}
