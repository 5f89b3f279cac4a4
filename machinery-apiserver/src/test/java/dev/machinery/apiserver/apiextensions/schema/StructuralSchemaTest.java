package dev.machinery.apiserver.apiextensions.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Pruning, defaulting, validation and the structural check, as tables. The pruning and defaulting
 * cases carry over the facts of Kubernetes' own tables (apiextensions-apiserver's {@code
 * pkg/apiserver/schema/pruning} and {@code defaulting} tests); the messages are kube-openapi's and
 * apiextensions' as kube-apiserver answers them.
 */
class StructuralSchemaTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JSONSchemaProps schema(String json) throws Exception {
    return JSON.readValue(json.replace('\'', '"'), JSONSchemaProps.class);
  }

  private static Object value(String json) throws Exception {
    return JSON.readValue(json.replace('\'', '"'), Object.class);
  }

  /** One pruning case: schema, value, the value after pruning, the paths pruned (sorted). */
  private record Prune(String name, String schema, String in, String out, List<String> pruned) {}

  @TestFactory
  Stream<DynamicTest> prunes() {
    return Stream.of(
            new Prune("scalar", "{}", "4", "4", List.of()),
            new Prune("scalar array", "{'items':{}}", "[1,2]", "[1,2]", List.of()),
            new Prune(
                "object array",
                "{'items':{'properties':{'a':{},'c':{}}}}",
                "[{'a':1},{'b':1},{'a':1,'b':2,'c':3}]",
                "[{'a':1},{},{'a':1,'c':3}]",
                List.of("[1].b", "[2].b")),
            new Prune(
                "object array object",
                "{'properties':{'array':{'items':{'properties':{'a':{},'c':{}}}},"
                    + "'specified':{'properties':{'a':{},'c':{}}}}}",
                "{'array':[{'a':1},{'b':1},{'a':1,'b':2,'c':3}],'unspecified':{'a':1},"
                    + "'specified':{'a':1,'b':2,'c':3}}",
                "{'array':[{'a':1},{},{'a':1,'c':3}],'specified':{'a':1,'c':3}}",
                List.of("array[1].b", "array[2].b", "specified.b", "unspecified")),
            new Prune(
                "nested x-kubernetes-preserve-unknown-fields",
                "{'type':'object','x-kubernetes-preserve-unknown-fields':true,'properties':{"
                    + "'pruning':{'type':'object','properties':{"
                    + "'preserving':{'type':'object','x-kubernetes-preserve-unknown-fields':true},"
                    + "'pruning':{'type':'object'}}},"
                    + "'preserving':{'type':'object','x-kubernetes-preserve-unknown-fields':true,"
                    + "'properties':{'pruning':{'type':'object'}}},"
                    + "'preservingAdditional':{'type':'object',"
                    + "'x-kubernetes-preserve-unknown-fields':true,'additionalProperties':{"
                    + "'type':'object','properties':{'specified':{'type':'object'}}}}}}",
                "{'unspecified':'bar','pruning':{'unspecified':'bar','apiVersion':'unknown',"
                    + "'pruning':{'unspecified':'bar'},'preserving':{'unspecified':'bar'}},"
                    + "'preserving':{'unspecified':'bar','pruning':{'unspecified':'bar'}},"
                    + "'preservingAdditional':{'foo':{'specified':{'unspecified':'bar'},"
                    + "'unspecified':'bar'}}}",
                "{'unspecified':'bar','pruning':{'pruning':{},'preserving':{'unspecified':'bar'}},"
                    + "'preserving':{'unspecified':'bar','pruning':{}},"
                    + "'preservingAdditional':{'foo':{'specified':{}}}}",
                List.of(
                    "preserving.pruning.unspecified",
                    "preservingAdditional.foo.specified.unspecified",
                    "preservingAdditional.foo.unspecified",
                    "pruning.apiVersion",
                    "pruning.pruning.unspecified",
                    "pruning.unspecified")),
            new Prune(
                "additionalProperties with a schema",
                "{'properties':{'a':{},'c':{'additionalProperties':{'type':'integer'}}}}",
                "{'a':1,'b':1,'c':{'a':1,'b':2,'c':{'a':1}}}",
                "{'a':1,'c':{'a':1,'b':2,'c':{}}}",
                List.of("b", "c.c.a")),
            new Prune(
                "additionalProperties false",
                "{'properties':{'a':{},'c':{'additionalProperties':false}}}",
                "{'a':1,'b':1,'c':{'a':1,'apiVersion':'unknown'}}",
                "{'a':1,'c':{}}",
                List.of("b", "c.a", "c.apiVersion")),
            new Prune(
                "x-kubernetes-embedded-resource keeps apiVersion, kind and metadata",
                "{'type':'object','properties':{"
                    + "'pruned':{'type':'object','x-kubernetes-embedded-resource':true,"
                    + "'properties':{'spec':{'type':'object'}}},"
                    + "'preserving':{'type':'object','x-kubernetes-embedded-resource':true,"
                    + "'x-kubernetes-preserve-unknown-fields':true}}}",
                "{'unspecified':'bar','pruned':{'apiVersion':'foo/v1','kind':'Foo',"
                    + "'unspecified':'bar','metadata':{'name':'instance','unspecified':'bar'},"
                    + "'spec':{'unspecified':'bar'}},'preserving':{'apiVersion':'foo/v1',"
                    + "'unspecified':'bar','spec':{'unspecified':'bar'}}}",
                "{'pruned':{'apiVersion':'foo/v1','kind':'Foo',"
                    + "'metadata':{'name':'instance','unspecified':'bar'},'spec':{}},"
                    + "'preserving':{'apiVersion':'foo/v1','unspecified':'bar',"
                    + "'spec':{'unspecified':'bar'}}}",
                List.of("pruned.spec.unspecified", "pruned.unspecified", "unspecified")))
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.name(),
                    () -> {
                      Object in = value(c.in());
                      List<String> pruned =
                          new ArrayList<>(StructuralSchema.of(schema(c.schema())).pruneValue(in));
                      pruned.sort(null);
                      assertEquals(value(c.out()), in);
                      assertEquals(c.pruned(), pruned);
                    }));
  }

  @Test
  void nonNullableNullsWithoutDefaultsAreDropped() throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, Object> object =
        (Map<String, Object>)
            value(
                "{'spec':{'a':null,'b':null,'c':null,'m':{'x':null},'l':[null],"
                    + "'t':{'metadata':{'creationTimestamp':null}}}}");
    StructuralSchema schema =
        StructuralSchema.of(
            schema(
                "{'type':'object','properties':{'spec':{'type':'object','properties':{"
                    + "'a':{'type':'string'},"
                    + "'b':{'type':'string','nullable':true},"
                    + "'c':{'type':'string','default':'x'},"
                    + "'m':{'type':'object','additionalProperties':{'type':'string'}},"
                    + "'l':{'type':'array','items':{'type':'string'}},"
                    + "'t':{'type':'object','properties':{'metadata':{'type':'object','properties':"
                    + "{'creationTimestamp':{'type':'string'}}}}}}}}}"));
    schema.applyDefaults(object);
    schema.pruneNonNullableNulls(object);
    assertEquals(
        value("{'spec':{'b':null,'c':'x','m':{},'l':[null],'t':{'metadata':{}}}}"), object);
  }

  @Test
  void aResourceKeepsItsApiVersionKindAndMetadataAtTheRoot() throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, Object> object =
        (Map<String, Object>)
            value(
                "{'apiVersion':'foo/v1','kind':'Foo','metadata':{'name':'x','unspecified':1},"
                    + "'unspecified':'bar','spec':{'a':1,'b':2}}");
    List<String> pruned =
        StructuralSchema.of(
                schema(
                    "{'type':'object','properties':{'spec':{'type':'object','properties':{'a':{'type':'integer'}}}}}"))
            .prune(object);
    assertEquals(List.of("unspecified", "spec.b"), pruned);
    assertEquals(
        value(
            "{'apiVersion':'foo/v1','kind':'Foo','metadata':{'name':'x','unspecified':1},'spec':{'a':1}}"),
        object);
  }

  /** One defaulting case. */
  private record Default(String name, String schema, String in, String out) {}

  @TestFactory
  Stream<DynamicTest> defaults() {
    return Stream.of(
            new Default("scalar", "{'default':'foo'}", "4", "4"),
            new Default("scalar array", "{'items':{'default':'foo'}}", "[1,2]", "[1,2]"),
            new Default(
                "object array",
                "{'items':{'properties':{'a':{'default':'A'},'b':{'default':'B'},'c':{'default':'C'}}}}",
                "[{'a':1},{'b':1},{'c':1}]",
                "[{'a':1,'b':'B','c':'C'},{'a':'A','b':1,'c':'C'},{'a':'A','b':'B','c':1}]"),
            new Default(
                "object array object",
                "{'properties':{'array':{'items':{'properties':{'a':{'default':'A'},"
                    + "'b':{'default':'B'}}}},'object':{'properties':{'a':{'default':'N'},"
                    + "'b':{'default':'O'}}},'additionalProperties':{'additionalProperties':{"
                    + "'properties':{'a':{'default':'alpha'},'b':{'default':'beta'}}}},"
                    + "'foo':{'default':'bar'}}}",
                "{'array':[{'a':1},{'b':2}],'object':{'a':1},"
                    + "'additionalProperties':{'x':{'a':1},'y':{'b':2}}}",
                "{'array':[{'a':1,'b':'B'},{'a':'A','b':2}],'object':{'a':1,'b':'O'},"
                    + "'additionalProperties':{'x':{'a':1,'b':'beta'},'y':{'a':'alpha','b':2}},"
                    + "'foo':'bar'}"),
            new Default(
                "empty and null",
                "{'items':{'properties':{'a':{'default':'A'}}}}",
                "[{},{'a':1},{'a':0},{'a':0.0},{'a':''},{'a':null},{'a':[]},{'a':{}}]",
                "[{'a':'A'},{'a':1},{'a':0},{'a':0.0},{'a':''},{'a':'A'},{'a':[]},{'a':{}}]"),
            new Default(
                "null in nullable list",
                "{'nullable':true,'items':{'properties':{'a':{'default':'A'}}}}",
                "[null]",
                "[null]"),
            new Default(
                "null in non-nullable list", "{'items':{'default':'A'}}", "[null]", "['A']"),
            new Default(
                "null in nullable object",
                "{'properties':{'a':{'nullable':true,'default':'A'}}}",
                "{'a':null}",
                "{'a':null}"),
            new Default(
                "null in non-nullable object",
                "{'properties':{'a':{'default':'A'}}}",
                "{'a':null}",
                "{'a':'A'}"),
            new Default(
                "null in nullable object with additionalProperties",
                "{'additionalProperties':{'nullable':true,'default':'A'}}",
                "{'a':null}",
                "{'a':null}"),
            new Default(
                "null in non-nullable object with additionalProperties",
                "{'additionalProperties':{'default':'A'}}",
                "{'a':null}",
                "{'a':'A'}"),
            new Default(
                "null unknown field", "{'additionalProperties':true}", "{'a':null}", "{'a':null}"))
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.name(),
                    () -> {
                      Object in = value(c.in());
                      StructuralSchema.of(schema(c.schema())).applyDefaultsTo(in);
                      assertEquals(value(c.out()), in);
                    }));
  }

  /** One validation case: the errors, in kube-apiserver's words, for the field {@code spec.a}. */
  private record Invalid(String name, String schema, String value, List<String> errors) {}

  @TestFactory
  Stream<DynamicTest> validates() {
    return Stream.of(
            new Invalid("valid", "{'type':'integer'}", "1", List.of()),
            new Invalid(
                "type",
                "{'type':'integer'}",
                "'x'",
                List.of(
                    "spec.a: Invalid value: \"string\": spec.a in body must be of type integer:"
                        + " \"string\"")),
            new Invalid("integral number is an integer", "{'type':'integer'}", "2.0", List.of()),
            new Invalid(
                "null where not nullable",
                "{'type':'string'}",
                "null",
                List.of(
                    "spec.a: Invalid value: \"null\": spec.a in body must be of type string:"
                        + " \"null\"")),
            new Invalid(
                "null where nullable", "{'type':'string','nullable':true}", "null", List.of()),
            new Invalid(
                "enum",
                "{'type':'string','enum':['red','green']}",
                "'blue'",
                List.of(
                    "spec.a: Unsupported value: \"blue\": supported values: \"red\", \"green\"")),
            new Invalid(
                "pattern",
                "{'type':'string','pattern':'^[0-9]+$'}",
                "'x1'",
                List.of("spec.a: Invalid value: \"x1\": spec.a in body should match '^[0-9]+$'")),
            new Invalid(
                "minimum",
                "{'type':'integer','minimum':1}",
                "0",
                List.of(
                    "spec.a: Invalid value: 0: spec.a in body should be greater than or equal to"
                        + " 1")),
            new Invalid(
                "exclusive maximum",
                "{'type':'number','maximum':10,'exclusiveMaximum':true}",
                "10",
                List.of("spec.a: Invalid value: 10: spec.a in body should be less than 10")),
            new Invalid(
                "multipleOf",
                "{'type':'integer','multipleOf':5}",
                "7",
                List.of("spec.a: Invalid value: 7: spec.a in body should be a multiple of 5")),
            new Invalid(
                "maxLength, in characters",
                "{'type':'string','maxLength':3}",
                "'abcd'",
                List.of("spec.a: Too long: may not be more than 3 bytes")),
            new Invalid(
                "maxLength counts characters, not bytes",
                "{'type':'string','maxLength':3}",
                "'äöü'",
                List.of()),
            new Invalid(
                "minLength",
                "{'type':'string','minLength':2}",
                "'x'",
                List.of(
                    "spec.a: Invalid value: \"x\": spec.a in body should be at least 2 chars long")),
            new Invalid(
                "maxItems",
                "{'type':'array','items':{'type':'integer'},'maxItems':2}",
                "[1,2,3]",
                List.of("spec.a: Too many: 3: must have at most 2 items")),
            new Invalid(
                "minItems",
                "{'type':'array','items':{'type':'integer'},'minItems':1}",
                "[]",
                List.of("spec.a: Invalid value: 0: spec.a in body should have at least 1 items")),
            new Invalid(
                "item type, with its index",
                "{'type':'array','items':{'type':'integer'}}",
                "[1,'x']",
                List.of(
                    "spec.a[1]: Invalid value: \"string\": spec.a[1] in body must be of type"
                        + " integer: \"string\"")),
            new Invalid(
                "required",
                "{'type':'object','required':['b'],'properties':{'b':{'type':'string'}}}",
                "{}",
                List.of("spec.a.b: Required value")),
            new Invalid(
                "additionalProperties, each entry a field",
                "{'type':'object','additionalProperties':{'type':'string'}}",
                "{'k':1}",
                List.of(
                    "spec.a.k: Invalid value: \"integer\": spec.a.k in body must be of type string:"
                        + " \"integer\"")),
            new Invalid(
                "x-kubernetes-int-or-string",
                "{'x-kubernetes-int-or-string':true}",
                "true",
                List.of(
                    "spec.a: Invalid value: \"boolean\": spec.a in body must be of type"
                        + " integer,string: \"boolean\"")),
            new Invalid(
                "x-kubernetes-int-or-string, a string",
                "{'x-kubernetes-int-or-string':true}",
                "'25%'",
                List.of()),
            new Invalid(
                "list-type set",
                "{'type':'array','items':{'type':'string'},'x-kubernetes-list-type':'set'}",
                "['x','y','x']",
                List.of("spec.a[2]: Duplicate value: \"x\"")),
            new Invalid(
                "list-type map",
                "{'type':'array','x-kubernetes-list-type':'map','x-kubernetes-list-map-keys':['name'],"
                    + "'items':{'type':'object','properties':{'name':{'type':'string'},"
                    + "'v':{'type':'integer'}}}}",
                "[{'name':'x','v':1},{'name':'x','v':2}]",
                List.of("spec.a[1]: Duplicate value: {\"name\":\"x\"}")),
            new Invalid(
                "date-time format",
                "{'type':'string','format':'date-time'}",
                "'yesterday'",
                List.of(
                    "spec.a: Invalid value: \"yesterday\": spec.a in body must be of type"
                        + " date-time: \"yesterday\"")),
            new Invalid(
                "anyOf",
                "{'type':'string','anyOf':[{'format':'ipv4'},{'pattern':'^h'}]}",
                "'x'",
                List.of(
                    "spec.a: Invalid value: \"x\": spec.a in body must validate at least one"
                        + " schema (anyOf)")),
            new Invalid(
                "oneOf, two valid",
                "{'type':'integer','oneOf':[{'minimum':1},{'maximum':5}]}",
                "3",
                List.of(
                    "spec.a: Invalid value: 3: spec.a in body must validate one and only one"
                        + " schema (oneOf)")),
            new Invalid(
                "not",
                "{'type':'string','not':{'enum':['x']}}",
                "'x'",
                List.of(
                    "spec.a: Invalid value: \"x\": spec.a in body must not validate the schema (not)")),
            new Invalid(
                "allOf, every problem",
                "{'type':'integer','allOf':[{'minimum':5},{'multipleOf':2}]}",
                "3",
                List.of(
                    "spec.a: Invalid value: 3: spec.a in body should be greater than or equal to 5",
                    "spec.a: Invalid value: 3: spec.a in body should be a multiple of 2")))
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.name(),
                    () -> {
                      JSONSchemaProps root =
                          schema(
                              "{'type':'object','properties':{'spec':{'type':'object',"
                                  + "'properties':{'a':"
                                  + c.schema()
                                  + "}}}}");
                      @SuppressWarnings("unchecked")
                      Map<String, Object> object =
                          (Map<String, Object>) value("{'spec':{'a':" + c.value() + "}}");
                      List<String> errors = new ArrayList<>();
                      StructuralSchema.of(root)
                          .validate(object)
                          .forEach(e -> errors.add(e.toString()));
                      assertEquals(c.errors(), errors);
                    }));
  }

  /** One structural-schema case: the schema, and the problems with their paths. */
  private record Structural(String name, String schema, List<String> errors) {}

  @TestFactory
  Stream<DynamicTest> checksStructure() {
    return Stream.of(
            new Structural(
                "structural",
                "{'type':'object','properties':{'a':{'type':'array','items':{'type':'string'}},"
                    + "'b':{'x-kubernetes-int-or-string':true},"
                    + "'c':{'x-kubernetes-preserve-unknown-fields':true},"
                    + "'d':{'type':'string','anyOf':[{'format':'ipv4'},{'format':'ipv6'}]}}}",
                List.of()),
            new Structural(
                "int-or-string as controller-gen writes it",
                "{'type':'object','properties':{'port':{'x-kubernetes-int-or-string':true,"
                    + "'anyOf':[{'type':'integer'},{'type':'string'}]},"
                    + "'quantity':{'x-kubernetes-int-or-string':true,'pattern':'^[0-9]+$',"
                    + "'anyOf':[{'type':'integer'},{'type':'string'}]}}}",
                List.of()),
            new Structural(
                "root without type",
                "{'properties':{}}",
                List.of("s.type: Required value: must not be empty at the root")),
            new Structural(
                "root not an object",
                "{'type':'string'}",
                List.of("s.type: Invalid value: \"string\": must be object at the root")),
            new Structural(
                "field without type",
                "{'type':'object','properties':{'a':{}}}",
                List.of(
                    "s.properties[a].type: Required value: must not be empty for specified object"
                        + " fields")),
            new Structural(
                "array without items",
                "{'type':'object','properties':{'a':{'type':'array'}}}",
                List.of("s.properties[a].items: Required value: must be specified")),
            new Structural(
                "items without type",
                "{'type':'object','properties':{'a':{'type':'array','items':{}}}}",
                List.of(
                    "s.properties[a].items.type: Required value: must not be empty for specified"
                        + " array items")),
            new Structural(
                "type inside a value validation",
                "{'type':'object','properties':{'a':{'type':'string','anyOf':[{'type':'string'}]}}}",
                List.of(
                    "s.properties[a].anyOf[0].type: Forbidden: must be empty to be structural")),
            new Structural(
                "properties and additionalProperties",
                "{'type':'object','properties':{'a':{'type':'object','properties':{'b':{'type':'string'}},"
                    + "'additionalProperties':{'type':'string'}}}}",
                List.of(
                    "s.properties[a].additionalProperties: Forbidden: additionalProperties and"
                        + " properties are mutual exclusive")),
            new Structural(
                "int-or-string with a type",
                "{'type':'object','properties':{'a':{'type':'string','x-kubernetes-int-or-string':true}}}",
                List.of(
                    "s.properties[a].type: Invalid value: \"string\": must be empty if"
                        + " x-kubernetes-int-or-string is true")),
            new Structural(
                "a default that its schema refuses",
                "{'type':'object','properties':{'a':{'type':'integer','default':'x'}}}",
                List.of(
                    "s.properties[a].default: Invalid value: \"x\": default: Invalid value:"
                        + " \"string\": default in body must be of type integer: \"string\"")))
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.name(),
                    () -> {
                      List<String> errors = new ArrayList<>();
                      for (FieldError error :
                          StructuralSchemas.check(schema(c.schema()), FieldPath.of("s"))) {
                        errors.add(error.toString());
                      }
                      assertEquals(c.errors(), errors);
                    }));
  }
}
