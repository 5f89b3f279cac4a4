package dev.machinery.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.FieldsV1;
import dev.machinery.core.typed.Atom;
import dev.machinery.core.typed.ListAtom;
import dev.machinery.core.typed.MapAtom;
import dev.machinery.core.typed.ScalarType;
import dev.machinery.core.typed.Schema;
import dev.machinery.core.typed.SchemaType;
import dev.machinery.core.typed.StructField;
import dev.machinery.core.typed.TypeRef;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The updater's main paths on a small Deployment-like schema, written by hand. */
class UpdaterTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String V1 = "apps/v1";

  private static final SchemaType TYPE =
      Schema.builder()
          .type(
              "deployment",
              Atom.map(
                  MapAtom.struct(
                      StructField.of("metadata", TypeRef.named("meta")),
                      StructField.of("spec", TypeRef.named("spec")))))
          .type(
              "meta",
              Atom.map(
                  MapAtom.struct(
                      StructField.of("name", TypeRef.named("string")),
                      StructField.of(
                          "labels",
                          TypeRef.inline(Atom.map(MapAtom.of(TypeRef.named("string"))))))))
          .type(
              "spec",
              Atom.map(
                  MapAtom.struct(
                      StructField.of("replicas", TypeRef.named("int")),
                      StructField.of(
                          "containers",
                          TypeRef.inline(
                              Atom.list(ListAtom.map(TypeRef.named("container"), "name")))))))
          .type(
              "container",
              Atom.map(
                  MapAtom.struct(
                      StructField.of("name", TypeRef.named("string")),
                      StructField.of("image", TypeRef.named("string")))))
          .type("string", Atom.scalar(ScalarType.STRING))
          .type("int", Atom.scalar(ScalarType.NUMERIC))
          .build()
          .type("deployment");

  private static TypedValue value(String json) {
    try {
      return new TypedValue(TYPE, json.isEmpty() ? NullNode.getInstance() : JSON.readTree(json));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static JsonNode tree(String json) {
    return value(json).value();
  }

  @Test
  void applyCreatesAndOwnsWhatItApplied() {
    Updater.Result r =
        Updater.simple()
            .apply(value(""), value("{\"spec\":{\"replicas\":3}}"), V1, Map.of(), "kubectl", false);
    assertEquals(tree("{\"spec\":{\"replicas\":3}}"), r.object().value());
    assertEquals(
        "{\"f:spec\":{\"f:replicas\":{}}}", FieldsV1.toJson(r.managers().get("kubectl").set()));
    assertTrue(r.managers().get("kubectl").applied());
    assertTrue(r.changed());
  }

  @Test
  void anotherManagersChangeConflictsUnlessForced() {
    Updater u = Updater.simple();
    Updater.Result first =
        u.apply(value(""), value("{\"spec\":{\"replicas\":3}}"), V1, Map.of(), "a", false);
    ConflictException e =
        assertThrows(
            ConflictException.class,
            () ->
                u.apply(
                    first.object(),
                    value("{\"spec\":{\"replicas\":4}}"),
                    V1,
                    first.managers(),
                    "b",
                    false));
    assertEquals(1, e.conflicts().size());
    assertEquals("a", e.conflicts().get(0).manager());
    assertEquals(".spec.replicas", e.conflicts().get(0).path().toString());
    Updater.Result forced =
        u.apply(
            first.object(), value("{\"spec\":{\"replicas\":4}}"), V1, first.managers(), "b", true);
    assertEquals(tree("{\"spec\":{\"replicas\":4}}"), forced.object().value());
    assertFalse(forced.managers().containsKey("a"));
  }

  @Test
  void sameValueIsSharedWithoutConflict() {
    Updater u = Updater.simple();
    Updater.Result first =
        u.apply(value(""), value("{\"spec\":{\"replicas\":3}}"), V1, Map.of(), "a", false);
    Updater.Result second =
        u.apply(
            first.object(), value("{\"spec\":{\"replicas\":3}}"), V1, first.managers(), "b", false);
    assertFalse(second.changed());
    assertEquals(2, second.managers().size());
  }

  @Test
  void fieldsNoLongerAppliedAreRemovedUnlessOwnedElsewhere() {
    Updater u = Updater.simple();
    Updater.Result first =
        u.apply(
            value(""),
            value(
                "{\"metadata\":{\"labels\":{\"x\":\"1\",\"y\":\"2\"}},"
                    + "\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"i\"},"
                    + "{\"name\":\"b\",\"image\":\"j\"}]}}"),
            V1,
            Map.of(),
            "a",
            false);
    Updater.Result shared =
        u.apply(
            first.object(),
            value("{\"metadata\":{\"labels\":{\"y\":\"2\"}}}"),
            V1,
            first.managers(),
            "b",
            false);
    Updater.Result dropped =
        u.apply(
            shared.object(),
            value("{\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"i\"}]}}"),
            V1,
            shared.managers(),
            "a",
            false);
    assertEquals(
        tree(
            "{\"metadata\":{\"labels\":{\"y\":\"2\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"i\"}]}}"),
        dropped.object().value());
  }

  @Test
  void updateTakesChangedFieldsFromAppliers() {
    Updater u = Updater.simple();
    Updater.Result applied =
        u.apply(
            value(""),
            value("{\"spec\":{\"replicas\":3,\"containers\":[{\"name\":\"a\",\"image\":\"i\"}]}}"),
            V1,
            Map.of(),
            "a",
            false);
    Updater.Result updated =
        u.update(
            applied.object(),
            value("{\"spec\":{\"replicas\":5,\"containers\":[{\"name\":\"a\",\"image\":\"i\"}]}}"),
            V1,
            applied.managers(),
            "scaler");
    assertEquals(
        FieldSet.of(FieldPath.of("spec", "replicas")), updated.managers().get("scaler").set());
    assertFalse(updated.managers().get("a").set().has(FieldPath.of("spec", "replicas")));
    assertFalse(updated.managers().get("scaler").applied());
  }

  @Test
  void ignoredFieldsAreOwnedByNobody() {
    Updater u =
        new Updater(VersionConverter.identity(), Map.of(V1, FieldSet.of(FieldPath.of("spec"))));
    Updater.Result r =
        u.update(
            value(""),
            value("{\"metadata\":{\"name\":\"x\"},\"spec\":{\"replicas\":1}}"),
            V1,
            Map.of(),
            "m");
    assertEquals(
        "{\"f:metadata\":{\".\":{},\"f:name\":{}}}", FieldsV1.toJson(r.managers().get("m").set()));
  }
}
