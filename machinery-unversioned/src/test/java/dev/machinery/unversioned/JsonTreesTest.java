package dev.machinery.unversioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lenient tree reads: absent, null and wrongly typed values all read as absent. */
class JsonTreesTest {
  private static final String POD =
      "{\"metadata\":{\"name\":\"web\",\"labels\":null,\"generation\":3},"
          + "\"spec\":{\"containers\":[{\"name\":\"a\"},\"x\",null,{\"name\":\"b\"}],"
          + "\"activeDeadlineSeconds\":30.7,\"hostname\":7,\"priority\":\"high\"}}";

  private static Map<String, Object> pod() throws Exception {
    return new ObjectMapper().readValue(POD, new TypeReference<>() {});
  }

  @Test
  void readsAValueOfTheTypeAskedAndNothingElse() throws Exception {
    Map<String, Object> pod = pod();
    assertEquals("web", JsonTrees.string(pod, "", "metadata", "name"));
    assertEquals("none", JsonTrees.string(pod, "none", "spec", "hostname"), "a number");
    assertEquals("none", JsonTrees.string(pod, "none", "metadata", "name", "deeper"));
    assertEquals("none", JsonTrees.string(null, "none", "metadata"));
    assertEquals(30, JsonTrees.number(pod, -1, "spec", "activeDeadlineSeconds"), "truncated");
    assertEquals(-1, JsonTrees.number(pod, -1, "spec", "priority"), "a string");
    assertEquals(3, JsonTrees.number(pod, -1, "metadata", "generation"));
    assertNull(JsonTrees.map(pod, "metadata", "labels"), "null");
    assertNull(JsonTrees.map(pod, "metadata", "name"), "a string");
    assertNull(JsonTrees.get(pod, "status", "phase"));
    assertSame(pod.get("spec"), JsonTrees.map(pod, "spec"), "live");
  }

  @Test
  void mapsAreTheObjectsOfAListLeavingOutWhatIsNoObject() throws Exception {
    Map<String, Object> pod = pod();
    List<Map<String, Object>> containers = JsonTrees.maps(pod, "spec", "containers");
    assertEquals(List.of(Map.of("name", "a"), Map.of("name", "b")), containers);
    assertEquals(List.of(), JsonTrees.maps(pod, "spec", "volumes"));
    assertEquals(List.of(), JsonTrees.maps(pod, "metadata", "name"));
  }

  @Test
  void childMakesTheObjectsOnItsWayAndFillSetsOnlyWhatIsAbsent() throws Exception {
    Map<String, Object> pod = pod();
    Map<String, Object> labels = JsonTrees.child(pod, "metadata", "labels");
    JsonTrees.fill(labels, "app", "web");
    JsonTrees.fill(labels, "app", "other");
    assertEquals(Map.of("app", "web"), JsonTrees.map(pod, "metadata", "labels"));
    // A string where an object belongs is replaced.
    JsonTrees.child(pod, "spec", "priority", "of");
    assertEquals(Map.of("of", Map.of()), JsonTrees.map(pod, "spec", "priority"));
    Map<String, Object> empty = new LinkedHashMap<>();
    empty.put("a", null);
    JsonTrees.fill(empty, "a", 1);
    assertEquals(Map.of("a", 1), empty, "null is filled");
  }

  @Test
  void deepCopySharesNoMapOrList() throws Exception {
    Map<String, Object> pod = pod();
    @SuppressWarnings("unchecked")
    Map<String, Object> copy = (Map<String, Object>) JsonTrees.deepCopy(pod);
    assertEquals(pod, copy);
    assertNotSame(pod.get("spec"), copy.get("spec"));
    JsonTrees.child(copy, "spec").put("hostname", "changed");
    assertEquals(7, JsonTrees.number(pod, -1, "spec", "hostname"));
    assertNotSame(
        JsonTrees.get(pod, "spec", "containers"), JsonTrees.get(copy, "spec", "containers"));
  }
}
