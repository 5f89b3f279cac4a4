package dev.machinery.examples.core;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;

/** Registers the sample's {@code v1} core kinds. Stateless; thread-safe. */
public final class CoreV1 {
  /** The core group's version {@code v1}. */
  public static final GroupVersion CORE_V1 = GroupVersion.of("", "v1");

  private CoreV1() {}

  /**
   * Adds Namespace, ConfigMap and Event in {@code v1}, and the shared {@code meta.k8s.io/v1} types.
   *
   * @param builder the scheme builder
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    return MetaV1.addToScheme(builder)
        .addKnownTypes(CORE_V1, Namespace.class, ConfigMap.class, Event.class);
  }
}
