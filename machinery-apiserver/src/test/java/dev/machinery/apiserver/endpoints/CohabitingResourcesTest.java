package dev.machinery.apiserver.endpoints;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.machinery.apiserver.negotiation.Negotiator;
import dev.machinery.apiserver.registry.AdmissionHook;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Resources registered under the same keys in the same stored kind ({@code events.k8s.io} Events,
 * stored as core Events under {@code events/}, as kube-apiserver stores them) share one watch
 * cache; resources of keys of their own keep their own.
 */
class CohabitingResourcesTest {
  private final Scheme scheme = MetaV1.addToScheme(Scheme.builder()).build();
  private final Codec json = CodecFactory.create(scheme).json();
  private final ResourceRegistry registry =
      new ResourceRegistry(
          scheme,
          Enablement.all(),
          json,
          new MemoryStorage(),
          null,
          100,
          AdmissionHook.NONE,
          Negotiator.builder(scheme));

  private ResourceStore store(String key) {
    return registry.served().get(key).store();
  }

  private Unstructured event(String name) {
    String text =
        "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\""
            + name
            + "\",\"namespace\":\"ns\"},\"reason\":\"Scheduled\"}";
    return json.decode(text.getBytes(StandardCharsets.UTF_8), Unstructured.class).object();
  }

  @Test
  void eventsOfBothGroupsShareOneCache() {
    GroupVersion core = GroupVersion.of("", "v1");
    registry.addUnstructured(
        ResourceDefinition.builder(GroupKind.of("", "Event"), true).build(), core, List.of(core));
    GroupVersion events = GroupVersion.of("events.k8s.io", "v1");
    registry.addUnstructured(
        ResourceDefinition.builder(GroupKind.of("events.k8s.io", "Event"), true).build(),
        core,
        List.of(events));
    ResourceStore coreEvents = store(ServedResources.key("", "v1", "events"));
    ResourceStore groupEvents = store(ServedResources.key("events.k8s.io", "v1", "events"));
    coreEvents.create(ResourceStore.LOOPBACK, event("scheduled"), false);
    assertSame(coreEvents.getShared("ns", "scheduled"), groupEvents.getShared("ns", "scheduled"));
    assertNotSame(coreEvents, groupEvents);
  }
}
