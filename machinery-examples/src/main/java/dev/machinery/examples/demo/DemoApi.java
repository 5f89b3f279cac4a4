package dev.machinery.examples.demo;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;

/**
 * Registers the sample's {@code demo.example.dev} group: the Rollout in {@code v1} (preferred, the
 * storage version) and {@code v1beta1}, converted through the internal form by generated code. A
 * group of the sample's own, so that it shows served versions and their conversion without standing
 * in for a kind of Kubernetes'. Stateless; thread-safe.
 */
public final class DemoApi {
  /** The group. */
  public static final String GROUP = "demo.example.dev";

  /** The stable version, where Rollouts are stored. */
  public static final GroupVersion V1 = GroupVersion.of(GROUP, "v1");

  /** The older served version. */
  public static final GroupVersion V1BETA1 = GroupVersion.of(GROUP, "v1beta1");

  private DemoApi() {}

  /**
   * Adds the Rollout kinds, their internal form and the generated conversions and deep copies to a
   * scheme builder.
   *
   * @param builder the builder
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    return builder
        .addKnownTypes(V1, dev.machinery.examples.demo.v1.Rollout.class)
        .addKnownTypes(V1BETA1, dev.machinery.examples.demo.v1beta1.Rollout.class)
        .addInternalTypes(GROUP, dev.machinery.examples.demo.internal.Rollout.class)
        .setVersionPriority(V1, V1BETA1)
        .addConversions(
            new dev.machinery.examples.demo.v1.GeneratedConversions(),
            new dev.machinery.examples.demo.v1.GeneratedDeepCopy(),
            new dev.machinery.examples.demo.v1beta1.GeneratedConversions(),
            new dev.machinery.examples.demo.v1beta1.GeneratedDeepCopy(),
            new dev.machinery.examples.demo.internal.GeneratedDeepCopy());
  }
}
