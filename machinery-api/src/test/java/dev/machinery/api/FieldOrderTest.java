package dev.machinery.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The models write their properties in the order of the field numbers of Kubernetes'
 * generated.proto files, the nearest to Go's declaration order the build's inputs give (the OpenAPI
 * document sorts properties by name): Kubernetes' fixtures, written by Go, and their re-encoding
 * list every field in the same order for 49 of the 91 kinds; in the others a Go struct was
 * reordered or grew in the middle after its numbers were given (a ReplicaSet's {@code
 * minReadySeconds}, number 4, is declared before {@code selector}, number 2), which only Go's
 * sources would tell.
 */
class FieldOrderTest {
  @Test
  void fixturesReEncodeInGosFieldOrder() {
    List<String> differ = new ArrayList<>();
    for (String name : FixtureRoundTripTest.builtIn().toList()) {
      byte[] json = Fixtures.bytes("v1.33.0/" + name + ".json");
      Object object = FixtureRoundTripTest.JSON.decode(json).object();
      List<String> expected = new ArrayList<>();
      List<String> actual = new ArrayList<>();
      keys(Fixtures.tree(json), "", expected);
      keys(Fixtures.tree(FixtureRoundTripTest.JSON.encode(object)), "", actual);
      // The codecs write apiVersion before kind; Go's TypeMeta has kind first.
      expected.removeAll(List.of(".apiVersion", ".kind"));
      actual.removeAll(List.of(".apiVersion", ".kind"));
      if (!expected.equals(actual)) {
        int i = 0;
        while (i < expected.size() && i < actual.size() && expected.get(i).equals(actual.get(i))) {
          i++;
        }
        differ.add(
            name
                + " at "
                + (i < expected.size() ? expected.get(i) : "end")
                + " vs "
                + (i < actual.size() ? actual.get(i) : "end"));
      }
    }
    assertEquals(42, differ.size(), differ.toString());
    assertTrue(
        differ.contains("apps.v1.ReplicaSet at .spec.minReadySeconds vs .spec.selector"),
        differ.toString());
  }

  private static void keys(Object value, String path, List<String> out) {
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.add(path + "." + e.getKey());
        keys(e.getValue(), path + "." + e.getKey(), out);
      }
    } else if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        keys(list.get(i), path + "[" + i + "]", out);
      }
    }
  }
}
