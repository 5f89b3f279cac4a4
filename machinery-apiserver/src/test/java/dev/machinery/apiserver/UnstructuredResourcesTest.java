package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The refusals of the builder methods that declare resources held without classes. */
class UnstructuredResourcesTest {
  @Test
  void anUnknownVerbIsRefusedNamingTheVerbs() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ResourceDefinition.builder(GroupKind.of("", "Thing"), true).verbs(List.of("fly")));
    assertEquals(
        "unknown verb \"fly\"; the verbs are"
            + " [create, delete, deletecollection, get, list, patch, update, watch]",
        refused.getMessage());
    assertEquals(
        List.of("create", "get", "list"),
        ResourceDefinition.builder(GroupKind.of("", "Thing"), true)
            .verbs(List.of("list", "create", "get"))
            .build()
            .verbs(),
        "kept in discovery's order");
  }

  @Test
  void aResourceServedInNoVersionIsRefused() {
    ApiServer.Builder builder = ApiServer.builder(MetaV1.addToScheme(Scheme.builder()).build());
    ResourceDefinition things =
        ResourceDefinition.builder(GroupKind.of("x.dev", "Thing"), true).build();
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                builder.addUnstructuredResource(things, GroupVersion.of("x.dev", "v1"), List.of()));
    assertEquals("Thing.x.dev is served in no version", refused.getMessage());
  }
}
