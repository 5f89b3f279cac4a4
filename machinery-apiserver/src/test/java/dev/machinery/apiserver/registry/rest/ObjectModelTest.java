package dev.machinery.apiserver.registry.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.MissingKindException;
import dev.machinery.core.codec.MissingVersionException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.unstructured.UnstructuredList;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A status subresource goes through the storage class's status property, which it must have. */
/** The two object models: a typed resource's status property, and objects held without classes. */
class ObjectModelTest {
  private static final Scheme SCHEME = Scheme.builder().build();
  private static final ObjectModel TYPED =
      ObjectModel.typed(SCHEME, CodecFactory.create(SCHEME).json());

  /** A kind with a status. */
  public static final class WithStatus {
    private Map<String, String> status = Map.of("phase", "New");

    /** Required by the property model. */
    public WithStatus() {}

    public Map<String, String> getStatus() {
      return status;
    }

    public void setStatus(Map<String, String> status) {
      this.status = status;
    }
  }

  /** A kind whose new instances have a null status of a class of the model. */
  public static final class WithNullStatus {
    private Phase status;

    /** Required by the property model. */
    public WithNullStatus() {}

    public Phase getStatus() {
      return status;
    }

    public void setStatus(Phase status) {
      this.status = status;
    }
  }

  /** A kind whose new instances have a null status held as a map. */
  public static final class WithNullMapStatus {
    private Map<String, Object> status;

    /** Required by the property model. */
    public WithNullMapStatus() {}

    public Map<String, Object> getStatus() {
      return status;
    }

    public void setStatus(Map<String, Object> status) {
      this.status = status;
    }
  }

  /** A status class. */
  public static final class Phase {
    private String phase;

    /** Required by the property model. */
    public Phase() {}

    public String getPhase() {
      return phase;
    }

    public void setPhase(String phase) {
      this.phase = phase;
    }
  }

  /** A kind without one. */
  public static final class WithoutStatus {
    private String spec;

    /** Required by the property model. */
    public WithoutStatus() {}

    public String getSpec() {
      return spec;
    }

    public void setSpec(String spec) {
      this.spec = spec;
    }
  }

  @Test
  void readsWritesAndResetsTheStatus() {
    ObjectModel.StatusAccess field = TYPED.status(WithStatus.class);
    WithStatus object = new WithStatus();
    field.set(object, Map.of("phase", "Running"));
    assertEquals(Map.of("phase", "Running"), field.get(object));
    field.reset(object);
    assertEquals(Map.of("phase", "New"), field.get(object));
  }

  @Test
  void aCreatedObjectWhoseClassStartsWithoutAStatusGetsAnEmptyOne() {
    // kube-apiserver resets a created object's status to its Go zero value, written status: {}.
    WithNullStatus typed = new WithNullStatus();
    Phase running = new Phase();
    running.setPhase("Running");
    typed.setStatus(running);
    TYPED.status(WithNullStatus.class).reset(typed);
    assertNotNull(typed.getStatus());
    assertNull(typed.getStatus().getPhase());

    WithNullMapStatus map = new WithNullMapStatus();
    map.setStatus(Map.of("phase", "Running"));
    TYPED.status(WithNullMapStatus.class).reset(map);
    assertEquals(Map.of(), map.getStatus());
  }

  @Test
  void aClassWithoutAStatusPropertyIsRefusedByName() {
    assertEquals(
        "a status subresource needs a status property with a getter and a setter; "
            + WithoutStatus.class.getName()
            + " has none",
        assertThrows(IllegalArgumentException.class, () -> TYPED.status(WithoutStatus.class))
            .getMessage());
  }

  private static ObjectModel unstructured(UnstructuredConversion conversion) {
    return ObjectModel.unstructured(
        ResourceDefinition.builder(GroupKind.of("example.dev", "Widget"), true)
            .conversion(conversion)
            .build());
  }

  private static Unstructured widget(String apiVersion) {
    Unstructured widget = new Unstructured();
    widget.setApiVersion(apiVersion);
    widget.setKind("Widget");
    widget.setField("spec", new java.util.LinkedHashMap<>(Map.of("size", 3)));
    return widget;
  }

  @Test
  void anObjectHeldWithoutAClassKeepsItsStatusInItsContentAndStartsWithNone() {
    ObjectModel.StatusAccess status = unstructured(UnstructuredConversion.none()).status(null);
    Unstructured widget = widget("example.dev/v1");
    status.set(widget, Map.of("ready", true));
    assertEquals(Map.of("ready", true), widget.content().get("status"));
    assertEquals(Map.of("ready", true), status.get(widget));
    status.reset(widget);
    assertNull(widget.content().get("status"));
  }

  @Test
  void aSharedObjectIsCopiedToAnotherVersionAndAnOwnedOneConvertedInPlace() {
    ObjectModel model =
        unstructured(
            (content, to) -> {
              @SuppressWarnings("unchecked")
              Map<String, Object> spec = (Map<String, Object>) content.get("spec");
              spec.put("converted", to.toString());
            });
    GroupVersionKind v2 = GroupVersionKind.of("example.dev", "v2", "Widget");
    Unstructured shared = widget("example.dev/v1");
    Unstructured copy = (Unstructured) model.copyTo(shared, v2);
    assertEquals("example.dev/v2", copy.getApiVersion());
    assertEquals("example.dev/v2", ((Map<?, ?>) copy.content().get("spec")).get("converted"));
    assertEquals("example.dev/v1", shared.getApiVersion());
    assertNull(((Map<?, ?>) shared.content().get("spec")).get("converted"));

    Unstructured owned = widget("example.dev/v1");
    assertEquals(owned, model.convert(owned, v2));
    assertEquals("example.dev/v2", owned.getApiVersion());
    assertEquals(shared, model.copyTo(shared, GroupVersionKind.of("example.dev", "v1", "Widget")));
  }

  @Test
  void aFailedConversionIsAnInternalErrorNamingTheVersions() {
    ObjectModel model =
        unstructured(
            (content, to) -> {
              throw new IllegalStateException("no way");
            });
    StatusException thrown =
        assertThrows(
            StatusException.class,
            () ->
                model.copyTo(
                    widget("example.dev/v1"), GroupVersionKind.of("example.dev", "v2", "Widget")));
    assertEquals(500, thrown.status().getCode());
    assertEquals(
        "Internal error occurred: conversion of Widget from example.dev/v1 to example.dev/v2"
            + " failed: no way",
        thrown.status().getMessage());
  }

  @Test
  void anObjectHeldWithoutAClassMustNameItsVersionAndKindAndIsListedAsItsKindsList() {
    ObjectModel model = unstructured(UnstructuredConversion.none());
    GroupVersionKind endpoint = GroupVersionKind.of("example.dev", "v1", "Widget");
    Codec json = CodecFactory.create(SCHEME).json();
    assertThrows(
        MissingVersionException.class,
        () ->
            model.decode(json, "{\"kind\":\"Widget\"}".getBytes(StandardCharsets.UTF_8), endpoint));
    assertThrows(
        MissingKindException.class,
        () ->
            model.decode(
                json,
                "{\"apiVersion\":\"example.dev/v1\"}".getBytes(StandardCharsets.UTF_8),
                endpoint));
    Decoded<Object> decoded =
        model.decode(
            json,
            "{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Widget\"}"
                .getBytes(StandardCharsets.UTF_8),
            endpoint);
    assertEquals(endpoint, decoded.kind());
    ListMeta meta = new ListMeta();
    meta.setResourceVersion("7");
    UnstructuredList list =
        (UnstructuredList) model.list(endpoint, meta, List.of(decoded.object()));
    assertEquals("WidgetList", list.getKind());
    assertEquals("example.dev/v1", list.getApiVersion());
    assertEquals(Map.of("resourceVersion", "7"), list.getMetadata());
    assertEquals(1, list.getItems().size());
    meta.setContinue("next");
    meta.setRemainingItemCount(4L);
    assertEquals(
        List.of("resourceVersion", "continue", "remainingItemCount"),
        List.copyOf(
            ((UnstructuredList) model.list(endpoint, meta, List.of())).getMetadata().keySet()),
        "kube's order");
    assertEquals(
        4L,
        ((UnstructuredList) model.list(endpoint, meta, List.of()))
            .getMetadata()
            .get("remainingItemCount"));
    assertEquals(java.util.Optional.empty(), model.strategicMergeSchema(Unstructured.class));
  }
}
