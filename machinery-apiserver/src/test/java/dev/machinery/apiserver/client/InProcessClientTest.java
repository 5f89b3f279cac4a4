package dev.machinery.apiserver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.testing.client.ClientVerbsContract;
import dev.machinery.apiserver.testing.client.Widget;
import dev.machinery.apiserver.testing.client.WidgetServer;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.client.config.CredentialSource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ListOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The client's verbs over {@link InProcessTransport}, as the loopback user and as others. */
class InProcessClientTest extends ClientVerbsContract {
  @Override
  protected Client connect(ApiServer server) {
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

  private Client authenticating(CredentialSource credentials) {
    return Client.builder(InProcessTransport.authenticating(server, credentials))
        .scheme(WidgetServer.SCHEME)
        .restMapper(client.restMapper())
        .rateLimiter(RateLimiter.unlimited())
        .build();
  }

  @Test
  void anAuthenticatingTransportSendsTheCredentials() {
    try (Client admin = authenticating(CredentialSource.bearerToken(WidgetServer.ADMIN_TOKEN));
        Client nobody = authenticating(CredentialSource.bearerToken(WidgetServer.NOBODY_TOKEN));
        Client wrong = authenticating(CredentialSource.bearerToken("wrong"));
        Client anonymous = authenticating(CredentialSource.none())) {
      assertEquals(
          0,
          admin.resources(Widget.class).inNamespace("ns").list(new ListOptions()).items().size());
      StatusException forbidden =
          assertThrows(
              StatusException.class,
              () -> nobody.resources(Widget.class).inNamespace("ns").get("a"));
      assertTrue(forbidden.getMessage().contains("User \"nobody\""), forbidden.getMessage());
      StatusException unauthorized =
          assertThrows(
              StatusException.class,
              () -> wrong.resources(Widget.class).inNamespace("ns").get("a"));
      assertTrue(ApiErrors.isUnauthorized(unauthorized), unauthorized.getMessage());
      StatusException anonymousRefused =
          assertThrows(
              StatusException.class,
              () -> anonymous.resources(Widget.class).inNamespace("ns").get("a"));
      assertTrue(
          ApiErrors.isUnauthorized(anonymousRefused),
          "a server with an authenticator takes no anonymous requests: "
              + anonymousRefused.getMessage());
    }
  }

  @Test
  void aRefreshAfter401SendsTheRequestOnceMore() {
    java.util.concurrent.atomic.AtomicInteger refreshes =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicReference<String> token =
        new java.util.concurrent.atomic.AtomicReference<>("stale");
    CredentialSource refreshing =
        new CredentialSource() {
          @Override
          public java.util.Optional<String> authorization() {
            return java.util.Optional.of("Bearer " + token.get());
          }

          @Override
          public boolean invalidate() {
            refreshes.incrementAndGet();
            token.set(WidgetServer.ADMIN_TOKEN);
            return true;
          }
        };
    try (Client refreshed = authenticating(refreshing)) {
      refreshed.resources(Widget.class).inNamespace("ns").list(new ListOptions());
      assertEquals(1, refreshes.get());
    }
  }

  @Test
  void protobufCarriesTypedObjectsBothWays() {
    List<String> contentTypes = new java.util.concurrent.CopyOnWriteArrayList<>();
    InProcessTransport inner = InProcessTransport.of(server::handleAs);
    dev.machinery.client.transport.Transport recording =
        request -> {
          dev.machinery.client.transport.TransportResponse response = inner.send(request);
          contentTypes.add(
              request.method()
                  + " "
                  + request.header("Content-Type")
                  + " -> "
                  + response.header("Content-Type"));
          return response;
        };
    try (Client proto =
        Client.builder(recording)
            .scheme(WidgetServer.SCHEME)
            .restMapper(client.restMapper())
            .rateLimiter(RateLimiter.unlimited())
            .protobuf(true)
            .build()) {
      var widgets = proto.resources(Widget.class).inNamespace("ns");
      Widget created = widgets.create(Widget.of("p", 3, "teal"));
      assertEquals("teal", created.getSpec().getColor());
      Widget got = widgets.get("p");
      assertEquals(3, got.getSpec().getReplicas());
      assertEquals(
          List.of(
              "POST application/vnd.kubernetes.protobuf -> application/vnd.kubernetes.protobuf",
              "GET null -> application/vnd.kubernetes.protobuf"),
          contentTypes);
      StatusException missing = assertThrows(StatusException.class, () -> widgets.get("none"));
      assertTrue(ApiErrors.isNotFound(missing), missing.getMessage());
    }
  }
}
