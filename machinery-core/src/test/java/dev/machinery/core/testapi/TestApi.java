package dev.machinery.core.testapi;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.testapi.apps.Deployment;
import dev.machinery.core.testapi.apps.DeploymentList;
import dev.machinery.core.testapi.compute.Pod;
import dev.machinery.core.testapi.core.Service;
import dev.machinery.core.testapi.meta.Status;

/** The test API's scheme. */
public final class TestApi {
  public static final GroupVersion APPS_V1 = GroupVersion.of("apps", "v1");
  public static final GroupVersion CORE_V1 = GroupVersion.of("", "v1");
  public static final GroupVersion META_V1 = GroupVersion.of("meta.k8s.io", "v1");

  private TestApi() {}

  public static Scheme.Builder builder() {
    return Scheme.builder()
        .addKnownTypes(APPS_V1, Deployment.class, DeploymentList.class)
        .addKnownTypes(CORE_V1, Service.class)
        .addKnownTypes(GroupVersion.of("compute", "v1"), Pod.class)
        .addKnownTypes(
            GroupVersion.of("experimental", "v1alpha1"),
            dev.machinery.core.testapi.experimental.Pod.class)
        .addUnversionedTypes(META_V1, Status.class);
  }

  public static Scheme scheme() {
    return builder().build();
  }
}
