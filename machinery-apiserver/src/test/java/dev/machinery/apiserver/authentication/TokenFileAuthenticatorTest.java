package dev.machinery.apiserver.authentication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.ApiRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kube-apiserver's static token file, read and used as its {@code tokenfile} package does. */
class TokenFileAuthenticatorTest {
  static ApiRequest withAuthorization(String authorization) {
    return new ApiRequest(
        "GET",
        "/api",
        Map.of(),
        authorization == null ? Map.of() : Map.of("Authorization", List.of(authorization)),
        new ByteArrayInputStream(new byte[0]));
  }

  @Test
  void readsUsersUidsAndGroups() throws Exception {
    TokenFileAuthenticator tokens =
        TokenFileAuthenticator.parse(
            "tok-bob,bob,uid-bob,\"devs, qa\"\r\n"
                + "\n"
                + "tok-carol,carol,uid-carol\n"
                + "  tok-dan, dan, 3,ops,ignored\n"
                + "tok-erin,\"erin, the second\",4,\"\"");
    assertEquals(4, tokens.size());
    assertEquals(
        Optional.of(new UserInfo("bob", "uid-bob", List.of("devs", "qa"), Map.of())),
        tokens.authenticate(withAuthorization("Bearer tok-bob")));
    assertEquals(
        Optional.of(new UserInfo("carol", "uid-carol", List.of(), Map.of())),
        tokens.authenticate(withAuthorization("bearer   tok-carol ")));
    assertEquals(
        Optional.of(new UserInfo("dan", "3", List.of("ops"), Map.of())),
        tokens.authenticate(withAuthorization("Bearer tok-dan")));
    assertEquals(
        "erin, the second",
        tokens.authenticate(withAuthorization("Bearer tok-erin")).orElseThrow().name());
  }

  @Test
  void aTokenGivenTwiceIsItsLastLine() throws Exception {
    TokenFileAuthenticator tokens = TokenFileAuthenticator.parse("t,old,1\nt,new,2\n");
    assertEquals("new", tokens.authenticate(withAuthorization("Bearer t")).orElseThrow().name());
  }

  @Test
  void aRequestWithoutABearerTokenIsNotItsToJudge() throws Exception {
    TokenFileAuthenticator tokens = TokenFileAuthenticator.parse("t,u,1\n");
    assertEquals(Optional.empty(), tokens.authenticate(withAuthorization(null)));
    assertEquals(Optional.empty(), tokens.authenticate(withAuthorization("Basic dTo=")));
    assertEquals(Optional.empty(), tokens.authenticate(withAuthorization("Bearer ")));
  }

  @Test
  void anUnknownTokenFails() {
    TokenFileAuthenticator tokens = TokenFileAuthenticator.parse("t,u,1\n");
    assertThrows(
        AuthenticationException.class, () -> tokens.authenticate(withAuthorization("Bearer x")));
    assertThrows(
        AuthenticationException.class, () -> tokens.authenticate(withAuthorization("Bearer t2")));
  }

  @Test
  void badLinesAreNamedByNumber() {
    assertBad("a,b,c\nd,e\n", "line 2 has 2 columns; at least 3 are needed");
    assertBad("a,b,c\n\nonly\n", "line 3 has 1 column; at least 3 are needed");
    assertBad("a,b,c\n,user,1\n", "line 2 has an empty token");
    assertBad("a,,c\n", "line 1 has an empty user name");
    assertBad("a,b,c\nt,u,1,\"g1,g2\n", "line 2 has a quoted field without its closing quote");
    assertBad("a,b,c\nt,u\"x,1\n", "line 2 has a quote inside an unquoted field");
    assertBad("a,b,c\n\n\nt,u,1,\"g\"x\n", "line 4 has text after a quoted field's closing quote");
  }

  @Test
  void aQuotedFieldMaySpanLinesAndTheNextLineIsCountedRight() {
    assertBad("t,u,1,\"g1,\ng2\"\nshort\n", "line 3 has 1 column");
  }

  @Test
  void loadNamesTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tokens.csv");
    Files.writeString(file, "t,u,1\nbroken\n");
    IOException e = assertThrows(IOException.class, () -> TokenFileAuthenticator.load(file));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
  }

  private static void assertBad(String text, String message) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TokenFileAuthenticator.parse(text));
    assertTrue(e.getMessage().startsWith(message), e.getMessage());
  }
}
