package dev.machinery.core.testapi.frobber;

import dev.machinery.core.runtime.FieldLabel;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.frobber.v6.FrobberConversions;
import dev.machinery.core.testapi.meta.Status;
import java.util.Optional;

/** The Frobber API of api-changes.md as a scheme: v6 (stable, preferred), v7beta1, internal. */
public final class FrobberApi {
  public static final String GROUP = "example.dev";
  public static final GroupVersion V6 = GroupVersion.of(GROUP, "v6");
  public static final GroupVersion V7BETA1 = GroupVersion.of(GROUP, "v7beta1");

  private FrobberApi() {}

  public static Scheme.Builder builder() {
    return Scheme.builder()
        .addKnownTypes(V6, dev.machinery.core.testapi.frobber.v6.Frobber.class)
        .addKnownTypes(V7BETA1, dev.machinery.core.testapi.frobber.v7beta1.Frobber.class)
        .addInternalTypes(GROUP, dev.machinery.core.testapi.frobber.internal.Frobber.class)
        .addUnversionedTypes(TestApi.META_V1, Status.class)
        .setVersionPriority(V6, V7BETA1)
        .addDefaultingFunction(
            dev.machinery.core.testapi.frobber.v6.Frobber.class, FrobberConversions::setDefaults)
        .addConversions(
            new dev.machinery.core.testapi.frobber.v6.GeneratedConversions(),
            new dev.machinery.core.testapi.frobber.v6.GeneratedDeepCopy(),
            new dev.machinery.core.testapi.frobber.v7beta1.GeneratedConversions(),
            new dev.machinery.core.testapi.frobber.v7beta1.GeneratedDeepCopy(),
            new dev.machinery.core.testapi.frobber.internal.GeneratedDeepCopy())
        .addFieldLabelConversion(
            V6.withKind("Frobber"),
            (label, value) -> {
              switch (label) {
                case "metadata.name":
                  return Optional.of(new FieldLabel(label, value));
                case "height":
                case "heightInInches":
                  return Optional.of(new FieldLabel("height", value));
                default:
                  return Optional.empty();
              }
            })
        .requireInternalVersions();
  }

  public static Scheme scheme() {
    return builder().build();
  }
}
