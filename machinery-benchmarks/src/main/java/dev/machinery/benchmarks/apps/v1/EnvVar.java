package dev.machinery.benchmarks.apps.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.conversion.ProtoField;
import java.util.Objects;

/** An environment variable. Mutable; not thread-safe. */
public final class EnvVar {
  private String name;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String value;

  /** Creates an empty value. */
  public EnvVar() {}

  /**
   * Returns the name.
   *
   * @return the name
   */
  @ProtoField(1)
  public String getName() {
    return name;
  }

  /**
   * Sets the name.
   *
   * @param name the name
   */
  public void setName(String name) {
    this.name = name;
  }

  /**
   * Returns the value.
   *
   * @return the value
   */
  @ProtoField(2)
  public String getValue() {
    return value;
  }

  /**
   * Sets the value.
   *
   * @param value the value
   */
  public void setValue(String value) {
    this.value = value;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof EnvVar)) {
      return false;
    }
    EnvVar that = (EnvVar) o;
    return Objects.equals(name, that.name) && Objects.equals(value, that.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, value);
  }
}
