package dev.machinery.examples.api;

import java.util.List;
import java.util.Map;

/**
 * {@code example.dev/v1 Widget}: a custom resource with a size, a colour and a list of parts.
 * Mutable; not thread-safe.
 */
public final class Widget extends ObjectHeader {
  private Spec spec;

  /** Creates an empty widget. */
  public Widget() {}

  /**
   * Returns the spec.
   *
   * @return the spec, or {@code null}
   */
  public Spec getSpec() {
    return spec;
  }

  /**
   * Sets the spec.
   *
   * @param spec the spec
   */
  public void setSpec(Spec spec) {
    this.spec = spec;
  }

  /**
   * What a widget should be.
   *
   * @param size how many units
   * @param colour the colour, as written
   * @param parts the parts
   * @param spares the spare parts kept beside it
   * @param labels free-form labels
   */
  public record Spec(
      Integer size,
      String colour,
      List<String> parts,
      List<String> spares,
      Map<String, String> labels) {}
}
