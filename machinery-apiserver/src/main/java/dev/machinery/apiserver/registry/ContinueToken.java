package dev.machinery.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.unversioned.errors.ApiErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The {@code continue} token of a paged list, in Kubernetes' form: base64url of {@code
 * {"v":"meta.k8s.io/v1","rv":N,"start":"<next key, relative to the list's prefix>"}}.
 *
 * <p>Immutable.
 *
 * @param revision the revision the first page was read at
 * @param start the key the next page starts at, relative to the prefix
 */
public record ContinueToken(long revision, String start) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Encodes the token.
   *
   * @return the token text
   */
  public String encode() {
    ObjectNode node = JSON.createObjectNode();
    node.put("v", "meta.k8s.io/v1");
    node.put("rv", revision);
    node.put("start", start);
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Decodes a token a client sent back.
   *
   * @param text the token
   * @return the token
   * @throws dev.machinery.unversioned.errors.StatusException {@code 400} when it is not one this
   *     server wrote
   */
  public static ContinueToken decode(String text) {
    try {
      String padded = text.replace('+', '-').replace('/', '_').replace("=", "");
      JsonNode node = JSON.readTree(Base64.getUrlDecoder().decode(padded));
      if (node == null
          || !node.path("v").asText().equals("meta.k8s.io/v1")
          || !node.path("rv").canConvertToLong()
          || node.path("rv").asLong() <= 0
          || !node.path("start").isTextual()
          || node.path("start").asText().contains("..")) {
        throw invalid(text);
      }
      return new ContinueToken(node.path("rv").asLong(), node.path("start").asText());
    } catch (IOException | IllegalArgumentException e) {
      throw invalid(text);
    }
  }

  private static RuntimeException invalid(String text) {
    return ApiErrors.newBadRequest(
        "continue key is not valid: "
            + (text.length() > 64 ? text.substring(0, 64) + "..." : text));
  }
}
