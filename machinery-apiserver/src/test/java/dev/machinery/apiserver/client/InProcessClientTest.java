package dev.machinery.apiserver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ListOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The client's verbs over {@link InProcessTransport}, as the loopback user and as others. */
class InProcessClientTest extends ClientVerbsContract {
  @Override
  Client connect(ApiServer server) {
    return common(Client.builder(InProcessTransport.of(server::handleAs))).build();
  }

  @Test
  void theLoopbackUserIsTheServers() {
    assertEquals(ApiServer.LOOPBACK_USER, InProcessTransport.loopbackUser());
  }

  @Test
  void aUserWithoutRightsIsForbidden() {
    UserInfo nobody = UserInfo.of("nobody", List.of("system:authenticated"));
    try (Client asNobody =
        Client.builder(InProcessTransport.as(server::handleAs, nobody))
            .scheme(WidgetServer.SCHEME)
            .restMapper(client.restMapper())
            .rateLimiter(RateLimiter.unlimited())
            .build()) {
      StatusException forbidden =
          assertThrows(
              StatusException.class,
              () -> asNobody.resources(Widget.class).inNamespace("ns").list(new ListOptions()));
      assertTrue(ApiErrors.isForbidden(forbidden));
      assertEquals(
          "widgets.test.machinery.dev is forbidden: User \"nobody\" cannot list resource"
              + " \"widgets\" in API group \"test.machinery.dev\" in the namespace \"ns\"",
          forbidden.getMessage());
    }
  }

  @Test
  void anAuthenticatingTransportReadsTheBearerToken() {
    try (Client anonymous =
        Client.builder(InProcessTransport.authenticating(server))
            .scheme(WidgetServer.SCHEME)
            .restMapper(client.restMapper())
            .rateLimiter(RateLimiter.unlimited())
            .build()) {
      StatusException refused =
          assertThrows(
              StatusException.class,
              () -> anonymous.resources(Widget.class).inNamespace("ns").get("a"));
      assertTrue(
          ApiErrors.isForbidden(refused) || ApiErrors.isUnauthorized(refused),
          refused.getMessage());
    }
  }
}
