package dev.machinery.apiserver.apiextensions.v1;

import dev.machinery.apiserver.registry.rest.ResourceList;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import java.util.Locale;

/** Registers {@code apiextensions.k8s.io/v1}. Stateless; thread-safe. */
public final class ApiextensionsV1 {
  /** The group version {@code apiextensions.k8s.io/v1}. */
  public static final GroupVersion APIEXTENSIONS_V1 = GroupVersion.of("apiextensions.k8s.io", "v1");

  private ApiextensionsV1() {}

  /**
   * Adds CustomResourceDefinition, its list kind and its defaults ({@link #setDefaults}) in {@code
   * apiextensions.k8s.io/v1}; the shared {@code meta.k8s.io/v1} types must be added too.
   *
   * @param builder the scheme builder
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    builder.addKnownTypes(APIEXTENSIONS_V1, CustomResourceDefinition.class);
    builder.addDefaultingFunction(CustomResourceDefinition.class, ApiextensionsV1::setDefaults);
    ResourceList.addToScheme(builder, "CustomResourceDefinition", APIEXTENSIONS_V1);
    return builder;
  }

  /**
   * Kubernetes' defaults of a CustomResourceDefinition: the singular is the lower-cased kind, the
   * list kind the kind followed by {@code List}, and the conversion strategy {@code None}.
   *
   * @param crd the definition, changed in place
   */
  public static void setDefaults(CustomResourceDefinition crd) {
    CustomResourceDefinitionSpec spec = crd.getSpec();
    if (spec == null) {
      return;
    }
    CustomResourceDefinitionNames names = spec.names();
    if (names != null && names.kind() != null && !names.kind().isEmpty()) {
      String singular =
          names.singular() == null || names.singular().isEmpty()
              ? names.kind().toLowerCase(Locale.ROOT)
              : names.singular();
      String listKind =
          names.listKind() == null || names.listKind().isEmpty()
              ? names.kind() + "List"
              : names.listKind();
      names =
          new CustomResourceDefinitionNames(
              names.plural(),
              singular,
              names.shortNames(),
              names.kind(),
              listKind,
              names.categories());
    }
    CustomResourceConversion conversion =
        spec.conversion() == null || spec.conversion().strategy() == null
            ? new CustomResourceConversion("None", null)
            : spec.conversion();
    crd.setSpec(
        new CustomResourceDefinitionSpec(
            spec.group(),
            names,
            spec.scope(),
            spec.versions(),
            conversion,
            spec.preserveUnknownFields()));
  }
}
