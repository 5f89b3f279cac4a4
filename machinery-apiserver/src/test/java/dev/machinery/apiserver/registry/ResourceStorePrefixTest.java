package dev.machinery.apiserver.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.registry.rest.ObjectModel;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import org.junit.jupiter.api.Test;

/** A store's key prefix is a folder of the storage: it must end in a slash. */
class ResourceStorePrefixTest {
  @Test
  void aKeyPrefixWithoutItsTrailingSlashIsRefusedByName() {
    ResourceDefinition definition =
        ResourceDefinition.builder(GroupKind.of("example.dev", "Widget"), true).build();
    Scheme scheme = MetaV1.addToScheme(Scheme.builder()).build();
    assertEquals(
        "the key prefix of widgets does not end in '/': example.dev/widgets",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new ResourceStore(
                        definition,
                        GroupVersionKind.of("example.dev", "v1", "Widget"),
                        ObjectModel.unstructured(definition),
                        CodecFactory.create(scheme).json(),
                        new MemoryStorage(),
                        0,
                        AdmissionHook.NONE,
                        "example.dev/widgets"))
            .getMessage());
  }
}
