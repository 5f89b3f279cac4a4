package dev.machinery.apiserver.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Continue tokens in Kubernetes' form, and the refusal of tokens this server did not write. */
class ContinueTokenTest {
  @Test
  void roundTripsAndReadsKubernetesOwnForm() {
    ContinueToken token = new ContinueToken(42, "default/web\u0000");
    assertEquals(token, ContinueToken.decode(token.encode()));
    String kubernetes =
        Base64.getEncoder()
            .encodeToString(
                "{\"v\":\"meta.k8s.io/v1\",\"rv\":12345,\"start\":\"foo\"}"
                    .getBytes(StandardCharsets.UTF_8));
    assertEquals(new ContinueToken(12345, "foo"), ContinueToken.decode(kubernetes));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not base64 !",
        "e30",
        "eyJ2IjoibWV0YS5rOHMuaW8vdjIiLCJydiI6MSwic3RhcnQiOiJhIn0",
        "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJhIn0",
        "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiIuLi9hIn0",
      })
  void refusesMalformedTokensWithBadRequest(String text) {
    StatusException e = assertThrows(StatusException.class, () -> ContinueToken.decode(text));
    assertEquals(400, e.statusCode());
    assertEquals(true, ApiErrors.isBadRequest(e));
  }
}
