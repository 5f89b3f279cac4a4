package dev.machinery.api;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes' serialization fixtures (machinery-test-fixtures) and the OpenAPI document the models
 * are generated from, as bytes and JSON trees.
 */
final class Fixtures {
  static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.USE_LONG_FOR_INTS).build();

  private Fixtures() {}

  static byte[] bytes(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/k8s-api-testdata/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no fixture " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> tree(byte[] json) {
    try {
      return JSON.readValue(json, Map.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] bytes(Map<String, Object> tree) {
    try {
      return JSON.writeValueAsBytes(tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The names of the v1.33.0 fixtures, such as {@code apps.v1.Deployment}. */
  static List<String> v133() {
    return new String(bytes("v1.33.0/index.txt"), StandardCharsets.UTF_8)
        .lines()
        .filter(l -> !l.isBlank())
        .toList();
  }

  /** {@code apps.v1.Deployment} → apps/v1 Deployment; {@code core} is the core group. */
  static GroupVersionKind kind(String name) {
    String kind = name.substring(name.lastIndexOf('.') + 1);
    String rest = name.substring(0, name.lastIndexOf('.'));
    String version = rest.substring(rest.lastIndexOf('.') + 1);
    String group = rest.substring(0, rest.lastIndexOf('.'));
    return GroupVersionKind.of(group.equals("core") ? "" : group, version, kind);
  }

  /** The OpenAPI document's definitions (the build's input, read from the module's sources). */
  @SuppressWarnings("unchecked")
  static Map<String, Map<String, Object>> definitions() {
    try {
      Map<String, Object> document =
          JSON.readValue(
              Files.readAllBytes(
                  Path.of(
                      "../machinery-builtins/src/main/resources/dev/machinery/builtins/kube-api/v1.33/swagger.json")),
              Map.class);
      return (Map<String, Map<String, Object>>) document.get("definitions");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every {@code x-kubernetes-group-version-kind} of the document, in document order. */
  @SuppressWarnings("unchecked")
  static Set<GroupVersionKind> documentKinds() {
    Set<GroupVersionKind> out = new LinkedHashSet<>();
    for (Map<String, Object> definition : definitions().values()) {
      Object gvks = definition.get("x-kubernetes-group-version-kind");
      if (gvks != null) {
        for (Map<String, String> gvk : (List<Map<String, String>>) gvks) {
          out.add(GroupVersionKind.of(gvk.get("group"), gvk.get("version"), gvk.get("kind")));
        }
      }
    }
    return out;
  }

  /** The fixtures whose kind the OpenAPI document names: the built-in kinds of 1.33. */
  static List<String> builtIn() {
    Set<GroupVersionKind> kinds = documentKinds();
    List<String> out = new ArrayList<>();
    for (String name : v133()) {
      if (kinds.contains(kind(name))) {
        out.add(name);
      }
    }
    return out;
  }
}
