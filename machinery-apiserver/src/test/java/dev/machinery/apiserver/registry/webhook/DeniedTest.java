package dev.machinery.apiserver.registry.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.unversioned.meta.v1.Status;
import org.junit.jupiter.api.Test;

/**
 * A webhook's refusal as kube-apiserver answers it ({@code webhook/errors/statuserror.go}'s {@code
 * ToStatusErr}): the webhook's message or reason after {@code admission webhook "NAME" denied the
 * request}, no code below 400, never a status of Success.
 */
class DeniedTest {
  private static Status denied(String status) throws Exception {
    JsonNode node = Json.MAPPER.readTree(status);
    return WebhookAdmission.denied("deny.example.com", node).status();
  }

  @Test
  void messageReasonOrNoExplanation() throws Exception {
    Status withMessage = denied("{\"code\":403,\"message\":\"you shall not pass\"}");
    assertEquals(403, withMessage.getCode());
    assertEquals("Failure", withMessage.getStatus());
    assertEquals(
        "admission webhook \"deny.example.com\" denied the request: you shall not pass",
        withMessage.getMessage());
    Status withReason = denied("{\"code\":422,\"reason\":\"Invalid\"}");
    assertEquals(422, withReason.getCode());
    assertEquals("Invalid", withReason.getReason());
    assertEquals(
        "admission webhook \"deny.example.com\" denied the request: Invalid",
        withReason.getMessage());
    Status bare = denied("{}");
    assertEquals(400, bare.getCode());
    assertEquals(
        "admission webhook \"deny.example.com\" denied the request without explanation",
        bare.getMessage());
    Status success = denied("{\"status\":\"Success\",\"code\":200}");
    assertEquals(400, success.getCode());
    assertEquals("Failure", success.getStatus());
  }
}
