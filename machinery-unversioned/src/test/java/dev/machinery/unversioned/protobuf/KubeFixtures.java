package dev.machinery.unversioned.protobuf;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Kubernetes' serialization fixtures (machinery-test-fixtures) as bytes and JSON trees. */
final class KubeFixtures {
  static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.USE_LONG_FOR_INTS).build();

  private KubeFixtures() {}

  static byte[] bytes(String name) {
    try (InputStream in = KubeFixtures.class.getResourceAsStream("/k8s-api-testdata/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no fixture " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> tree(String name) {
    try {
      return JSON.readValue(bytes(name), Map.class);
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
}
