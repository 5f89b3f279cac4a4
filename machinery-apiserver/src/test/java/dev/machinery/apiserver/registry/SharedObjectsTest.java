package dev.machinery.apiserver.registry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.registry.rest.ObjectModel;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The watch cache's copy of an object held without classes is shared by every reader and held
 * compactly: its JSON values frozen, equal to and encoded as the object decoded afresh.
 */
class SharedObjectsTest {
  private static final GroupVersionKind WIDGET = GroupVersionKind.of("example.dev", "v1", "Widget");
  private final Scheme scheme = MetaV1.addToScheme(Scheme.builder()).build();
  private final Codec json = CodecFactory.create(scheme).json();
  private final ResourceDefinition definition =
      ResourceDefinition.builder(GroupKind.of("example.dev", "Widget"), true).build();
  private final ResourceStore store =
      new ResourceStore(
          definition,
          WIDGET,
          ObjectModel.unstructured(definition),
          json,
          new MemoryStorage(),
          100,
          AdmissionHook.NONE);

  private Unstructured widget(String name) {
    String text =
        "{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\""
            + name
            + "\",\"namespace\":\"ns\",\"labels\":{\"b\":\"2\",\"a\":\"1\"},"
            + "\"managedFields\":[{\"manager\":\"m\",\"operation\":\"Update\",\"apiVersion\":"
            + "\"example.dev/v1\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:spec\":"
            + "{\"f:z\":{},\"f:a\":{}}}}]},"
            + "\"spec\":{\"z\":[1,null,{\"k\":\"v\"},[]],\"a\":{},\"n\":null,\"d\":1.5,\"t\":true}}";
    return json.decode(text.getBytes(StandardCharsets.UTF_8), Unstructured.class).object();
  }

  private List<Object> listedFromCache() {
    return store.list("ns", ResourceStore.EVERYTHING, 0, null, "0").items();
  }

  @Test
  void aSharedObjectEqualsAndEncodesAsTheObjectDecodedAfresh() {
    store.create(ResourceStore.LOOPBACK, widget("one"), false);
    Object shared = listedFromCache().get(0);
    Object fresh = store.get("ns", "one");
    assertEquals(fresh, shared);
    assertEquals(shared, fresh);
    assertEquals(fresh.hashCode(), shared.hashCode());
    assertArrayEquals(json.encode(fresh), json.encode(shared));
    assertSame(shared, store.getShared("ns", "one"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void aSharedObjectsValuesCannotBeChanged() {
    store.create(ResourceStore.LOOPBACK, widget("one"), false);
    Unstructured shared = (Unstructured) listedFromCache().get(0);
    Map<String, Object> spec = (Map<String, Object>) shared.content().get("spec");
    assertThrows(UnsupportedOperationException.class, () -> spec.put("x", "y"));
    List<Object> items = (List<Object>) spec.get("z");
    assertThrows(UnsupportedOperationException.class, () -> items.add("y"));
    assertEquals(Map.of("k", "v"), items.get(2));
    assertEquals(null, spec.get("n"));
    assertEquals(true, spec.containsKey("n"));
    assertEquals(List.of("z", "a", "n", "d", "t"), List.copyOf(spec.keySet()));
    // a change to one's own copy is fine
    Unstructured copy = shared.deepCopy();
    copy.setNested("y", "spec", "x");
    assertEquals("y", copy.nestedString("spec", "x").orElseThrow());
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyEmptyObjectOfTheSharedObjectsIsOneInstance() {
    store.create(ResourceStore.LOOPBACK, widget("one"), false);
    store.create(ResourceStore.LOOPBACK, widget("two"), false);
    List<Object> items = listedFromCache();
    Map<String, Object> a =
        (Map<String, Object>) ((Unstructured) items.get(0)).content().get("spec");
    Map<String, Object> b =
        (Map<String, Object>) ((Unstructured) items.get(1)).content().get("spec");
    assertSame(a.get("a"), b.get("a"));
    assertSame(((List<Object>) a.get("z")).get(3), ((List<Object>) b.get("z")).get(3));
  }

  @Test
  void anObjectReadForAnUpdateIsItsOwn() {
    store.create(ResourceStore.LOOPBACK, widget("one"), false);
    listedFromCache();
    Unstructured mine = (Unstructured) store.get("ns", "one");
    mine.setNested("changed", "spec", "a", "x");
    assertEquals("changed", mine.nestedString("spec", "a", "x").orElseThrow());
  }
}
