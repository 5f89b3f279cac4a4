package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.certs.CertificateBuilder;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CertificateSigningRequests as kube-apiserver serves them (strategy_test.go and validation_test.go
 * of k8s.io/kubernetes' certificates registry and API): a create keeps no status; the main resource
 * changes neither spec nor status; {@code approval} changes only the conditions, with their
 * timestamps filled; {@code status} sets the certificate but not the approval conditions; Approved
 * and Denied exclude each other; conditions of those types are never removed; the spec's request,
 * signer name, usages and expiration are validated with kube's messages.
 */
class CertificateSigningRequestTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
  private static final String SIGNER = "example.com/signer";
  private ApiServer server;

  @BeforeEach
  void start() {
    server = BuiltinKinds.apiServer().build();
  }

  private JsonNode call(int expected, String method, String path, Object body) throws Exception {
    byte[] bytes = body == null ? new byte[0] : JSON.writeValueAsBytes(body);
    ApiResponse response =
        server.handle(
            new ApiRequest(
                method,
                path,
                Map.of(),
                Map.of("Content-Type", List.of("application/json")),
                new ByteArrayInputStream(bytes)));
    String text = new String(response.body(), StandardCharsets.UTF_8);
    assertEquals(expected, response.status(), text);
    return JSON.readTree(text);
  }

  static ObjectNode csr(String name, String signer, String request) {
    ObjectNode csr = JSON.createObjectNode();
    csr.put("apiVersion", "certificates.k8s.io/v1");
    csr.put("kind", "CertificateSigningRequest");
    csr.putObject("metadata").put("name", name);
    ObjectNode spec = csr.putObject("spec");
    spec.put("request", request);
    spec.put("signerName", signer);
    spec.putArray("usages").add("client auth");
    return csr;
  }

  private JsonNode create(String name) throws Exception {
    return call(201, "POST", CSRS, csr(name, SIGNER, TestCsrs.base64(TestCsrs.pem("alice"))));
  }

  private static ObjectNode condition(String type) {
    ObjectNode c = JSON.createObjectNode();
    c.put("type", type);
    c.put("status", "True");
    c.put("reason", "Test");
    return c;
  }

  private static String certificatePem() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(256);
    KeyPair keys = generator.generateKeyPair();
    byte[] der =
        CertificateBuilder.forKey(keys.getPublic(), new SecureRandom())
            .commonName("alice")
            .selfSign(keys.getPrivate())
            .getEncoded();
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END CERTIFICATE-----\n";
  }

  private static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void aCreateKeepsNoStatus() throws Exception {
    ObjectNode body = csr("pre-approved", SIGNER, TestCsrs.base64(TestCsrs.pem("alice")));
    body.putObject("status").putArray("conditions").add(condition("Approved"));
    JsonNode created = call(201, "POST", CSRS, body);
    assertEquals(JSON.createObjectNode(), created.path("status"), created.toString());
    assertEquals(SIGNER, created.path("spec").path("signerName").asText());
  }

  @Test
  void aCreateRecordsWhoAsked() throws Exception {
    ObjectNode body = csr("who", SIGNER, TestCsrs.base64(TestCsrs.pem("alice")));
    ObjectNode spec = (ObjectNode) body.path("spec");
    spec.put("username", "mallory");
    spec.putArray("groups").add("system:masters");
    UserInfo alice =
        new UserInfo(
            "alice",
            "uid-1",
            List.of("team", "system:authenticated"),
            Map.of("scopes", List.of("a", "b")));
    ApiResponse response =
        server.handleAs(
            alice,
            new ApiRequest(
                "POST",
                CSRS,
                Map.of(),
                Map.of("Content-Type", List.of("application/json")),
                new ByteArrayInputStream(JSON.writeValueAsBytes(body))));
    JsonNode created = JSON.readTree(response.body());
    assertEquals(201, response.status(), created.toString());
    assertEquals("alice", created.path("spec").path("username").asText());
    assertEquals("uid-1", created.path("spec").path("uid").asText());
    assertEquals(
        List.of("team", "system:authenticated"),
        JSON.convertValue(created.path("spec").path("groups"), List.class));
    assertEquals(
        List.of("a", "b"),
        JSON.convertValue(created.path("spec").path("extra").path("scopes"), List.class));
  }

  @Test
  void theMainResourceChangesNeitherSpecNorStatus() throws Exception {
    ObjectNode stored = (ObjectNode) create("main");
    ObjectNode changed = stored.deepCopy();
    ((ObjectNode) changed.path("spec")).put("signerName", "example.com/other");
    ((ObjectNode) changed.path("status")).putArray("conditions").add(condition("Approved"));
    ((ObjectNode) changed.path("metadata")).putObject("labels").put("team", "a");
    JsonNode updated = call(200, "PUT", CSRS + "/main", changed);
    assertEquals(SIGNER, updated.path("spec").path("signerName").asText());
    assertTrue(updated.path("status").path("conditions").isMissingNode(), updated.toString());
    assertEquals("a", updated.path("metadata").path("labels").path("team").asText());
  }

  @Test
  void approvalChangesOnlyTheConditionsAndFillsTheirTimes() throws Exception {
    ObjectNode stored = (ObjectNode) create("approve");
    ObjectNode changed = stored.deepCopy();
    ((ObjectNode) changed.path("spec")).put("signerName", "example.com/other");
    ObjectNode status = (ObjectNode) changed.path("status");
    status.put("certificate", b64(certificatePem()));
    status.putArray("conditions").add(condition("Approved"));
    JsonNode approved = call(200, "PUT", CSRS + "/approve/approval", changed);
    assertEquals(SIGNER, approved.path("spec").path("signerName").asText());
    assertTrue(approved.path("status").path("certificate").isMissingNode(), approved.toString());
    JsonNode c = approved.path("status").path("conditions").path(0);
    assertEquals("Approved", c.path("type").asText());
    assertFalse(c.path("lastUpdateTime").asText().isEmpty(), c.toString());
    assertEquals(c.path("lastUpdateTime").asText(), c.path("lastTransitionTime").asText());
    // What is read back is what was answered.
    assertEquals(approved.path("status"), call(200, "GET", CSRS + "/approve", null).path("status"));
    // A condition written again keeps its stored transition time.
    ObjectNode again = (ObjectNode) approved.deepCopy();
    ObjectNode kept = (ObjectNode) again.path("status").path("conditions").path(0);
    kept.remove("lastUpdateTime");
    kept.remove("lastTransitionTime");
    JsonNode rewritten = call(200, "PUT", CSRS + "/approve/approval", again);
    assertEquals(
        c.path("lastTransitionTime"),
        rewritten.path("status").path("conditions").path(0).path("lastTransitionTime"));
  }

  @Test
  void approvedAndDeniedAreMutuallyExclusive() throws Exception {
    ObjectNode changed = (ObjectNode) create("both").deepCopy();
    ((ObjectNode) changed.path("status"))
        .putArray("conditions")
        .add(condition("Approved"))
        .add(condition("Denied"));
    JsonNode refused = call(422, "PUT", CSRS + "/both/approval", changed);
    assertEquals(
        "CertificateSigningRequest.certificates.k8s.io \"both\" is invalid:"
            + " status.conditions[1].type: Invalid value: \"Denied\": Approved and Denied"
            + " conditions are mutually exclusive",
        refused.path("message").asText());
  }

  @Test
  void anApprovalIsNeverRemoved() throws Exception {
    ObjectNode changed = (ObjectNode) create("remove").deepCopy();
    ((ObjectNode) changed.path("status")).putArray("conditions").add(condition("Approved"));
    JsonNode approved = call(200, "PUT", CSRS + "/remove/approval", changed);
    ObjectNode removed = (ObjectNode) approved.deepCopy();
    ((ObjectNode) removed.path("status")).putArray("conditions");
    JsonNode refused = call(422, "PUT", CSRS + "/remove/approval", removed);
    assertEquals(
        "CertificateSigningRequest.certificates.k8s.io \"remove\" is invalid: status.conditions:"
            + " Forbidden: updates may not remove a condition of type \"Approved\"",
        refused.path("message").asText());
  }

  @Test
  void statusSetsTheCertificateButNotTheApproval() throws Exception {
    ObjectNode stored = (ObjectNode) create("issue");
    ObjectNode approve = stored.deepCopy();
    ((ObjectNode) approve.path("status")).putArray("conditions").add(condition("Denied"));
    JsonNode refused = call(422, "PUT", CSRS + "/issue/status", approve);
    assertEquals(
        "CertificateSigningRequest.certificates.k8s.io \"issue\" is invalid: status.conditions:"
            + " Forbidden: updates may not add a condition of type \"Denied\"",
        refused.path("message").asText());

    ObjectNode garbage = stored.deepCopy();
    ((ObjectNode) garbage.path("status")).put("certificate", b64("not a certificate"));
    refused = call(422, "PUT", CSRS + "/issue/status", garbage);
    assertEquals(
        "CertificateSigningRequest.certificates.k8s.io \"issue\" is invalid: status.certificate:"
            + " Invalid value: \"<certificate data>\": must contain at least one CERTIFICATE PEM"
            + " block",
        refused.path("message").asText());

    ObjectNode issue = stored.deepCopy();
    String certificate = b64(certificatePem());
    ((ObjectNode) issue.path("status")).put("certificate", certificate);
    ((ObjectNode) issue.path("spec")).put("signerName", "example.com/other");
    JsonNode issued = call(200, "PUT", CSRS + "/issue/status", issue);
    assertEquals(certificate, issued.path("status").path("certificate").asText());
    assertEquals(SIGNER, issued.path("spec").path("signerName").asText());

    ObjectNode replace = (ObjectNode) issued.deepCopy();
    ((ObjectNode) replace.path("status")).put("certificate", b64(certificatePem()));
    refused = call(422, "PUT", CSRS + "/issue/status", replace);
    assertEquals(
        "CertificateSigningRequest.certificates.k8s.io \"issue\" is invalid: status.certificate:"
            + " Forbidden: updates may not modify existing certificate content",
        refused.path("message").asText());
  }

  @Test
  void statusKeepsTheStoredApprovalConditions() throws Exception {
    ObjectNode changed = (ObjectNode) create("keep").deepCopy();
    ((ObjectNode) changed.path("status")).putArray("conditions").add(condition("Approved"));
    JsonNode approved = call(200, "PUT", CSRS + "/keep/approval", changed);
    ObjectNode rewrite = (ObjectNode) approved.deepCopy();
    ArrayNode conditions = (ArrayNode) rewrite.path("status").path("conditions");
    ((ObjectNode) conditions.get(0)).put("reason", "Changed");
    conditions.add(condition("Failed"));
    JsonNode written = call(200, "PUT", CSRS + "/keep/status", rewrite);
    assertEquals(
        approved.path("status").path("conditions").path(0),
        written.path("status").path("conditions").path(0));
    assertEquals("Failed", written.path("status").path("conditions").path(1).path("type").asText());
  }

  private String invalid(ObjectNode body) throws Exception {
    return call(422, "POST", CSRS, body).path("message").asText();
  }

  @Test
  void theSpecIsValidatedInKubesWords() throws Exception {
    String good = TestCsrs.base64(TestCsrs.pem("alice"));
    String prefix = "CertificateSigningRequest.certificates.k8s.io \"bad\" is invalid: ";
    String notPem = b64("hello");
    assertEquals(
        prefix
            + "spec.request: Invalid value: \""
            + notPem
            + "\": PEM block type must be CERTIFICATE REQUEST",
        invalid(csr("bad", SIGNER, notPem)));
    String forged = TestCsrs.base64(TestCsrs.badSignaturePem("alice"));
    assertEquals(
        prefix
            + "spec.request: Invalid value: \""
            + forged
            + "\": x509: ECDSA verification failure",
        invalid(csr("bad", SIGNER, forged)));
    assertEquals(
        prefix
            + "spec.signerName: Invalid value: \"signer\": must be a fully qualified domain and"
            + " path of the form 'example.com/signer-name'",
        invalid(csr("bad", "signer", good)));
    assertEquals(
        prefix
            + "spec.signerName: Invalid value: \"example\": should be a domain with at least two"
            + " segments separated by dots",
        invalid(csr("bad", "example/signer", good)));
    assertEquals(
        prefix
            + "spec.signerName: Invalid value: \"kubernetes.io/legacy-unknown\": the legacy"
            + " signerName is not allowed via this API version",
        invalid(csr("bad", "kubernetes.io/legacy-unknown", good)));
    ObjectNode shortLived = csr("bad", SIGNER, good);
    ((ObjectNode) shortLived.path("spec")).put("expirationSeconds", 599);
    assertEquals(
        prefix
            + "spec.expirationSeconds: Invalid value: 599: may not specify a duration less than"
            + " 600 seconds (10 minutes)",
        invalid(shortLived));
    ObjectNode noUsages = csr("bad", SIGNER, good);
    ((ObjectNode) noUsages.path("spec")).remove("usages");
    assertEquals(prefix + "spec.usages: Required value", invalid(noUsages));
    ObjectNode twice = csr("bad", SIGNER, good);
    ((ArrayNode) twice.path("spec").path("usages")).add("client auth");
    assertEquals(prefix + "spec.usages[1]: Duplicate value: \"client auth\"", invalid(twice));
    ObjectNode unknown = csr("bad", SIGNER, good);
    ((ArrayNode) unknown.path("spec").path("usages")).add("fly");
    assertTrue(
        invalid(unknown)
            .startsWith(
                prefix
                    + "spec.usages[1]: Unsupported value: \"fly\": supported values: \"any\","
                    + " \"cert sign\", \"client auth\""),
        invalid(unknown));
    ObjectNode longLived = csr("ok", SIGNER, good);
    ((ObjectNode) longLived.path("spec")).put("expirationSeconds", 600);
    call(201, "POST", CSRS, longLived);
  }

  @Test
  void discoveryListsTheApprovalSubresource() throws Exception {
    JsonNode list = call(200, "GET", "/apis/certificates.k8s.io/v1", null);
    boolean found = false;
    for (JsonNode resource : list.path("resources")) {
      if (resource.path("name").asText().equals("certificatesigningrequests/approval")) {
        found = true;
        assertEquals(
            List.of("get", "patch", "update"),
            JSON.convertValue(resource.path("verbs"), List.class));
      }
    }
    assertTrue(found, list.toString());
  }
}
