package dev.machinery.apiserver.authentication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.certs.Pem;
import dev.machinery.apiserver.certs.PrivateKeys;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The token issuer and its authenticator, against a fixed clock and a map of stored objects: the
 * signatures of RS256 and ES256 keys read from PEM files, kube's key id, expiry and not-before
 * (with a minute's leeway), audiences, issuers of others, and the claims checked against the
 * objects.
 */
class ServiceAccountTokensTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  /** Objects by path, answered as the server's loopback would. */
  private final Map<String, String> objects = new HashMap<>();

  private ApiResponse loopback(ApiRequest request) {
    String body = objects.get(request.path());
    if (body == null) {
      return ApiResponse.of(
          404, "application/json", "{\"kind\":\"Status\",\"code\":404}".getBytes());
    }
    return ApiResponse.of(200, "application/json", body.getBytes(StandardCharsets.UTF_8));
  }

  private static ApiRequest bearer(String token) {
    return new ApiRequest(
        "GET",
        "/api",
        Map.of(),
        Map.of("Authorization", List.of("Bearer " + token)),
        new ByteArrayInputStream(new byte[0]));
  }

  private static ObjectNode claims(ServiceAccountTokens tokens, long lifetime, String uid) {
    ObjectNode claims = JSON.createObjectNode();
    claims.putArray("aud").add(tokens.apiAudiences().get(0));
    long now = tokens.clock().instant().getEpochSecond();
    claims.put("exp", now + lifetime);
    claims.put("iat", now);
    claims.put("nbf", now);
    claims.put("iss", tokens.issuer());
    claims.put("jti", "4a1c1f3e-1111-2222-3333-444455556666");
    ObjectNode k8s = claims.putObject("kubernetes.io");
    k8s.put("namespace", "ns");
    k8s.putObject("serviceaccount").put("name", "robot").put("uid", uid);
    claims.put("sub", "system:serviceaccount:ns:robot");
    return claims;
  }

  private static ServiceAccountTokens at(ServiceAccountTokens.Builder builder, Instant now) {
    return builder.clock(Clock.fixed(now, ZoneOffset.UTC)).build();
  }

  private static JsonNode header(String token) throws Exception {
    return JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[0]));
  }

  @Test
  void rsaKeyFileSignsRs256AndTheAuthenticatorAcceptsIt(@TempDir Path dir) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair keys = generator.generateKeyPair();
    Path keyFile = Files.writeString(dir.resolve("sa.key"), PrivateKeys.toPem(keys.getPrivate()));
    ServiceAccountTokens tokens =
        at(
            ServiceAccountTokens.builder().issuer("https://issuer.example").signingKeyFile(keyFile),
            NOW);
    objects.put(
        "/api/v1/namespaces/ns/serviceaccounts/robot",
        "{\"metadata\":{\"name\":\"robot\",\"uid\":\"u-1\"}}");
    String token = tokens.sign(claims(tokens, 3600, "u-1"));
    assertEquals("RS256", header(token).path("alg").asText());
    assertEquals(ServiceAccountTokens.keyId(keys.getPublic()), header(token).path("kid").asText());
    assertEquals(List.of("https://issuer.example"), tokens.apiAudiences());

    UserInfo user = tokens.authenticator(this::loopback).authenticate(bearer(token)).orElseThrow();
    assertEquals("system:serviceaccount:ns:robot", user.name());
    assertEquals("u-1", user.uid());
    assertEquals(List.of("system:serviceaccounts", "system:serviceaccounts:ns"), user.groups());
    assertEquals(
        List.of("JTI=4a1c1f3e-1111-2222-3333-444455556666"),
        user.extra().get("authentication.kubernetes.io/credential-id"));

    // Verified with the public key alone (a key file of another server).
    Path publicFile =
        Files.writeString(
            dir.resolve("sa.pub"), Pem.encode("PUBLIC KEY", keys.getPublic().getEncoded()));
    ServiceAccountTokens verifier =
        at(
            ServiceAccountTokens.builder().issuer("https://issuer.example").keyFile(publicFile),
            NOW);
    assertTrue(verifier.authenticator(this::loopback).authenticate(bearer(token)).isPresent());
  }

  @Test
  void ecKeyNeedsItsPublicKeyInAKeyFile(@TempDir Path dir) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair keys = generator.generateKeyPair();
    Path keyFile = Files.writeString(dir.resolve("ec.key"), PrivateKeys.toPem(keys.getPrivate()));
    IllegalStateException missing =
        assertThrows(
            IllegalStateException.class,
            () -> ServiceAccountTokens.builder().signingKeyFile(keyFile).build());
    assertEquals(
        "service-account-signing-key-file: an EC key needs its public key in a"
            + " service-account-key-file",
        missing.getMessage());
    Path publicFile =
        Files.writeString(
            dir.resolve("ec.pub"), Pem.encode("PUBLIC KEY", keys.getPublic().getEncoded()));
    ServiceAccountTokens tokens =
        at(ServiceAccountTokens.builder().signingKeyFile(keyFile).keyFile(publicFile), NOW);
    objects.put("/api/v1/namespaces/ns/serviceaccounts/robot", "{\"metadata\":{\"uid\":\"u-1\"}}");
    String token = tokens.sign(claims(tokens, 600, "u-1"));
    assertEquals("ES256", header(token).path("alg").asText());
    // An ES256 signature is R || S, 64 bytes (RFC 7518 3.4).
    assertEquals(64, Base64.getUrlDecoder().decode(token.split("\\.")[2]).length);
    assertTrue(tokens.authenticator(this::loopback).authenticate(bearer(token)).isPresent());
  }

  @Test
  void expiryNotBeforeAudienceAndTheAccountAreChecked() throws Exception {
    ServiceAccountTokens.Builder keys =
        ServiceAccountTokens.builder().signingKey(ecKeys()).apiAudiences(List.of("api", "vault"));
    ServiceAccountTokens issuer = at(keys, NOW);
    objects.put("/api/v1/namespaces/ns/serviceaccounts/robot", "{\"metadata\":{\"uid\":\"u-1\"}}");
    String token = issuer.sign(claims(issuer, 600, "u-1"));

    // Ten minutes later, still good; a second after, expired.
    ServiceAccountTokens later = at(keys, NOW.plusSeconds(600));
    assertTrue(later.authenticator(this::loopback).authenticate(bearer(token)).isPresent());
    ServiceAccountTokens expired = at(keys, NOW.plusSeconds(601));
    AuthenticationException e =
        assertThrows(
            AuthenticationException.class,
            () -> expired.authenticator(this::loopback).authenticate(bearer(token)));
    assertEquals("service account token has expired", e.getMessage());

    // Before nbf: a minute's leeway, not more.
    ServiceAccountTokens early = at(keys, NOW.minusSeconds(60));
    assertTrue(early.authenticator(this::loopback).authenticate(bearer(token)).isPresent());
    ServiceAccountTokens tooEarly = at(keys, NOW.minusSeconds(61));
    e =
        assertThrows(
            AuthenticationException.class,
            () -> tooEarly.authenticator(this::loopback).authenticate(bearer(token)));
    assertEquals("service account token is not valid yet", e.getMessage());

    // Another audience.
    ObjectNode other = claims(issuer, 600, "u-1");
    other.putArray("aud").add("elsewhere");
    String elsewhere = issuer.sign(other);
    e =
        assertThrows(
            AuthenticationException.class,
            () -> issuer.authenticator(this::loopback).authenticate(bearer(elsewhere)));
    assertEquals(
        "token audiences [elsewhere] is invalid for the target audiences [api, vault]",
        e.getMessage());

    // The account remade (another uid), then gone.
    objects.put("/api/v1/namespaces/ns/serviceaccounts/robot", "{\"metadata\":{\"uid\":\"u-2\"}}");
    e =
        assertThrows(
            AuthenticationException.class,
            () -> issuer.authenticator(this::loopback).authenticate(bearer(token)));
    assertEquals("service account UID (u-2) does not match claim (u-1)", e.getMessage());
    objects.clear();
    e =
        assertThrows(
            AuthenticationException.class,
            () -> issuer.authenticator(this::loopback).authenticate(bearer(token)));
    assertEquals("service account ns/robot has been deleted", e.getMessage());
  }

  @Test
  void tokensOfOthersAreLeftToOtherAuthenticators() throws Exception {
    ServiceAccountTokens mine = at(ServiceAccountTokens.builder().signingKey(ecKeys()), NOW);
    ServiceAccountTokens theirs =
        at(
            ServiceAccountTokens.builder().issuer("https://other.example").signingKey(ecKeys()),
            NOW);
    Authenticator authenticator = mine.authenticator(this::loopback);
    assertEquals(
        Optional.empty(),
        authenticator.authenticate(bearer(theirs.sign(claims(theirs, 600, "u")))));
    assertEquals(Optional.empty(), authenticator.authenticate(bearer("not-a-jwt")));
    // Same issuer, another key: refused, not passed on.
    ServiceAccountTokens impostor = at(ServiceAccountTokens.builder().signingKey(ecKeys()), NOW);
    AuthenticationException e =
        assertThrows(
            AuthenticationException.class,
            () -> authenticator.authenticate(bearer(impostor.sign(claims(impostor, 600, "u")))));
    assertEquals("invalid bearer token: the signature does not verify", e.getMessage());
  }

  @Test
  void aGeneratedKeyIsMadeOnceForEveryThreadAndVerifiesItsTokens() throws Exception {
    ServiceAccountTokens tokens = at(ServiceAccountTokens.builder(), NOW);
    ServiceAccountTokens other = at(ServiceAccountTokens.builder(), NOW);
    objects.put(
        "/api/v1/namespaces/ns/serviceaccounts/robot",
        "{\"metadata\":{\"name\":\"robot\",\"namespace\":\"ns\",\"uid\":\"u-1\"}}");
    // Threads that sign at once all sign with the one key the issuer makes.
    int threads = 8;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(1);
    List<java.util.concurrent.Future<String>> signed = new java.util.ArrayList<>();
    for (int i = 0; i < threads; i++) {
      signed.add(
          pool.submit(
              () -> {
                ready.await();
                return tokens.sign(claims(tokens, 600, "u-1"));
              }));
    }
    ready.countDown();
    java.util.Set<String> keyIds = new java.util.HashSet<>();
    Authenticator authenticator = tokens.authenticator(this::loopback);
    for (java.util.concurrent.Future<String> token : signed) {
      String value = token.get();
      keyIds.add(header(value).path("kid").asText());
      assertEquals(
          "system:serviceaccount:ns:robot",
          authenticator.authenticate(bearer(value)).orElseThrow().name());
    }
    pool.shutdown();
    assertEquals(1, keyIds.size(), "one key: " + keyIds);
    assertEquals("ES256", header(signed.get(0).get()).path("alg").asText());
    assertEquals(tokens.publicKeyPem(), tokens.publicKeyPem());
    assertTrue(tokens.publicKeyPem().startsWith("-----BEGIN PUBLIC KEY-----"));
    // Another issuer makes a key of its own, and its tokens are not this one's.
    assertTrue(!tokens.publicKeyPem().equals(other.publicKeyPem()));
    String theirs = other.sign(claims(other, 600, "u-1"));
    assertThrows(AuthenticationException.class, () -> authenticator.authenticate(bearer(theirs)));
  }

  @Test
  void maxExpirationIsAtLeastTenMinutes() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ServiceAccountTokens.builder().maxExpiration(Duration.ofMinutes(9)));
    assertEquals(
        "service-account-max-token-expiration: must be at least 10m, not PT9M", e.getMessage());
  }

  private static KeyPair ecKeys() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }
}
