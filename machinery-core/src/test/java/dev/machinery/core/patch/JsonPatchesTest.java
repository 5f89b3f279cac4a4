package dev.machinery.core.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The examples of RFC 7386 (appendix A) and RFC 6902 (appendix A), Kubernetes' three-way merge
 * patch rules, a seeded property, and the limits.
 */
class JsonPatchesTest {
  private static JsonNode json(String text) {
    return Patches.readTree(text.replace('\'', '"').getBytes(StandardCharsets.UTF_8), "test");
  }

  /**
   * A patch document is read under the codecs' limits, the field name's and the tokens' included
   * (once only its size, depth, strings and numbers were).
   */
  @Test
  void aPatchIsReadUnderEveryLimitOfTheCodecs() {
    String longName = "n".repeat(dev.machinery.core.codec.CodecLimits.DEFAULTS.maxNameLength() + 1);
    PatchException name = assertThrows(PatchException.class, () -> json("{'" + longName + "':1}"));
    assertTrue(name.getMessage().contains("Name length"), name.getMessage());
    StringBuilder many = new StringBuilder("[");
    for (int i = 0; i < 1_000_001; i++) {
      many.append(i == 0 ? "" : ",").append('0');
    }
    PatchException tokens =
        assertThrows(PatchException.class, () -> json(many.append(']').toString()));
    assertTrue(tokens.getMessage().contains("Token count"), tokens.getMessage());
    assertEquals(
        dev.machinery.core.codec.CodecLimits.DEFAULTS.maxNameLength(),
        json("{'" + longName.substring(1) + "':1}").fieldNames().next().length());
  }

  @Test
  void mergePatchAsRfc7386() {
    String[][] rows = {
      {"{'a':'b'}", "{'a':'c'}", "{'a':'c'}"},
      {"{'a':'b'}", "{'b':'c'}", "{'a':'b','b':'c'}"},
      {"{'a':'b'}", "{'a':null}", "{}"},
      {"{'a':'b','b':'c'}", "{'a':null}", "{'b':'c'}"},
      {"{'a':['b']}", "{'a':'c'}", "{'a':'c'}"},
      {"{'a':'c'}", "{'a':['b']}", "{'a':['b']}"},
      {"{'a':{'b':'c'}}", "{'a':{'b':'d','c':null}}", "{'a':{'b':'d'}}"},
      {"{'a':[{'b':'c'}]}", "{'a':[1]}", "{'a':[1]}"},
      {"['a','b']", "['c','d']", "['c','d']"},
      {"{'a':'b'}", "['c']", "['c']"},
      {"{'a':'foo'}", "null", "null"},
      {"{'a':'foo'}", "'bar'", "'bar'"},
      {"{'e':null}", "{'a':1}", "{'e':null,'a':1}"},
      {"[1,2]", "{'a':'b','c':null}", "{'a':'b'}"},
      {"{}", "{'a':{'bb':{'ccc':null}}}", "{'a':{'bb':{}}}"},
    };
    for (String[] row : rows) {
      JsonNode target = json(row[0]);
      JsonNode before = target.deepCopy();
      assertEquals(
          json(row[2]), JsonMergePatch.apply(target, json(row[1])), row[0] + " + " + row[1]);
      assertEquals(before, target, "the target is not changed");
    }
  }

  @Test
  void jsonPatchAsRfc6902() {
    String[][] rows = {
      {"{'foo':'bar'}", "[{'op':'add','path':'/baz','value':'qux'}]", "{'foo':'bar','baz':'qux'}"},
      {
        "{'foo':['bar','baz']}",
        "[{'op':'add','path':'/foo/1','value':'qux'}]",
        "{'foo':['bar','qux','baz']}"
      },
      {"{'baz':'qux','foo':'bar'}", "[{'op':'remove','path':'/baz'}]", "{'foo':'bar'}"},
      {"{'foo':['bar','qux','baz']}", "[{'op':'remove','path':'/foo/1'}]", "{'foo':['bar','baz']}"},
      {
        "{'baz':'qux','foo':'bar'}",
        "[{'op':'replace','path':'/baz','value':'boo'}]",
        "{'baz':'boo','foo':'bar'}"
      },
      {
        "{'foo':{'bar':'baz','waldo':'fred'},'qux':{'corge':'grault'}}",
        "[{'op':'move','from':'/foo/waldo','path':'/qux/thud'}]",
        "{'foo':{'bar':'baz'},'qux':{'corge':'grault','thud':'fred'}}"
      },
      {
        "{'foo':['all','grass','cows','eat']}",
        "[{'op':'move','from':'/foo/1','path':'/foo/3'}]",
        "{'foo':['all','cows','eat','grass']}"
      },
      {
        "{'baz':'qux','foo':['a',2,'c']}",
        "[{'op':'test','path':'/baz','value':'qux'},{'op':'test','path':'/foo/1','value':2}]",
        "{'baz':'qux','foo':['a',2,'c']}"
      },
      {
        "{'foo':'bar'}",
        "[{'op':'add','path':'/child','value':{'grandchild':{}}}]",
        "{'foo':'bar','child':{'grandchild':{}}}"
      },
      {
        "{'foo':'bar'}",
        "[{'op':'add','path':'/baz','value':'qux','xyz':123}]",
        "{'foo':'bar','baz':'qux'}"
      },
      {"{'/':9,'~1':10}", "[{'op':'test','path':'/~01','value':10}]", "{'/':9,'~1':10}"},
      {
        "{'foo':['bar']}",
        "[{'op':'add','path':'/foo/-','value':['abc','def']}]",
        "{'foo':['bar',['abc','def']]}"
      },
      {"{'a':{'b':1}}", "[{'op':'copy','from':'/a','path':'/c'}]", "{'a':{'b':1},'c':{'b':1}}"},
      {"{'n':1}", "[{'op':'test','path':'/n','value':1.0}]", "{'n':1}"},
    };
    for (String[] row : rows) {
      assertEquals(json(row[2]), JsonPatch.apply(json(row[0]), json(row[1])), row[1]);
    }
  }

  @Test
  void theEmptyPointerIsTheWholeDocument() {
    String[][] rows = {
      {"{'foo':'bar'}", "[{'op':'replace','path':'','value':{'baz':'qux'}}]", "{'baz':'qux'}"},
      {"{'foo':'bar'}", "[{'op':'replace','path':'','value':[1]}]", "[1]"},
      {"'foo'", "[{'op':'replace','path':'','value':'bar'}]", "'bar'"},
      {"{'foo':'bar'}", "[{'op':'add','path':'','value':{'baz':'qux'}}]", "{'baz':'qux'}"},
      {"{'foo':1}", "[{'op':'test','path':'','value':{'foo':1.0}}]", "{'foo':1}"},
      {"{'a':{'b':1}}", "[{'op':'move','from':'/a','path':''}]", "{'b':1}"},
      {"{'a':{'b':1}}", "[{'op':'move','from':'','path':''}]", "{'a':{'b':1}}"},
      {"{'a':{'b':1}}", "[{'op':'copy','from':'/a','path':''}]", "{'b':1}"},
      {"{'a':1}", "[{'op':'copy','from':'','path':'/b'}]", "{'a':1,'b':{'a':1}}"},
      {"{'a':1}", "[{'op':'copy','from':'','path':''}]", "{'a':1}"},
    };
    for (String[] row : rows) {
      assertEquals(json(row[2]), JsonPatch.apply(json(row[0]), json(row[1])), row[1]);
    }
    String[][] errors = {
      {
        "{'a':1}",
        "[{'op':'remove','path':''}]",
        "operation 0 (remove \"\"): the whole document cannot be removed"
      },
      {
        "{'a':1}",
        "[{'op':'move','from':'','path':'/b'}]",
        "operation 0 (move /b): cannot move a value into one of its own children"
      },
      {
        "{'a':1}",
        "[{'op':'test','path':'','value':{'a':2}}]",
        "operation 0 (test \"\"): testing value \"\" failed: found {\"a\":1}"
      },
    };
    for (String[] row : errors) {
      PatchException e =
          assertThrows(PatchException.class, () -> JsonPatch.apply(json(row[0]), json(row[1])));
      assertEquals(PatchException.Kind.NOT_APPLICABLE, e.kind(), row[1]);
      assertEquals(row[2], e.getMessage());
    }
  }

  @Test
  void jsonPatchErrorsNameTheOperationAndPath() {
    PatchException test =
        assertThrows(
            PatchException.class,
            () ->
                JsonPatch.apply(
                    json("{'baz':'qux'}"), json("[{'op':'test','path':'/baz','value':'bar'}]")));
    assertEquals(PatchException.Kind.NOT_APPLICABLE, test.kind());
    assertEquals(422, test.statusCode());
    assertTrue(test.getMessage().startsWith("operation 0 (test /baz): "), test.getMessage());
    PatchException missing =
        assertThrows(
            PatchException.class,
            () ->
                JsonPatch.apply(
                    json("{'foo':'bar'}"),
                    json(
                        "[{'op':'test','path':'/foo','value':'bar'},{'op':'add','path':'/baz/bat','value':'qux'}]")));
    assertTrue(
        missing.getMessage().startsWith("operation 1 (add /baz/bat): path /baz/bat does not exist"),
        missing.getMessage());
    PatchException typed =
        assertThrows(
            PatchException.class,
            () ->
                JsonPatch.apply(
                    json("{'/':9,'~1':10}"), json("[{'op':'test','path':'/~01','value':'10'}]")));
    assertEquals(PatchException.Kind.NOT_APPLICABLE, typed.kind());
    PatchException duplicate =
        assertThrows(
            PatchException.class,
            () -> json("[{'op':'add','path':'/baz','value':'qux','op':'remove'}]"));
    assertEquals(400, duplicate.statusCode());
    assertEquals(
        PatchException.Kind.MALFORMED,
        assertThrows(
                PatchException.class,
                () -> JsonPatch.apply(json("{}"), json("[{'op':'jump','path':'/a'}]")))
            .kind());
    assertEquals(
        PatchException.Kind.MALFORMED,
        assertThrows(
                PatchException.class,
                () -> JsonPatch.apply(json("{}"), json("[{'op':'add','path':'a','value':1}]")))
            .kind());
    assertTrue(
        assertThrows(
                PatchException.class,
                () ->
                    JsonPatch.apply(
                        json("{'a':{}}"), json("[{'op':'move','from':'/a','path':'/a/b'}]")))
            .getMessage()
            .contains("its own children"));
  }

  @Test
  void limitsHoldAgainstHostilePatches() {
    ArrayNode many = JsonNodeFactory.instance.arrayNode();
    for (int i = 0; i <= 10_000; i++) {
      many.addObject()
          .put("op", "test")
          .put("path", "")
          .set("value", JsonNodeFactory.instance.objectNode());
    }
    PatchException tooMany =
        assertThrows(PatchException.class, () -> JsonPatch.apply(json("{}"), many));
    assertEquals(413, tooMany.statusCode());
    assertEquals(
        "The allowed maximum operations in a JSON patch is 10000, got 10001", tooMany.getMessage());
    // Each copy doubles the document: 40 of them would make 2^40 values.
    ArrayNode doubling = JsonNodeFactory.instance.arrayNode();
    for (int i = 0; i < 40; i++) {
      doubling
          .addObject()
          .put("op", "copy")
          .put("from", "/a")
          .put("path", "/a/" + (char) ('a' + (i % 26)) + i);
    }
    PatchException amplified =
        assertThrows(PatchException.class, () -> JsonPatch.apply(json("{'a':{'x':1}}"), doubling));
    assertEquals(PatchException.Kind.TOO_LARGE, amplified.kind());
  }

  @Test
  void threeWayMergePatchAsKubectlApplySendsIt() {
    // Last applied had replicas and a label; the new manifest drops the label and changes the
    // image; the live object has a field another actor set (status), which must stay.
    JsonNode original =
        json(
            "{'kind':'Widget','metadata':{'name':'w','labels':{'a':'1'}},'spec':{'replicas':2,'image':'v1'}}");
    JsonNode modified =
        json("{'kind':'Widget','metadata':{'name':'w'},'spec':{'replicas':2,'image':'v2'}}");
    JsonNode current =
        json(
            "{'kind':'Widget','metadata':{'name':'w','labels':{'a':'1'}},'spec':{'replicas':5,'image':'v1'},'status':{'ready':true}}");
    ObjectNode patch =
        JsonMergePatch.createThreeWay(
            original,
            modified,
            current,
            JsonMergePatch.requireKeyUnchanged("kind"),
            JsonMergePatch.requireMetadataKeyUnchanged("name"));
    assertEquals(json("{'metadata':{'labels':null},'spec':{'replicas':2,'image':'v2'}}"), patch);
    assertEquals(
        json(
            "{'kind':'Widget','metadata':{'name':'w'},'spec':{'replicas':2,'image':'v2'},'status':{'ready':true}}"),
        JsonMergePatch.apply(current, patch));
    PatchException renamed =
        assertThrows(
            PatchException.class,
            () ->
                JsonMergePatch.createThreeWay(
                    original,
                    json("{'kind':'Widget','metadata':{'name':'x'}}"),
                    current,
                    JsonMergePatch.requireMetadataKeyUnchanged("name")));
    assertEquals(PatchException.Kind.CONFLICT, renamed.kind());
    assertEquals(json("{}"), JsonMergePatch.createThreeWay(null, json("{'a':1}"), json("{'a':1}")));
  }

  @Test
  void seededPairsRoundTripThroughCreateAndApply() {
    Random random = new Random(20261123);
    List<String> failures = new ArrayList<>();
    for (int seed = 0; seed < 500; seed++) {
      JsonNode original = object(random, 0);
      JsonNode modified = mutate(original, random, 0);
      JsonNode patch = JsonMergePatch.create(original, modified);
      JsonNode applied = JsonMergePatch.apply(original, patch);
      if (!applied.equals(modified)) {
        failures.add(original + " → " + modified + " by " + patch + " gave " + applied);
      }
    }
    assertEquals(List.of(), failures);
  }

  /** A random object without nulls (a merge patch cannot set a field to null). */
  private static ObjectNode object(Random random, int depth) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    int fields = random.nextInt(4);
    for (int i = 0; i < fields; i++) {
      node.set("k" + random.nextInt(6), value(random, depth + 1));
    }
    return node;
  }

  private static JsonNode value(Random random, int depth) {
    switch (depth > 3 ? random.nextInt(3) : random.nextInt(5)) {
      case 0:
        return JsonNodeFactory.instance.numberNode(random.nextInt(5));
      case 1:
        return JsonNodeFactory.instance.textNode("s" + random.nextInt(3));
      case 2:
        return JsonNodeFactory.instance.booleanNode(random.nextBoolean());
      case 3:
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (int i = random.nextInt(3); i > 0; i--) {
          array.add(value(random, depth + 1));
        }
        return array;
      default:
        return object(random, depth);
    }
  }

  private static JsonNode mutate(JsonNode original, Random random, int depth) {
    ObjectNode copy = ((ObjectNode) original).deepCopy();
    List<String> names = new ArrayList<>();
    copy.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      int choice = random.nextInt(4);
      if (choice == 0) {
        copy.remove(name);
      } else if (choice == 1) {
        copy.set(name, value(random, depth + 1));
      } else if (choice == 2 && copy.get(name).isObject()) {
        copy.set(name, mutate(copy.get(name), random, depth + 1));
      }
    }
    if (random.nextBoolean()) {
      copy.set("n" + random.nextInt(3), value(random, depth + 1));
    }
    return copy;
  }
}
