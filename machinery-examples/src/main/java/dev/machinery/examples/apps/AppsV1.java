package dev.machinery.examples.apps;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;

/** Registers the {@code apps/v1} kinds of this example. Stateless; thread-safe. */
public final class AppsV1 {
  /** The group version {@code apps/v1}. */
  public static final GroupVersion APPS_V1 = GroupVersion.of("apps", "v1");

  private AppsV1() {}

  /**
   * Adds {@code Deployment} in {@code apps/v1}, and the shared {@code meta.k8s.io/v1} types.
   *
   * @param builder the scheme builder
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    return MetaV1.addToScheme(builder).addKnownTypes(APPS_V1, Deployment.class);
  }
}
