package dev.machinery.apiserver.registry.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The kind a webhook is called with in another version of the resource ({@code matchPolicy:
 * Equivalent}), as kube-apiserver's equivalent resource registry gives it: the resource's kind in
 * that version, or for the scale subresource {@code autoscaling/v1 Scale} in every version.
 */
class WebhookRequestTest {
  private static WebhookAdmission.Request request(GroupVersionKind kind, String subresource) {
    return new WebhookAdmission.Request(
        Operation.UPDATE,
        kind,
        GroupVersion.of("example.com", "v2"),
        "gadgets",
        subresource,
        "default",
        "g",
        new UserInfo("u", "", List.of(), Map.of()),
        false,
        null,
        null,
        List.of("v1", "v2"),
        (tree, to) -> tree,
        w -> {},
        (k, v) -> {});
  }

  @Test
  void theResourcesKindFollowsTheVersion() {
    WebhookAdmission.Request gadget =
        request(GroupVersionKind.of("example.com", "v2", "Gadget"), "");
    assertEquals(GroupVersionKind.of("example.com", "v1", "Gadget"), gadget.kindIn("v1"));
  }

  @Test
  void theScalesKindIsTheSameInEveryVersion() {
    WebhookAdmission.Request scale =
        request(GroupVersionKind.of("autoscaling", "v1", "Scale"), "scale");
    assertEquals(GroupVersionKind.of("autoscaling", "v1", "Scale"), scale.kindIn("v1"));
    assertEquals("example.com", scale.groupVersion().group());
  }

  @Test
  void theOlderConstructorTakesTheResourcesVersionFromTheKind() {
    WebhookAdmission.Request old =
        new WebhookAdmission.Request(
            Operation.CREATE,
            GroupVersionKind.of("apps", "v1", "Deployment"),
            "deployments",
            null,
            "default",
            "d",
            new UserInfo("u", "", List.of(), Map.of()),
            false,
            null,
            null,
            List.of("v1"),
            (tree, to) -> tree,
            w -> {},
            (k, v) -> {});
    assertEquals(GroupVersion.of("apps", "v1"), old.groupVersion());
    assertEquals("", old.subresource());
    assertThrows(NullPointerException.class, () -> request(null, ""));
  }
}
