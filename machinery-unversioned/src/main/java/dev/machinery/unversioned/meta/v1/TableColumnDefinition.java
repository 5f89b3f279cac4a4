package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * One column of a {@link Table}: name, type, format, description and priority.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"name", "type", "format", "description", "priority"})
public final class TableColumnDefinition {
  private String name;
  private String type;
  private String format;
  private String description;
  private int priority;

  /** Creates an empty TableColumnDefinition. */
  public TableColumnDefinition() {}

  /**
   * Returns the column name.
   *
   * @return the column name
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getName() {
    return name;
  }

  /**
   * Sets the column name.
   *
   * @param name the column name
   */
  public void setName(String name) {
    this.name = name;
  }

  /**
   * Returns the OpenAPI type, such as {@code string}.
   *
   * @return the OpenAPI type, such as {@code string}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getType() {
    return type;
  }

  /**
   * Sets the OpenAPI type, such as {@code string}.
   *
   * @param type the OpenAPI type, such as {@code string}
   */
  public void setType(String type) {
    this.type = type;
  }

  /**
   * Returns the OpenAPI format, such as {@code name}.
   *
   * @return the OpenAPI format, such as {@code name}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getFormat() {
    return format;
  }

  /**
   * Sets the OpenAPI format, such as {@code name}.
   *
   * @param format the OpenAPI format, such as {@code name}
   */
  public void setFormat(String format) {
    this.format = format;
  }

  /**
   * Returns the description.
   *
   * @return the description
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public String getDescription() {
    return description;
  }

  /**
   * Sets the description.
   *
   * @param description the description
   */
  public void setDescription(String description) {
    this.description = description;
  }

  /**
   * Returns the priority: 0 for the default view, higher for wide output.
   *
   * @return the priority: 0 for the default view, higher for wide output
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public int getPriority() {
    return priority;
  }

  /**
   * Sets the priority: 0 for the default view, higher for wide output.
   *
   * @param priority the priority: 0 for the default view, higher for wide output
   */
  public void setPriority(int priority) {
    this.priority = priority;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof TableColumnDefinition)) {
      return false;
    }
    TableColumnDefinition that = (TableColumnDefinition) other;
    return true
        && Objects.equals(name, that.name)
        && Objects.equals(type, that.type)
        && Objects.equals(format, that.format)
        && Objects.equals(description, that.description)
        && Objects.equals(priority, that.priority);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, type, format, description, priority);
  }

  @Override
  public String toString() {
    return "TableColumnDefinition{"
        + "name="
        + name
        + ", type="
        + type
        + ", format="
        + format
        + ", description="
        + description
        + ", priority="
        + priority
        + "}";
  }
}
