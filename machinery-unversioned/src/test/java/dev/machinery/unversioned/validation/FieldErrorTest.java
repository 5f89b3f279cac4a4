package dev.machinery.unversioned.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kubernetes' texts of field errors and paths (field/errors.go, field/path.go). */
class FieldErrorTest {
  @Test
  void pathsAreWrittenAsKubernetesWritesThem() {
    assertEquals(
        "spec.containers[0].env[HOME]",
        FieldPath.of("spec").child("containers").index(0).child("env").key("HOME").toString());
    assertEquals("metadata.labels", FieldPath.of("metadata", "labels").toString());
  }

  @Test
  void bodiesShowTheValueByTypeAndTheDetail() {
    FieldPath path = FieldPath.of("spec", "replicas");
    assertEquals(
        "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
        FieldError.invalid(path, -1L, "must be greater than or equal to 0").toString());
    assertEquals(
        "Invalid value: \"a\\\"b\\n\": bad", FieldError.invalid(path, "a\"b\n", "bad").body());
    assertEquals("Required value", FieldError.required(path, "").body());
    assertEquals(
        "Required value: name or generateName is required",
        FieldError.required(path, "name or generateName is required").body());
    assertEquals(
        "Unsupported value: \"tcp\": supported values: \"TCP\", \"UDP\"",
        FieldError.notSupported(path, "tcp", List.of("TCP", "UDP")).body());
    assertEquals(
        "Forbidden: not allowed on this type",
        FieldError.forbidden(path, "not allowed on this type").body());
    assertEquals(
        "Too long: may not be more than 262144 bytes", FieldError.tooLong(path, 262144).body());
    assertEquals("Too many: 5: must have at most 3 items", FieldError.tooMany(path, 5, 3).body());
    assertEquals("Too many: must have at most 1 item", FieldError.tooMany(path, -1, 1).body());
    assertEquals(
        "Invalid value: {\"a\":1,\"b\":[true]}: x",
        FieldError.invalid(path, Map.of("b", List.of(true), "a", 1), "x").body());
    assertEquals("Duplicate value: \"x\"", FieldError.duplicate(path, "x").body());
    assertEquals("Not found: 3", FieldError.notFound(path, 3).body());
    assertEquals("Invalid value: 1.5: x", FieldError.invalid(path, 1.5, "x").body());
    assertEquals("Invalid value: true: x", FieldError.invalid(path, true, "x").body());
  }

  @Test
  void aListReadsAsKubernetesAggregates() {
    FieldError one = FieldError.required(FieldPath.of("a"), "");
    FieldError two = FieldError.required(FieldPath.of("b"), "");
    assertEquals("a: Required value", FieldError.aggregate(List.of(one)));
    assertEquals("a: Required value", FieldError.aggregate(List.of(one, one)));
    assertEquals(
        "[a: Required value, b: Required value]", FieldError.aggregate(List.of(one, two, one)));
    assertEquals("", FieldError.aggregate(List.of()));
  }
}
