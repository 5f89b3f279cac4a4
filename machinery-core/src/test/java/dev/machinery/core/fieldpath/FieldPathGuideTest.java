package dev.machinery.core.fieldpath;

import static dev.machinery.core.fieldpath.PathElement.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The example of docs/fieldpath.md. */
class FieldPathGuideTest {
  @Test
  void twoManagersOfADeployment() {
    FieldSet kubectl =
        FieldsV1.parse(
            "{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},"
                + "\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"nginx\\\"}\":"
                + "{\".\":{},\"f:image\":{}}}}}");
    FieldPath image = FieldPath.of("spec", "containers", key("name", "nginx"), "image");
    assertTrue(kubectl.has(image));
    assertEquals(".spec.containers[name=\"nginx\"].image", image.toString());

    FieldSet controller = FieldSet.of(image, FieldPath.of("status", "replicas"));
    FieldSet conflicts = kubectl.intersection(controller);
    assertEquals(FieldSet.of(image), conflicts);

    FieldSet kept = kubectl.difference(controller);
    assertEquals(
        "{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},"
            + "\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{}}}}",
        FieldsV1.toJson(kept));
  }
}
