package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceList;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import org.junit.jupiter.api.Test;

/** The builder's own checks name what was wrong. */
class ApiServerBuilderTest {
  private static final Scheme SCHEME = MetaV1.addToScheme(Scheme.builder()).build();

  @Test
  void aNegativeWatchCacheSizeIsRefused() {
    assertEquals(
        "the watch cache size must not be negative, got -1",
        assertThrows(
                IllegalArgumentException.class, () -> ApiServer.builder(SCHEME).watchCacheSize(-1))
            .getMessage());
    ApiServer.builder(SCHEME).watchCacheSize(0);
  }

  private static final GroupKind WIDGET = GroupKind.of("example.dev", "Widget");
  private static final GroupVersion V1 = GroupVersion.of("example.dev", "v1");

  private static String refusal(Scheme scheme, ResourceDefinition definition) {
    return assertThrows(
            IllegalArgumentException.class,
            () -> ApiServer.builder(scheme).addResource(definition).build())
        .getMessage();
  }

  @Test
  void aResourceWhoseKindTheSchemeLacksIsRefusedByName() {
    assertEquals(
        "the Scheme registers Widget.example.dev in no version of its group",
        refusal(SCHEME, ResourceDefinition.builder(WIDGET, true).build()));
  }

  @Test
  void aStorageVersionTheSchemeLacksIsRefusedByName() {
    Scheme.Builder scheme = MetaV1.addToScheme(Scheme.builder());
    scheme.addKnownType(V1.withKind("Widget"), Unstructured.class);
    ResourceList.addToScheme(scheme, "Widget", V1);
    assertEquals(
        "the storage version of Widget.example.dev is example.dev/v2, where the Scheme does not"
            + " register it",
        refusal(
            scheme.build(),
            ResourceDefinition.builder(WIDGET, true)
                .storageVersion(GroupVersion.of("example.dev", "v2"))
                .build()));
  }

  @Test
  void aServedVersionWithoutItsListKindIsRefusedSayingHowToRegisterIt() {
    Scheme.Builder scheme = MetaV1.addToScheme(Scheme.builder());
    scheme.addKnownType(V1.withKind("Widget"), Unstructured.class);
    assertEquals(
        "the Scheme does not register example.dev/v1, Kind=WidgetList; register the list kinds"
            + " with ResourceList.addToScheme(builder, \"Widget\", versions...)",
        refusal(scheme.build(), ResourceDefinition.builder(WIDGET, true).build()));
  }
}
