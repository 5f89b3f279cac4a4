package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.authentication.Authenticator;
import dev.machinery.apiserver.authentication.TokenFileAuthenticator;
import dev.machinery.apiserver.http.HttpBinding;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequest;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestBuilder;
import io.fabric8.kubernetes.api.model.certificates.v1.CertificateSigningRequestConditionBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The certificate admission plugins on a server with RBAC, through fabric8's client with bearer
 * tokens: a user who may update {@code certificatesigningrequests/approval} but not {@code approve}
 * on the signer is refused in kube's words, and allowed once a ClusterRole grants {@code approve}
 * on {@code signers} named by the signer's domain wildcard; the same for {@code sign} on {@code
 * status}; a {@code kubernetes.io/kube-apiserver-client} request for {@code system:masters} is
 * refused even to an administrator.
 */
class CertificateRbacTest {
  private static final String SIGNER = "example.com/signer";

  private ApiServer server;
  private HttpBinding binding;
  private KubernetesClient admin;
  private KubernetesClient alice;

  @BeforeEach
  void start() throws IOException {
    server =
        BuiltinKinds.apiServer()
            .rbac()
            .authenticator(
                Authenticator.chain(
                    List.of(
                        TokenFileAuthenticator.parse(
                            "admin-token,admin,uid-admin,\"system:masters\"\n"
                                + "alice-token,alice,uid-alice,\"system:authenticated\"\n")),
                    false))
            .build();
    binding = server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    admin = client("admin-token");
    alice = client("alice-token");
    // alice may read requests and write their approval and status: the plugins decide the rest.
    admin
        .rbac()
        .clusterRoles()
        .resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName("csr-writer")
                .endMetadata()
                .addNewRule()
                .withApiGroups("certificates.k8s.io")
                .withResources(
                    "certificatesigningrequests",
                    "certificatesigningrequests/approval",
                    "certificatesigningrequests/status")
                .withVerbs("get", "list", "update", "patch")
                .endRule()
                .build())
        .create();
    bind("csr-writer");
  }

  @AfterEach
  void stop() {
    alice.close();
    admin.close();
    binding.close();
    server.close();
  }

  private KubernetesClient client(String token) {
    Config config =
        new ConfigBuilder()
            .withMasterUrl("http://127.0.0.1:" + binding.port())
            .withOauthToken(token)
            .withRequestRetryBackoffLimit(0)
            .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private void bind(String role) {
    admin
        .rbac()
        .clusterRoleBindings()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName("alice-" + role)
                .endMetadata()
                .withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("ClusterRole")
                .withName(role)
                .endRoleRef()
                .addNewSubject()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("User")
                .withName("alice")
                .endSubject()
                .build())
        .create();
  }

  private void grant(String name, String verb, String signerName) {
    admin
        .rbac()
        .clusterRoles()
        .resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .addNewRule()
                .withApiGroups("certificates.k8s.io")
                .withResources("signers")
                .withResourceNames(signerName)
                .withVerbs(verb)
                .endRule()
                .build())
        .create();
    bind(name);
  }

  private CertificateSigningRequest create(String name, String signer, String pem) {
    return admin
        .certificates()
        .v1()
        .certificateSigningRequests()
        .resource(
            new CertificateSigningRequestBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withRequest(
                    Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII)))
                .withSignerName(signer)
                .withUsages("client auth")
                .endSpec()
                .build())
        .create();
  }

  private void approve(KubernetesClient client, String name) {
    client
        .certificates()
        .v1()
        .certificateSigningRequests()
        .withName(name)
        .approve(
            new CertificateSigningRequestConditionBuilder()
                .withType("Approved")
                .withStatus("True")
                .withReason("Test")
                .build());
  }

  @Test
  void approvingNeedsApproveOnTheSigner() {
    create("approve-me", SIGNER, TestCsrs.pem("alice"));
    KubernetesClientException refused =
        assertThrows(KubernetesClientException.class, () -> approve(alice, "approve-me"));
    assertEquals(403, refused.getCode());
    assertEquals(
        "certificatesigningrequests.certificates.k8s.io \"approve-me\" is forbidden: user not"
            + " permitted to approve requests with signerName \"example.com/signer\"",
        refused.getStatus().getMessage());

    grant("approve-example", "approve", "example.com/*");
    approve(alice, "approve-me");
    CertificateSigningRequest approved =
        admin.certificates().v1().certificateSigningRequests().withName("approve-me").get();
    assertEquals("Approved", approved.getStatus().getConditions().get(0).getType());
  }

  @Test
  void issuingNeedsSignOnTheSigner() {
    CertificateSigningRequest csr = create("sign-me", SIGNER, TestCsrs.pem("alice"));
    approve(admin, "sign-me");
    csr = admin.certificates().v1().certificateSigningRequests().withName("sign-me").get();
    csr.getStatus()
        .getConditions()
        .add(
            new CertificateSigningRequestConditionBuilder()
                .withType("Failed")
                .withStatus("True")
                .withReason("SignerFailed")
                .build());
    CertificateSigningRequest failed = csr;
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                alice
                    .certificates()
                    .v1()
                    .certificateSigningRequests()
                    .resource(failed)
                    .updateStatus());
    assertEquals(403, refused.getCode());
    assertEquals(
        "certificatesigningrequests.certificates.k8s.io \"sign-me\" is forbidden: user not"
            + " permitted to sign requests with signerName \"example.com/signer\"",
        refused.getStatus().getMessage());

    grant("sign-example", "sign", SIGNER);
    CertificateSigningRequest written =
        alice.certificates().v1().certificateSigningRequests().resource(failed).updateStatus();
    assertEquals("Failed", written.getStatus().getConditions().get(1).getType());
  }

  @Test
  void noClientCertificateForSystemMasters() {
    KubernetesClientException refused =
        assertThrows(
            KubernetesClientException.class,
            () ->
                create(
                    "masters",
                    "kubernetes.io/kube-apiserver-client",
                    TestCsrs.pem("mallory", "system:masters")));
    assertEquals(403, refused.getCode());
    assertEquals(
        "certificatesigningrequests.certificates.k8s.io \"masters\" is forbidden: use of"
            + " kubernetes.io/kube-apiserver-client signer with system:masters group is not"
            + " allowed",
        refused.getStatus().getMessage());
    create("not-masters", "kubernetes.io/kube-apiserver-client", TestCsrs.pem("bob", "team"));
  }
}
