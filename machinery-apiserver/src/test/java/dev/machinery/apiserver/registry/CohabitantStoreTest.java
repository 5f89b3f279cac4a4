package dev.machinery.apiserver.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.Test;

/**
 * A resource kept under another's keys in the same stored kind (as kube-apiserver keeps {@code
 * events.k8s.io} Events with the core Events) shares that store's watch cache: one decoded copy of
 * each object, whichever store wrote it, and the cache stays its keeper's to close.
 */
class CohabitantStoreTest {
  private static final GroupVersionKind WIDGET = GroupVersionKind.of("example.dev", "v1", "Widget");
  private final Scheme scheme = MetaV1.addToScheme(Scheme.builder()).build();
  private final Codec json = CodecFactory.create(scheme).json();
  private final ResourceDefinition widgets =
      ResourceDefinition.builder(GroupKind.of("example.dev", "Widget"), true).build();
  private final ResourceDefinition gadgets =
      ResourceDefinition.builder(GroupKind.of("other.dev", "Widget"), true).build();
  private final ResourceStore keeper =
      new ResourceStore(
          widgets,
          WIDGET,
          ObjectModel.unstructured(widgets),
          json,
          new MemoryStorage(),
          100,
          AdmissionHook.NONE);
  private final ResourceStore cohabitant =
      keeper.cohabitant(gadgets, ObjectModel.unstructured(gadgets), AdmissionHook.NONE);

  private Unstructured widget(String name) {
    String text =
        "{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\""
            + name
            + "\",\"namespace\":\"ns\"},\"spec\":{\"size\":1}}";
    return json.decode(text.getBytes(StandardCharsets.UTF_8), Unstructured.class).object();
  }

  /** The names a list from the cache holds once it holds as many as expected (it may lag). */
  private static List<String> namesFromCache(ResourceStore store, int expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      List<String> names =
          store.list("ns", ResourceStore.EVERYTHING, 0, null, "0").items().stream()
              .map(o -> ((Unstructured) o).getName())
              .toList();
      if (names.size() >= expected || System.nanoTime() > deadline) {
        return names;
      }
      Thread.sleep(5);
    }
  }

  @Test
  void bothStoresReadOneCopyOfEachObject() throws InterruptedException {
    keeper.create(ResourceStore.LOOPBACK, widget("one"), false);
    cohabitant.create(ResourceStore.LOOPBACK, widget("two"), false);
    assertEquals(List.of("one", "two"), namesFromCache(keeper, 2));
    assertEquals(List.of("one", "two"), namesFromCache(cohabitant, 2));
    assertSame(keeper.getShared("ns", "one"), cohabitant.getShared("ns", "one"));
    assertSame(keeper.getShared("ns", "two"), cohabitant.getShared("ns", "two"));
    assertSame(
        keeper.list("ns", ResourceStore.EVERYTHING, 0, null, "0").items().get(0),
        cohabitant.list("ns", ResourceStore.EVERYTHING, 0, null, "0").items().get(0));
    // A store of its own decodes its own copy.
    ResourceStore apart =
        new ResourceStore(
            gadgets,
            WIDGET,
            ObjectModel.unstructured(gadgets),
            json,
            new MemoryStorage(),
            100,
            AdmissionHook.NONE);
    apart.create(ResourceStore.LOOPBACK, widget("one"), false);
    assertNotSame(keeper.getShared("ns", "one"), apart.getShared("ns", "one"));
  }

  @Test
  void theCacheIsItsKeepersToClose() throws InterruptedException {
    keeper.create(ResourceStore.LOOPBACK, widget("one"), false);
    assertEquals(List.of("one"), namesFromCache(cohabitant, 1));
    cohabitant.close();
    keeper.create(ResourceStore.LOOPBACK, widget("two"), false);
    assertEquals(List.of("one", "two"), namesFromCache(keeper, 2));
    assertEquals(List.of("one", "two"), namesFromCache(cohabitant, 2));
    // Still one copy, kept by the cache (a closed cache would decode each read afresh).
    assertSame(keeper.getShared("ns", "two"), keeper.getShared("ns", "two"));
    assertSame(keeper.getShared("ns", "two"), cohabitant.getShared("ns", "two"));
  }

  @Test
  void aResourceIndexingWhatTheCacheDoesNotIsRefused() {
    ResourceDefinition indexed =
        ResourceDefinition.builder(GroupKind.of("other.dev", "Widget"), true)
            .fieldLabel("spec.size", o -> "1")
            .indexField("spec.size")
            .build();
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                keeper.cohabitant(indexed, ObjectModel.unstructured(indexed), AdmissionHook.NONE));
    assertTrue(refused.getMessage().contains("[spec.size]"), refused.getMessage());
  }

  /** A class of the stored kind other than the keeper's. */
  public static final class TypedWidget {
    private String apiVersion;
    private String kind;

    /** Required by the property model. */
    public TypedWidget() {}

    public String getApiVersion() {
      return apiVersion;
    }

    public void setApiVersion(String apiVersion) {
      this.apiVersion = apiVersion;
    }

    public String getKind() {
      return kind;
    }

    public void setKind(String kind) {
      this.kind = kind;
    }
  }

  @Test
  void aResourceHoldingTheStoredKindInAnotherClassIsRefused() {
    Scheme typed =
        MetaV1.addToScheme(Scheme.builder()).addKnownType(WIDGET, TypedWidget.class).build();
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                keeper.cohabitant(
                    gadgets,
                    ObjectModel.typed(typed, CodecFactory.create(typed).json()),
                    AdmissionHook.NONE));
    assertTrue(refused.getMessage().contains(TypedWidget.class.getName()), refused.getMessage());
  }
}
