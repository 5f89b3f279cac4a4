package dev.machinery.examples.api;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;

/** Registers the example API. Stateless. */
public final class ExampleApi {
  /** The custom group's version. */
  public static final GroupVersion WIDGETS_V1 = GroupVersion.of("example.dev", "v1");

  /** The legacy core group's version. */
  public static final GroupVersion CORE_V1 = GroupVersion.of("", "v1");

  private ExampleApi() {}

  /**
   * Builds the example scheme: {@code example.dev/v1 Widget} (defaulting its size to 1) and {@code
   * v1 ConfigMap}.
   *
   * @return the scheme
   */
  public static Scheme scheme() {
    return Scheme.builder()
        .addKnownTypes(WIDGETS_V1, Widget.class)
        .addKnownTypes(CORE_V1, ConfigMap.class)
        .addDefaultingFunction(
            Widget.class,
            widget -> {
              Widget.Spec spec = widget.getSpec();
              if (spec != null && spec.size() == null) {
                widget.setSpec(
                    new Widget.Spec(1, spec.colour(), spec.parts(), spec.spares(), spec.labels()));
              }
            })
        .build();
  }
}
