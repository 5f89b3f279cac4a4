package dev.machinery.apiserver.authentication;

import static dev.machinery.apiserver.authentication.TokenFileAuthenticatorTest.withAuthorization;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.http.ApiRequest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Authenticator#union} and {@link Authenticator#chain} decide as kube-apiserver's. */
class AuthenticatorChainTest {
  private static final Authenticator NONE = request -> Optional.empty();
  private static final Authenticator FAILS =
      request -> {
        throw new AuthenticationException("bad");
      };

  private static Authenticator user(String name, String... groups) {
    return request -> Optional.of(UserInfo.of(name, List.of(groups)));
  }

  private static final ApiRequest REQUEST = withAuthorization(null);

  @Test
  void theFirstUserFoundWins() throws Exception {
    assertEquals(
        "a",
        Authenticator.union(List.of(NONE, user("a"), user("b")))
            .authenticate(REQUEST)
            .orElseThrow()
            .name());
  }

  @Test
  void aFailureDoesNotStopALaterAuthenticator() throws Exception {
    assertEquals(
        "b",
        Authenticator.union(List.of(FAILS, user("b"))).authenticate(REQUEST).orElseThrow().name());
  }

  @Test
  void noUserAndAFailureFail() {
    assertThrows(
        AuthenticationException.class,
        () -> Authenticator.union(List.of(NONE, FAILS)).authenticate(REQUEST));
  }

  @Test
  void anAuthenticatedUserIsInSystemAuthenticatedOnce() throws Exception {
    assertEquals(
        List.of("dev", UserInfo.ALL_AUTHENTICATED),
        Authenticator.chain(List.of(user("a", "dev")), false)
            .authenticate(REQUEST)
            .orElseThrow()
            .groups());
    assertEquals(
        List.of(UserInfo.ALL_AUTHENTICATED, "dev"),
        Authenticator.chain(List.of(user("a", UserInfo.ALL_AUTHENTICATED, "dev")), false)
            .authenticate(REQUEST)
            .orElseThrow()
            .groups());
  }

  @Test
  void noCredentialsAreAnonymousOnlyWhenAnonymousAccessIsOn() throws Exception {
    assertEquals(
        Optional.of(UserInfo.of(UserInfo.ANONYMOUS, List.of(UserInfo.ALL_UNAUTHENTICATED))),
        Authenticator.chain(List.of(NONE), true).authenticate(REQUEST));
    assertThrows(
        AuthenticationException.class,
        () -> Authenticator.chain(List.of(NONE), false).authenticate(REQUEST));
  }

  @Test
  void aBadTokenIsNeverAnonymous() {
    Authenticator tokens = TokenFileAuthenticator.parse("t,u,1\n");
    assertThrows(
        AuthenticationException.class,
        () ->
            Authenticator.chain(List.of(tokens), true)
                .authenticate(withAuthorization("Bearer nope")));
  }
}
