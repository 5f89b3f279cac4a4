package dev.machinery.unversioned.testapi;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.discovery.v2.DiscoveryV2;
import dev.machinery.unversioned.meta.v1.MetaV1;

/** The Scheme of the test kinds, shared by this module's tests and the server's. */
public final class TestSchemes {
  /** The legacy core group's {@code v1}. */
  public static final GroupVersion CORE_V1 = GroupVersion.of("", "v1");

  /** {@code apps/v1}, preferred. */
  public static final GroupVersion APPS_V1 = GroupVersion.of("apps", "v1");

  /** {@code apps/v1beta1}. */
  public static final GroupVersion APPS_V1BETA1 = GroupVersion.of("apps", "v1beta1");

  /** {@code batch/v1}. */
  public static final GroupVersion BATCH_V1 = GroupVersion.of("batch", "v1");

  /**
   * The shared types, aggregated discovery, Pods and Services in {@code v1}, Deployments in {@code
   * apps/v1} and {@code apps/v1beta1}, Jobs in {@code batch/v1}.
   */
  public static final Scheme SCHEME =
      DiscoveryV2.addToScheme(MetaV1.addToScheme(Scheme.builder()))
          .addKnownTypes(CORE_V1, Pod.class, Service.class)
          .addKnownTypes(APPS_V1, Deployment.class)
          .addKnownType(APPS_V1BETA1.withKind("Deployment"), DeploymentV1beta1.class)
          .addKnownTypes(BATCH_V1, Job.class)
          .setVersionPriority(APPS_V1, APPS_V1BETA1)
          .build();

  private TestSchemes() {}
}
