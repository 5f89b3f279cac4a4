package dev.machinery.unversioned.meta.v1;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;

/**
 * Registers the {@code meta.k8s.io/v1} types into a {@link Scheme}, where Kubernetes binds them.
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class MetaV1 {
  /** {@code meta.k8s.io/v1}: Table, PartialObjectMetadata and the options. */
  public static final GroupVersion META_V1 = GroupVersion.of("meta.k8s.io", "v1");

  /**
   * The legacy core group's {@code v1}, where the unversioned types are registered, so that a
   * {@code Status} is written as {@code apiVersion: v1} as Kubernetes writes it.
   */
  public static final GroupVersion UNVERSIONED = GroupVersion.of("", "v1");

  /** {@code autoscaling/v1}: the {@code Scale} subresource. */
  public static final GroupVersion AUTOSCALING_V1 = GroupVersion.of("autoscaling", "v1");

  private MetaV1() {}

  /**
   * Registers every shared type: the unversioned {@code Status}, {@code APIVersions}, {@code
   * APIGroupList}, {@code APIGroup} and {@code APIResourceList} (valid in every registered group
   * version, written as {@code v1}); {@code Table}, {@code PartialObjectMetadata}, {@code
   * PartialObjectMetadataList} and the options in {@code meta.k8s.io/v1}; {@code Scale} in {@code
   * autoscaling/v1} and, as the generic form the alternate-representations proposal asks for, in
   * {@code meta.k8s.io/v1}; and the deep-copy functions of every type of this package.
   *
   * @param builder the scheme builder
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    return addToGroupVersion(
        builder
            .addUnversionedTypes(
                UNVERSIONED,
                Status.class,
                APIVersions.class,
                APIGroupList.class,
                APIGroup.class,
                APIResourceList.class)
            .addSharedTypes(
                META_V1, Table.class, PartialObjectMetadata.class, PartialObjectMetadataList.class)
            .addSharedTypes(AUTOSCALING_V1, Scale.class)
            .addSharedTypes(META_V1, Scale.class)
            .addConversions(new GeneratedDeepCopy()),
        META_V1);
  }

  /**
   * Binds the option kinds ({@code ListOptions}, {@code GetOptions}, {@code DeleteOptions}, {@code
   * CreateOptions}, {@code UpdateOptions}, {@code PatchOptions}) into a group version, as
   * Kubernetes' {@code AddToGroupVersion} does for every API group.
   *
   * @param builder the scheme builder
   * @param version the group version
   * @return the builder
   */
  public static Scheme.Builder addToGroupVersion(Scheme.Builder builder, GroupVersion version) {
    return builder.addSharedTypes(
        version,
        ListOptions.class,
        GetOptions.class,
        DeleteOptions.class,
        CreateOptions.class,
        UpdateOptions.class,
        PatchOptions.class);
  }
}
