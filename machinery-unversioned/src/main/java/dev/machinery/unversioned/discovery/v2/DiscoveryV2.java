package dev.machinery.unversioned.discovery.v2;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;

/**
 * Registers the aggregated discovery types into a {@link Scheme}, in {@code apidiscovery.k8s.io/v2}
 * and its identical predecessor {@code v2beta1}.
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class DiscoveryV2 {
  /** {@code apidiscovery.k8s.io/v2}. */
  public static final GroupVersion V2 = GroupVersion.of("apidiscovery.k8s.io", "v2");

  /** {@code apidiscovery.k8s.io/v2beta1}, served by Kubernetes 1.26 to 1.29. */
  public static final GroupVersion V2BETA1 = GroupVersion.of("apidiscovery.k8s.io", "v2beta1");

  private DiscoveryV2() {}

  /**
   * Registers {@code APIGroupDiscoveryList} and {@code APIGroupDiscovery} in both versions.
   *
   * @param builder the scheme builder
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    return builder
        .addSharedTypes(V2, APIGroupDiscoveryList.class, APIGroupDiscovery.class)
        .addSharedTypes(V2BETA1, APIGroupDiscoveryList.class, APIGroupDiscovery.class)
        .setVersionPriority(V2, V2BETA1)
        .addConversions(new GeneratedDeepCopy());
  }
}
