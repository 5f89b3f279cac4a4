package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.discovery.v2.DiscoveryV2;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.testapi.gadget.internal.Gadget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 11, item 1: the library's own {@code ObjectMeta} (and every shared type) can be held by a
 * kind with generated conversions, and is deep-copied, not shared, by the generated code.
 */
class SharedTypesInGeneratedCodeTest {
  private static final GroupVersion V1 = GroupVersion.of("gadgets.example.dev", "v1");

  private static Scheme scheme() {
    return MetaV1.addToScheme(Scheme.builder())
        .addKnownTypes(V1, dev.machinery.unversioned.testapi.gadget.v1.Gadget.class)
        .addInternalTypes("gadgets.example.dev", Gadget.class)
        .addConversions(
            new dev.machinery.unversioned.testapi.gadget.v1.GeneratedConversions(),
            new dev.machinery.unversioned.testapi.gadget.v1.GeneratedDeepCopy(),
            new dev.machinery.unversioned.testapi.gadget.internal.GeneratedDeepCopy())
        .build();
  }

  @Test
  void convertsAKindHoldingObjectMetaAndCopiesIt() {
    Scheme scheme = scheme();
    String json =
        "{\"apiVersion\":\"gadgets.example.dev/v1\",\"kind\":\"Gadget\","
            + "\"metadata\":{\"name\":\"g\",\"labels\":{\"a\":\"b\"},"
            + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"p\","
            + "\"uid\":\"u\"}],\"managedFields\":[{\"manager\":\"kubectl\","
            + "\"fieldsV1\":{\"f:metadata\":{}}}]},"
            + "\"settings\":{\"depth\":{\"n\":[1,2]}}}";
    CodecFactory codecs = CodecFactory.create(scheme);
    dev.machinery.unversioned.testapi.gadget.v1.Gadget external =
        codecs
            .json()
            .decode(json, dev.machinery.unversioned.testapi.gadget.v1.Gadget.class)
            .object();
    Gadget internal = scheme.convert(external, Gadget.class);
    assertEquals("g", internal.getMetadata().getName());
    assertEquals(Map.of("a", "b"), internal.getMetadata().getLabels());
    assertNotSame(external.getMetadata(), internal.getMetadata());
    assertNotSame(external.getMetadata().getLabels(), internal.getMetadata().getLabels());
    assertNotSame(
        external.getMetadata().getManagedFields().get(0),
        internal.getMetadata().getManagedFields().get(0));
    assertEquals(
        external.getMetadata().getManagedFields(), internal.getMetadata().getManagedFields());
    assertNotSame(external.getSettings().get("depth"), internal.getSettings().get("depth"));

    String back = codecs.json().encodingTo(GroupVersioner.of(V1)).encodeToString(internal);
    // Kubernetes writes creationTimestamp always, null when unset.
    assertEquals(
        json.replace("\"name\":\"g\",", "\"name\":\"g\",\"creationTimestamp\":null,"), back);
  }

  @Test
  void requireInternalVersionsCombinesWithTheSharedRegistrationsIssue11() {
    Scheme scheme =
        DiscoveryV2.addToScheme(MetaV1.addToGroupVersion(MetaV1.addToScheme(Scheme.builder()), V1))
            .addKnownTypes(V1, dev.machinery.unversioned.testapi.gadget.v1.Gadget.class)
            .addInternalTypes("gadgets.example.dev", Gadget.class)
            .addConversions(
                new dev.machinery.unversioned.testapi.gadget.v1.GeneratedConversions(),
                new dev.machinery.unversioned.testapi.gadget.v1.GeneratedDeepCopy(),
                new dev.machinery.unversioned.testapi.gadget.internal.GeneratedDeepCopy())
            .requireInternalVersions()
            .build();
    assertEquals(
        Gadget.class,
        scheme
            .typeFor(GroupVersion.internal("gadgets.example.dev").withKind("Gadget"))
            .orElseThrow());
  }

  @Test
  void theSharedTypesCarryDeepCopyFunctionsInTheScheme() {
    ObjectMeta meta = new ObjectMeta();
    meta.setName("n");
    meta.setFinalizers(new java.util.ArrayList<>(List.of("f")));
    ObjectMeta copy = scheme().converter().deepCopy(meta);
    assertEquals(meta, copy);
    assertNotSame(meta.getFinalizers(), copy.getFinalizers());
  }
}
