package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.testing.Kubectl;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code kubectl certificate approve} and {@code deny} (which PUT the {@code approval} subresource)
 * through every real kubectl on the machine, on a server of {@link BuiltinKinds#apiServer()}: a
 * request created with {@code kubectl apply} is approved (its {@code Approved} condition read back
 * with kubectl's reason {@code KubectlApprove}) and listed with kube-apiserver's columns ({@code
 * SIGNERNAME}, {@code REQUESTOR}, {@code CONDITION}), another denied ({@code KubectlDeny});
 * approving a denied request is refused by kubectl from the conditions read back.
 */
class CertificateKubectlTest extends KubectlSuite {
  @TestFactory
  Stream<DynamicTest> everyKubectl() throws IOException {
    return everyKubectl(this::scenario);
  }

  private static String manifest(String name) {
    return "apiVersion: certificates.k8s.io/v1\n"
        + "kind: CertificateSigningRequest\n"
        + "metadata:\n"
        + "  name: "
        + name
        + "\n"
        + "spec:\n"
        + "  request: "
        + TestCsrs.base64(TestCsrs.pem(name))
        + "\n"
        + "  signerName: example.com/signer\n"
        + "  usages: [\"client auth\"]\n";
  }

  private void scenario(Kubectl kubectl) throws Exception {
    String prefix = kubectl.name.replace('.', '-').toLowerCase(Locale.ROOT);
    String approved = prefix + "-approved";
    String denied = prefix + "-denied";
    Kubectl.Result created =
        kubectl.run(Map.of(), manifest(approved) + "---\n" + manifest(denied), "apply", "-f", "-");
    assertEquals(0, created.exitCode(), created.all());

    Kubectl.Result approve = kubectl.run("certificate", "approve", approved);
    assertEquals(0, approve.exitCode(), approve.all());
    assertEquals(
        "certificatesigningrequest.certificates.k8s.io/" + approved + " approved",
        approve.out().trim());
    Kubectl.Result condition =
        kubectl.run(
            "get",
            "csr",
            approved,
            "-o",
            "jsonpath={.status.conditions[0].type}/{.status.conditions[0].reason}");
    assertEquals("Approved/KubectlApprove", condition.out().trim(), condition.all());

    // kube-apiserver's columns, the age second.
    Kubectl.Result table = kubectl.run("get", "csr", approved);
    assertEquals(0, table.exitCode(), table.all());
    String[] lines = table.out().strip().split("\n");
    assertEquals(
        List.of("NAME", "AGE", "SIGNERNAME", "REQUESTOR", "REQUESTEDDURATION", "CONDITION"),
        List.of(lines[0].trim().split("\\s+")),
        table.all());
    List<String> row = List.of(lines[1].trim().split("\\s+"));
    assertEquals(approved, row.get(0), table.all());
    assertEquals(
        List.of("example.com/signer", "system:anonymous", "<none>", "Approved"),
        row.subList(2, 6),
        table.all());

    Kubectl.Result deny = kubectl.run("certificate", "deny", denied);
    assertEquals(0, deny.exitCode(), deny.all());
    assertEquals(
        "certificatesigningrequest.certificates.k8s.io/" + denied + " denied", deny.out().trim());
    condition =
        kubectl.run(
            "get",
            "csr",
            denied,
            "-o",
            "jsonpath={.status.conditions[0].type}/{.status.conditions[0].reason}");
    assertEquals("Denied/KubectlDeny", condition.out().trim(), condition.all());

    // kubectl reads the request back and refuses to approve what was denied.
    Kubectl.Result again = kubectl.run("certificate", "approve", denied);
    assertNotEquals(0, again.exitCode(), again.all());
    assertTrue(again.all().contains("is already Denied"), again.all());
  }
}
