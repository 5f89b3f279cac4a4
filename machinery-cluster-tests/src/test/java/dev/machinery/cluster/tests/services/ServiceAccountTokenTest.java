package dev.machinery.cluster.tests.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

/**
 * The TokenRequest API ({@code serviceaccounts/token}) and the server's service account token
 * authenticator: {@code kubectl create token} with every kubectl build, the token then accepted by
 * {@code kubectl auth whoami} and by a plain GET; tokens bound to a pod; kube's refusals.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@EnableApiServer(
    controllers = {"serviceaccount-controller"},
    nodes = 0)
class ServiceAccountTokenTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  KubernetesClient client;
  TestApiServer server;

  private static JsonNode claims(String token) throws Exception {
    String[] parts = token.split("\\.");
    assertEquals(3, parts.length, token);
    return JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
  }

  private HttpResponse<String> get(String path, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + path)).GET();
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(server.url() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** Who a token is, as the server's SelfSubjectReview tells it. */
  private JsonNode whoami(String token) throws Exception {
    HttpResponse<String> review =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            server.url() + "/apis/authentication.k8s.io/v1/selfsubjectreviews"))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + token)
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"apiVersion\":\"authentication.k8s.io/v1\","
                                + "\"kind\":\"SelfSubjectReview\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(201, review.statusCode(), review.body());
    return JSON.readTree(review.body()).path("status").path("userInfo");
  }

  @Test
  void aTokenRequestAnswersASignedTokenTheServerAccepts() throws Exception {
    Poll.until(
        "the default ServiceAccount",
        () -> client.serviceAccounts().inNamespace("default").withName("default").get(),
        a -> a != null);
    String uid =
        client
            .serviceAccounts()
            .inNamespace("default")
            .withName("default")
            .get()
            .getMetadata()
            .getUid();
    TokenRequest answered =
        client
            .serviceAccounts()
            .inNamespace("default")
            .withName("default")
            .tokenRequest(
                new TokenRequestBuilder()
                    .withNewSpec()
                    .withExpirationSeconds(1200L)
                    .endSpec()
                    .build());
    String token = answered.getStatus().getToken();
    assertEquals(1200L, answered.getSpec().getExpirationSeconds());
    assertEquals(
        server.apiServer().serviceAccountTokens().apiAudiences(),
        answered.getSpec().getAudiences());
    JsonNode claims = claims(token);
    assertEquals("https://kubernetes.default.svc.cluster.local", claims.path("iss").asText());
    assertEquals("system:serviceaccount:default:default", claims.path("sub").asText());
    assertEquals(1200, claims.path("exp").asLong() - claims.path("iat").asLong());
    assertEquals(claims.path("iat").asLong(), claims.path("nbf").asLong());
    assertEquals("default", claims.path("kubernetes.io").path("namespace").asText());
    assertEquals(
        "default", claims.path("kubernetes.io").path("serviceaccount").path("name").asText());
    assertEquals(uid, claims.path("kubernetes.io").path("serviceaccount").path("uid").asText());
    String header =
        new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), StandardCharsets.UTF_8);
    assertTrue(header.contains("\"alg\":\"ES256\""), header);
    assertTrue(header.contains("\"kid\":"), header);

    JsonNode user = whoami(token);
    assertEquals("system:serviceaccount:default:default", user.path("username").asText());
    assertEquals(uid, user.path("uid").asText());
    assertEquals(
        "[\"system:serviceaccounts\",\"system:serviceaccounts:default\",\"system:authenticated\"]",
        user.path("groups").toString());
    assertEquals(
        "JTI=" + claims.path("jti").asText(),
        user.path("extra").path("authentication.kubernetes.io/credential-id").get(0).asText());

    assertEquals(200, get("/api/v1/namespaces/default/configmaps", token).statusCode());
    // A token altered in one character is refused; so is one of a deleted and remade account.
    String tampered =
        token.substring(0, token.length() - 2)
            + (token.charAt(token.length() - 2) == 'A' ? 'B' : 'A')
            + token.charAt(token.length() - 1);
    assertEquals(401, get("/api/v1/namespaces/default/configmaps", tampered).statusCode());
    client.serviceAccounts().inNamespace("default").withName("default").delete();
    Poll.until(
        "a new default ServiceAccount",
        () -> client.serviceAccounts().inNamespace("default").withName("default").get(),
        a -> a != null && !a.getMetadata().getUid().equals(uid));
    HttpResponse<String> stale = get("/api/v1/namespaces/default/configmaps", token);
    assertEquals(401, stale.statusCode(), stale.body());
    assertEquals("Unauthorized", JSON.readTree(stale.body()).path("reason").asText());
  }

  @Test
  void aTokenBoundToAPodDiesWithIt() throws Exception {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("bound").endMetadata().build())
        .create();
    Poll.until(
        "the default ServiceAccount",
        () -> client.serviceAccounts().inNamespace("bound").withName("default").get(),
        a -> a != null);
    Pod pod =
        client
            .pods()
            .inNamespace("bound")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("app")
                    .endMetadata()
                    .withNewSpec()
                    .withServiceAccountName("default")
                    .addNewContainer()
                    .withName("c")
                    .withImage("nginx")
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
    TokenRequest answered =
        client
            .serviceAccounts()
            .inNamespace("bound")
            .withName("default")
            .tokenRequest(
                new TokenRequestBuilder()
                    .withNewSpec()
                    .withAudiences("https://kubernetes.default.svc.cluster.local", "vault")
                    .withNewBoundObjectRef()
                    .withApiVersion("v1")
                    .withKind("Pod")
                    .withName("app")
                    .withUid(pod.getMetadata().getUid())
                    .endBoundObjectRef()
                    .endSpec()
                    .build());
    assertEquals(3600L, answered.getSpec().getExpirationSeconds());
    String token = answered.getStatus().getToken();
    JsonNode claims = claims(token);
    assertEquals("app", claims.path("kubernetes.io").path("pod").path("name").asText());
    assertEquals(
        pod.getMetadata().getUid(), claims.path("kubernetes.io").path("pod").path("uid").asText());
    JsonNode user = whoami(token);
    assertEquals(
        "app", user.path("extra").path("authentication.kubernetes.io/pod-name").get(0).asText());
    assertEquals(
        pod.getMetadata().getUid(),
        user.path("extra").path("authentication.kubernetes.io/pod-uid").get(0).asText());

    client.pods().inNamespace("bound").withName("app").withGracePeriod(0).delete();
    Poll.gone("the pod gone", () -> client.pods().inNamespace("bound").withName("app").get());
    assertEquals(401, get("/api/v1/namespaces/bound/configmaps", token).statusCode());

    // Kube's refusals.
    HttpResponse<String> short_ =
        post(
            "/api/v1/namespaces/bound/serviceaccounts/default/token",
            "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
                + "\"spec\":{\"expirationSeconds\":599}}");
    assertEquals(422, short_.statusCode(), short_.body());
    assertEquals(
        "TokenRequest.authentication.k8s.io \"default\" is invalid: spec.expirationSeconds:"
            + " Invalid value: 599: may not specify a duration less than 10 minutes",
        JSON.readTree(short_.body()).path("message").asText());
    HttpResponse<String> wrongKind =
        post(
            "/api/v1/namespaces/bound/serviceaccounts/default/token",
            "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
                + "\"spec\":{\"boundObjectRef\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                + "\"name\":\"x\"}}}");
    assertEquals(400, wrongKind.statusCode(), wrongKind.body());
    assertEquals(
        "cannot bind token to object of type v1, Kind=ConfigMap",
        JSON.readTree(wrongKind.body()).path("message").asText());
    HttpResponse<String> noAccount =
        post(
            "/api/v1/namespaces/bound/serviceaccounts/nobody/token",
            "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\",\"spec\":{}}");
    assertEquals(404, noAccount.statusCode(), noAccount.body());
  }

  /**
   * kubectl sends a token only over TLS (clientcmd applies user credentials to TLS transports
   * only): the same server is also served over HTTPS, with a certificate made here.
   */
  @TestFactory
  Stream<DynamicTest> kubectlCreateTokenThenAuthenticates() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("ServiceAccountTokenTest");
    SelfSignedCertificates.CertKey cert =
        SelfSignedCertificates.generate(
            "127.0.0.1", List.of(), List.of("localhost"), KeyAlgorithm.ECDSA_P256);
    JdkHttpBinding https =
        JdkHttpBinding.start(
            server.apiServer(),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            64,
            null,
            new TlsConfig(cert.chain(), cert.privateKey(), List.of()));
    String url = "https://127.0.0.1:" + https.port();
    return Stream.concat(
        installed.entrySet().stream()
            .map(
                e ->
                    DynamicTest.dynamicTest(
                        e.getKey(), () -> createToken(Kubectl.of(e.getKey(), e.getValue(), url)))),
        Stream.of(DynamicTest.dynamicTest("stop the HTTPS binding", https::close)));
  }

  private void createToken(Kubectl kubectl) throws Exception {
    Poll.until(
        "the default ServiceAccount",
        () -> client.serviceAccounts().inNamespace("default").withName("default").get(),
        a -> a != null);
    // Over TLS kubectl asks for credentials: it runs with a token fabric8 asked for first.
    String first =
        client
            .serviceAccounts()
            .inNamespace("default")
            .withName("default")
            .tokenRequest(new TokenRequestBuilder().withNewSpec().endSpec().build())
            .getStatus()
            .getToken();
    Kubectl.Result created =
        kubectl.run(
            "--insecure-skip-tls-verify",
            "--token=" + first,
            "create",
            "token",
            "default",
            "-n",
            "default",
            "--duration=15m");
    assertEquals(0, created.exitCode(), created.all());
    String token = created.out().strip();
    assertEquals(900, claims(token).path("exp").asLong() - claims(token).path("iat").asLong());
    Kubectl.Result whoami =
        kubectl.run(
            "--insecure-skip-tls-verify", "--token=" + token, "auth", "whoami", "-o", "json");
    assertEquals(0, whoami.exitCode(), whoami.all());
    JsonNode user = JSON.readTree(whoami.out()).path("status").path("userInfo");
    assertEquals("system:serviceaccount:default:default", user.path("username").asText());
    Kubectl.Result get =
        kubectl.run(
            "--insecure-skip-tls-verify",
            "--token=" + token,
            "get",
            "configmaps",
            "-n",
            "default",
            "-o",
            "name");
    assertEquals(0, get.exitCode(), get.all());
    Kubectl.Result bad =
        kubectl.run("--insecure-skip-tls-verify", "--token=" + token + "x", "get", "configmaps");
    assertTrue(bad.exitCode() != 0, bad.all());
    assertTrue(
        bad.all().contains("Unauthorized") || bad.all().contains("provide credentials"), bad.all());
  }
}
