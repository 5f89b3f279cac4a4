package dev.machinery.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.machinery.core.fieldpath.FieldPath;
import dev.machinery.core.fieldpath.FieldSet;
import dev.machinery.core.fieldpath.FieldsV1;
import dev.machinery.core.fieldpath.PathElement;
import dev.machinery.core.typed.Schema;
import dev.machinery.core.typed.SchemaType;
import dev.machinery.core.typed.SmdSchemas;
import dev.machinery.core.typed.TypedException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays structured-merge-diff's merge test tables, kept as data under {@code merge/smd/}, through
 * {@link Updater}: each case's operations run in order on one live object and one set of managers,
 * as SMD's test fixture runs them, and the object (in the expected version), the managers (fields,
 * version, whether applied) and the conflicts of refused applies are checked as the tables say.
 *
 * <p>A table file holds its {@code source} and {@code note}, its {@code schemas} by name and its
 * {@code cases}. A schema is YAML text in SMD's form ({@code schema}, or a file, {@code
 * schemaFile}) with a {@code rootType}; without a root type its types are named by API version, or
 * as {@code versionTypes} maps versions to names; without text it is the deduced type. A case has
 * its {@code schema}, its {@code ops} ({@code apply} with the {@code conflicts} it expects, {@code
 * forceApply}, {@code update}, {@code extractApply}, each with {@code manager}, {@code apiVersion}
 * and {@code object} or {@code objectFile}; {@code changeSchema} to another schema; {@code
 * acceptVersions} for the {@code specificVersions} converter), the expected {@code object} (or
 * {@code objectFile}) in {@code objectVersion}, the expected {@code managed} fields by manager
 * ({@code apiVersion}, {@code applied} and {@code paths}, or a FieldsV1 {@code fieldsFile}) and,
 * optionally, a {@code converter} (see {@link SmdConverters}), {@code ignoredFields} by version, an
 * {@code initialObject}, {@code expectError} (an operation must refuse an object that does not fit
 * its type) and {@code disabled} (with the reason). Paths are lists of elements in their FieldsV1
 * form ({@code f:name}, {@code k:{...}}, {@code v:value}, {@code i:0}).
 */
class SmdMergeTablesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static final List<String> FILES =
      List.of(
          "leaf.json",
          "set.json",
          "nested.json",
          "key.json",
          "multiple_appliers.json",
          "deduced.json",
          "default_keys.json",
          "duplicates.json",
          "extract_apply.json",
          "field_level_overrides.json",
          "ignore.json",
          "preserve_unknown.json",
          "schema_change.json",
          "obsolete_versions.json",
          "real.json");

  static JsonNode load(String file) {
    try (InputStream in = SmdMergeTablesTest.class.getResourceAsStream("/merge/smd/" + file)) {
      if (in == null) {
        throw new IllegalArgumentException("no table " + file);
      }
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final Map<String, Object> FILES_READ = new ConcurrentHashMap<>();

  /** A value read from a file, read once (not under the map's lock: reads nest). */
  private static Object cached(String key, Supplier<Object> read) {
    Object value = FILES_READ.get(key);
    if (value == null) {
      value = read.get();
      FILES_READ.putIfAbsent(key, value);
    }
    return value;
  }

  /** A file next to the tables, as text, read once. */
  static String text(String file) {
    return (String)
        cached(
            "text:" + file,
            () -> {
              try (InputStream in =
                  SmdMergeTablesTest.class.getResourceAsStream("/merge/smd/" + file)) {
                if (in == null) {
                  throw new IllegalArgumentException("no file " + file);
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
  }

  /** An object of a table: given in place, or in the YAML file its {@code objectFile} names. */
  static JsonNode object(JsonNode holder, String field) {
    if (holder.has(field + "File")) {
      String file = holder.get(field + "File").asText();
      return (JsonNode) cached("yaml:" + file, () -> SmdSchemas.yaml(text(file)));
    }
    return holder.path(field);
  }

  @TestFactory
  Stream<DynamicNode> tables() {
    return FILES.stream()
        .map(
            file -> {
              JsonNode table = load(file);
              List<DynamicNode> tests = new ArrayList<>();
              for (JsonNode c : table.path("cases")) {
                tests.add(
                    DynamicTest.dynamicTest(
                        c.path("name").asText(),
                        () -> {
                          if (c.has("disabled")) {
                            Assumptions.abort(c.path("disabled").asText());
                          }
                          try {
                            run(table, c);
                          } catch (AssertionError | RuntimeException e) {
                            throw new AssertionError(
                                file + " " + c.path("name").asText() + ": " + e.getMessage(), e);
                          }
                        }));
              }
              return DynamicContainer.dynamicContainer(file, tests);
            });
  }

  /** Every table has cases, and every case checks something after its operations. */
  @Test
  void tablesAreWellFormed() {
    int ops = 0;
    for (String file : FILES) {
      JsonNode table = load(file);
      assertTrue(table.path("source").asText().contains("structured-merge-diff"), file);
      assertFalse(table.path("cases").isEmpty(), file);
      Set<String> names = new HashSet<>();
      for (JsonNode c : table.path("cases")) {
        assertTrue(names.add(c.path("name").asText()), "duplicate case " + c.path("name"));
        assertTrue(
            c.has("object")
                || c.has("objectFile")
                || c.has("managed")
                || c.path("expectError").asBoolean()
                || hasConflicts(c),
            "case checks nothing: " + c.path("name"));
        ops += c.path("ops").size();
      }
    }
    assertTrue(ops >= 300, "operations: " + ops);
  }

  private static boolean hasConflicts(JsonNode c) {
    for (JsonNode op : c.path("ops")) {
      if (op.has("conflicts")) {
        return true;
      }
    }
    return false;
  }

  /** The live object, the managers and the schema as the operations leave them. */
  private static final class State {
    TypedValue live;
    Map<String, VersionedSet> managers = new TreeMap<>();
    Schema schema;
    String rootType;
    JsonNode versionTypes;
    JsonNode initial = NullNode.getInstance();

    /** The API version a value's type is the type of. */
    String versionOf(TypedValue value) {
      String name = value.type().ref().name();
      for (var e : versionTypes.properties()) {
        if (e.getValue().asText().equals(name)) {
          return e.getKey();
        }
      }
      return name;
    }
  }

  static void run(JsonNode table, JsonNode c) {
    State state = new State();
    if (c.has("initialObject")) {
      state.initial = c.get("initialObject");
    }
    useSchema(state, table, c.path("schema").asText());
    Set<String> accepted = new HashSet<>();
    VersionConverter converter =
        SmdConverters.named(
            c.path("converter").asText("identity"),
            v -> typeOf(state, v),
            state::versionOf,
            accepted);
    Map<String, FieldSet> ignored = new TreeMap<>();
    c.path("ignoredFields").properties().forEach(e -> ignored.put(e.getKey(), set(e.getValue())));
    Updater updater = new Updater(converter, ignored);
    boolean expectError = c.path("expectError").asBoolean();
    int i = 0;
    for (JsonNode op : c.path("ops")) {
      String where = "operation " + i++ + " (" + op.path("op").asText() + ")";
      try {
        step(state, table, updater, converter, accepted, op, where);
      } catch (RuntimeException e) {
        if (expectError && e instanceof TypedException) {
          return;
        }
        throw new AssertionError(where + " failed: " + e, e);
      }
    }
    if (expectError) {
      fail("an operation should have failed");
    }
    JsonNode expected = object(c, "object");
    if (!expected.isMissingNode() && !expected.isNull()) {
      String version = c.path("objectVersion").asText();
      TypedValue live = state.live == null ? typeOf(state, version) : state.live;
      TypedValue at = converter.convert(live, version).orElseThrow();
      assertJsonEquals(expected, at.value(), "object");
    }
    if (c.has("managed")) {
      assertManagers(c.get("managed"), state.managers);
    }
    state.managers.forEach(
        (m, s) -> assertFalse(s.set().isEmpty(), "manager with an empty set: " + m));
  }

  private static void step(
      State state,
      JsonNode table,
      Updater updater,
      VersionConverter converter,
      Set<String> accepted,
      JsonNode op,
      String where) {
    String kind = op.path("op").asText();
    if (kind.equals("changeSchema")) {
      String type = state.live.type().ref().name();
      useSchema(state, table, op.path("schema").asText());
      SchemaType retyped = state.schema.type(type);
      retyped.validate(state.live.value());
      state.live = new TypedValue(retyped, state.live.value());
      return;
    }
    if (kind.equals("acceptVersions")) {
      accepted.clear();
      op.path("versions").forEach(v -> accepted.add(v.asText()));
      return;
    }
    String version = op.path("apiVersion").asText();
    String manager = op.path("manager").asText();
    boolean first = state.live == null;
    if (first) {
      state.live = typeOf(state, version).with(state.initial);
    }
    state.live =
        converter
            .convert(state.live, version)
            .orElseThrow(() -> new IllegalStateException("no version " + version));
    TypedValue object = typeOf(state, version).with(object(op, "object"));
    Updater.Result result;
    switch (kind) {
      case "update" -> {
        object.type().validate(object.value(), true);
        result = updater.update(state.live, object, version, state.managers, manager);
      }
      case "forceApply" -> {
        object.type().validate(object.value());
        result = updater.apply(state.live, object, version, state.managers, manager, true);
      }
      case "extractApply" -> {
        object.type().validate(object.value());
        TypedValue config = object;
        if (!first) {
          VersionedSet owned = state.managers.get(manager);
          FieldSet leaves = FieldSet.empty();
          if (owned != null) {
            assertEquals(version, owned.apiVersion(), where + ": extract across versions");
            leaves = owned.set().leaves();
          }
          SchemaType type = state.live.type();
          JsonNode extracted = type.extractItems(state.live.value(), leaves);
          config = state.live.with(type.merge(extracted, object.value()));
        }
        result = updater.apply(state.live, config, version, state.managers, manager, true);
      }
      case "apply" -> {
        object.type().validate(object.value());
        if (op.has("conflicts") && !op.get("conflicts").isEmpty()) {
          ConflictException e =
              assertThrows(
                  ConflictException.class,
                  () -> updater.apply(state.live, object, version, state.managers, manager, false),
                  where + " should conflict");
          assertConflicts(op.get("conflicts"), e.conflicts(), where);
          return;
        }
        result = updater.apply(state.live, object, version, state.managers, manager, false);
      }
      default -> throw new IllegalArgumentException("unknown operation " + kind);
    }
    state.live = result.object();
    state.managers = new TreeMap<>(result.managers());
  }

  private static void useSchema(State state, JsonNode table, String name) {
    JsonNode s = table.path("schemas").path(name);
    if (s.isMissingNode()) {
      throw new IllegalArgumentException("no schema " + name);
    }
    if (s.has("schemaFile")) {
      String file = s.get("schemaFile").asText();
      state.schema = (Schema) cached("schema:" + file, () -> SmdSchemas.parse(text(file)));
    } else {
      state.schema = s.path("schema").isNull() ? null : SmdSchemas.parse(s.path("schema").asText());
    }
    state.rootType = s.path("rootType").isNull() ? null : s.path("rootType").asText();
    state.versionTypes = s.path("versionTypes");
  }

  /** An empty value of the type the table's parser gives a version. */
  private static TypedValue typeOf(State state, String version) {
    SchemaType type =
        state.schema == null
            ? SchemaType.DEDUCED
            : state.schema.type(
                state.rootType != null
                    ? state.rootType
                    : state.versionTypes.path(version).asText(version));
    return new TypedValue(type, NullNode.getInstance());
  }

  static FieldSet set(JsonNode paths) {
    List<FieldPath> all = new ArrayList<>();
    for (JsonNode path : paths) {
      all.add(path(path));
    }
    return FieldSet.of(all);
  }

  static FieldPath path(JsonNode path) {
    List<PathElement> elements = new ArrayList<>();
    path.forEach(element -> elements.add(PathElement.parse(element.asText())));
    return new FieldPath(elements);
  }

  private static void assertConflicts(JsonNode expected, List<Conflict> actual, String where) {
    Map<String, FieldSet> want = new TreeMap<>();
    for (JsonNode c : expected) {
      want.merge(c.path("manager").asText(), FieldSet.of(path(c.path("path"))), FieldSet::union);
    }
    Map<String, FieldSet> got = new TreeMap<>();
    for (Conflict c : actual) {
      got.merge(c.manager(), FieldSet.of(c.path()), FieldSet::union);
    }
    assertEquals(want, got, where + ": conflicts");
  }

  private static void assertManagers(JsonNode expected, Map<String, VersionedSet> actual) {
    Set<String> names = new TreeSet<>(actual.keySet());
    expected.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      JsonNode want = expected.get(name);
      VersionedSet got = actual.get(name);
      if (want == null || got == null) {
        fail(
            "manager "
                + name
                + (want == null ? " not expected, has " + got : " expected, missing; has ")
                + (want == null ? "" : actual));
      }
      assertEquals(want.path("apiVersion").asText(), got.apiVersion(), name + ": version");
      FieldSet fields =
          want.has("fieldsFile")
              ? FieldsV1.parse(text(want.get("fieldsFile").asText()))
              : set(want.path("paths"));
      assertEquals(fields, got.set(), name + ": fields");
      assertEquals(want.path("applied").asBoolean(), got.applied(), name + ": applied");
    }
  }

  private static final Comparator<JsonNode> NUMBERS_BY_VALUE =
      (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
          return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
      };

  private static void assertJsonEquals(JsonNode expected, JsonNode actual, String what) {
    if (!expected.equals(NUMBERS_BY_VALUE, actual)) {
      assertEquals(expected.toString(), actual.toString(), what);
    }
  }
}
