package dev.machinery.apiserver.authentication;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Accepts the service account tokens of a {@link ServiceAccountTokens}, as kube-apiserver's {@code
 * serviceaccount.JWTTokenAuthenticator} with its legacy-free validator: the user {@code
 * system:serviceaccount:<namespace>:<name>} with the account's uid, in {@code
 * system:serviceaccounts} and {@code system:serviceaccounts:<namespace>}, with the extra {@code
 * authentication.kubernetes.io/credential-id} ({@code JTI=<jti>}) and, for a token bound to a pod
 * or node, {@code authentication.kubernetes.io/pod-name}, {@code pod-uid}, {@code node-name},
 * {@code node-uid}.
 *
 * <p>Thread-safe.
 */
final class ServiceAccountTokenAuthenticator implements Authenticator {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long LEEWAY_SECONDS = 60;
  static final String EXTRA_PREFIX = "authentication.kubernetes.io/";

  private final ServiceAccountTokens tokens;
  private final ApiHandler loopback;

  ServiceAccountTokenAuthenticator(ServiceAccountTokens tokens, ApiHandler loopback) {
    this.tokens = tokens;
    this.loopback = loopback;
  }

  @Override
  public Optional<UserInfo> authenticate(ApiRequest request) throws AuthenticationException {
    String token = TokenFileAuthenticator.bearerToken(request);
    if (token == null) {
      return Optional.empty();
    }
    Optional<JsonNode> verified = tokens.verify(token);
    if (verified.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(validate(verified.get()));
  }

  /** Checks the claims of a token whose signature and issuer hold. */
  UserInfo validate(JsonNode claims) throws AuthenticationException {
    long now = tokens.clock().instant().getEpochSecond();
    if (!claims.path("exp").canConvertToLong()) {
      throw new AuthenticationException("invalid bearer token: no expiry (exp)");
    }
    if (now > claims.path("exp").asLong()) {
      throw new AuthenticationException("service account token has expired");
    }
    if (claims.has("nbf") && now + LEEWAY_SECONDS < claims.path("nbf").asLong()) {
      throw new AuthenticationException("service account token is not valid yet");
    }
    List<String> audiences = new ArrayList<>();
    JsonNode aud = claims.path("aud");
    if (aud.isArray()) {
      aud.forEach(a -> audiences.add(a.asText()));
    } else if (aud.isTextual()) {
      audiences.add(aud.asText());
    }
    if (audiences.stream().noneMatch(tokens.apiAudiences()::contains)) {
      throw new AuthenticationException(
          "token audiences "
              + audiences
              + " is invalid for the target audiences "
              + tokens.apiAudiences());
    }
    JsonNode k8s = claims.path("kubernetes.io");
    String namespace = k8s.path("namespace").asText("");
    String name = k8s.path("serviceaccount").path("name").asText("");
    String uid = k8s.path("serviceaccount").path("uid").asText("");
    String subject = claims.path("sub").asText("");
    if (namespace.isEmpty()
        || name.isEmpty()
        || !subject.equals("system:serviceaccount:" + namespace + ":" + name)) {
      throw new AuthenticationException("service account token claims are malformed");
    }
    JsonNode account =
        get("/api/v1/namespaces/" + namespace + "/serviceaccounts/" + name)
            .orElseThrow(
                () ->
                    new AuthenticationException(
                        "service account " + namespace + "/" + name + " has been deleted"));
    String storedUid = account.path("metadata").path("uid").asText("");
    if (!storedUid.equals(uid)) {
      throw new AuthenticationException(
          "service account UID (" + storedUid + ") does not match claim (" + uid + ")");
    }
    Map<String, List<String>> extra = new LinkedHashMap<>();
    Instant deletedBefore = Instant.ofEpochSecond(now - LEEWAY_SECONDS);
    JsonNode pod = k8s.path("pod");
    if (pod.isObject()) {
      bound("pod", "/api/v1/namespaces/" + namespace + "/pods/", pod, namespace, deletedBefore);
      extra.put(EXTRA_PREFIX + "pod-name", List.of(pod.path("name").asText()));
      extra.put(EXTRA_PREFIX + "pod-uid", List.of(pod.path("uid").asText()));
    }
    JsonNode secret = k8s.path("secret");
    if (secret.isObject()) {
      bound(
          "secret",
          "/api/v1/namespaces/" + namespace + "/secrets/",
          secret,
          namespace,
          deletedBefore);
    }
    JsonNode node = k8s.path("node");
    if (node.isObject()) {
      // A node named in a pod-bound token is informative; one the token is bound to must exist.
      if (!pod.isObject()) {
        bound("node", "/api/v1/nodes/", node, null, deletedBefore);
      }
      extra.put(EXTRA_PREFIX + "node-name", List.of(node.path("name").asText()));
      extra.put(EXTRA_PREFIX + "node-uid", List.of(node.path("uid").asText()));
    }
    String jti = claims.path("jti").asText("");
    if (!jti.isEmpty()) {
      extra.put(EXTRA_PREFIX + "credential-id", List.of("JTI=" + jti));
    }
    return new UserInfo(
        "system:serviceaccount:" + namespace + ":" + name,
        uid,
        List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace),
        extra);
  }

  private JsonNode bound(
      String what, String base, JsonNode ref, String namespace, Instant deletedBefore)
      throws AuthenticationException {
    String name = ref.path("name").asText("");
    String uid = ref.path("uid").asText("");
    String shown = namespace == null ? name : namespace + "/" + name;
    JsonNode stored =
        get(base + name)
            .orElseThrow(
                () -> new AuthenticationException(what + " " + shown + " has been deleted"));
    String storedUid = stored.path("metadata").path("uid").asText("");
    if (!storedUid.equals(uid)) {
      throw new AuthenticationException(
          what + " UID (" + storedUid + ") does not match claim (" + uid + ")");
    }
    String deletion = stored.path("metadata").path("deletionTimestamp").asText("");
    if (!deletion.isEmpty() && Instant.parse(deletion).isBefore(deletedBefore)) {
      throw new AuthenticationException(what + " " + shown + " is being deleted");
    }
    return stored;
  }

  private Optional<JsonNode> get(String path) throws AuthenticationException {
    ApiResponse response =
        loopback.handle(
            new ApiRequest(
                "GET",
                path,
                Map.of(),
                Map.of("Accept", List.of("application/json")),
                new ByteArrayInputStream(new byte[0])));
    if (response.status() == 404) {
      return Optional.empty();
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    try {
      response.writeBody(body);
      if (response.status() != 200) {
        throw new AuthenticationException(
            "cannot read " + path + ": " + response.status() + " " + body);
      }
      return Optional.of(JSON.readTree(body.toByteArray()));
    } catch (IOException e) {
      throw new AuthenticationException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }
}
