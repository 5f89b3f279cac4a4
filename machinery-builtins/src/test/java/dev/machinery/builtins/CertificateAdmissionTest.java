package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The {@code CertificateApproval}, {@code CertificateSigning} and {@code
 * CertificateSubjectRestriction} plugins on the cases of their admission_test.go in
 * k8s.io/kubernetes {@code plugin/pkg/admission/certificates}: an authorizer that allows one verb
 * on one name of {@code signers} (group {@code certificates.k8s.io}, version {@code *}) and refuses
 * everything else, or fails.
 */
class CertificateAdmissionTest {
  private static final GroupResource CSRS =
      GroupResource.of("certificates.k8s.io", "certificatesigningrequests");
  private static final UserInfo USER = UserInfo.of("ignored", List.of());

  /** kube's fakeAuthorizer: allows {@code verb} on {@code allowedName} only; fails when told. */
  private static Authorizer fake(String verb, String allowedName, boolean fails) {
    return (Attributes a) -> {
      if (fails) {
        throw new IllegalStateException("forced error");
      }
      if (!a.verb().equals(verb)
          || !a.apiGroup().equals("certificates.k8s.io")
          || !a.apiVersion().equals("*")
          || !a.resource().equals("signers")
          || !a.name().equals(allowedName)
          || !a.resourceRequest()) {
        return Authorization.deny("unrecognised " + a);
      }
      return Authorization.allow("");
    };
  }

  private static Unstructured csr(String signerName, String certificate, String condition) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("apiVersion", "certificates.k8s.io/v1");
    content.put("kind", "CertificateSigningRequest");
    content.put("metadata", new LinkedHashMap<>(Map.of("name", "csr")));
    Map<String, Object> spec = new LinkedHashMap<>();
    if (signerName != null) {
      spec.put("signerName", signerName);
    }
    content.put("spec", spec);
    Map<String, Object> status = new LinkedHashMap<>();
    if (certificate != null) {
      status.put("certificate", certificate);
    }
    if (condition != null) {
      status.put("conditions", new ArrayList<>(List.of(Map.of("type", condition))));
    }
    content.put("status", status);
    return new Unstructured(content);
  }

  private static AdmissionAttributes update(String subresource, Object object, Object old) {
    return new AdmissionAttributes(
        Operation.UPDATE,
        GroupVersion.of("certificates.k8s.io", "v1").withKind("CertificateSigningRequest"),
        CSRS,
        subresource,
        "",
        "csr",
        object,
        old,
        USER,
        false);
  }

  private record Case(
      String name,
      String allowedName,
      boolean fails,
      String subresource,
      Unstructured object,
      Unstructured old,
      boolean allowed) {}

  private static Stream<DynamicTest> run(String verb, List<Case> cases) {
    return cases.stream()
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.name(),
                    () -> {
                      Authorizer authorizer = fake(verb, c.allowedName(), c.fails());
                      ValidatingAdmissionPlugin plugin =
                          verb.equals("approve")
                              ? new CertificateApproval(authorizer)
                              : new CertificateSigning(authorizer);
                      AdmissionAttributes a = update(c.subresource(), c.object(), c.old());
                      if (c.allowed()) {
                        plugin.validate(a);
                      } else {
                        AdmissionException refused =
                            assertThrows(AdmissionException.class, () -> plugin.validate(a));
                        String signer =
                            JsonTrees.string(c.old().content(), "", "spec", "signerName");
                        assertEquals(
                            "user not permitted to "
                                + verb
                                + " requests with signerName \""
                                + signer
                                + "\"",
                            refused.getMessage());
                      }
                    }));
  }

  @TestFactory
  Stream<DynamicTest> approval() {
    Unstructured abc = csr("abc.com/xyz", null, null);
    return run(
        "approve",
        List.of(
            new Case(
                "reject requests if looking up permissions fails",
                "",
                true,
                "approval",
                abc,
                abc,
                false),
            new Case(
                "should allow request if user is authorized for specific signerName",
                "abc.com/xyz",
                false,
                "approval",
                abc,
                abc,
                true),
            new Case(
                "should allow request if user is authorized with wildcard",
                "abc.com/*",
                false,
                "approval",
                abc,
                abc,
                true),
            new Case(
                "should deny request if user does not have permission for this signerName",
                "notabc.com/xyz",
                false,
                "approval",
                abc,
                abc,
                false),
            new Case(
                "should deny request if user attempts to update signerName to a new value"
                    + " they *do* have permission to approve for",
                "allowed.com/xyz",
                false,
                "approval",
                csr("allowed.com/xyz", null, null),
                csr("notallowed.com/xyz", null, null),
                false),
            new Case("ignores the main resource", "", false, "", abc, abc, true),
            new Case("ignores status", "", false, "status", abc, abc, true)));
  }

  @TestFactory
  Stream<DynamicTest> signing() {
    Unstructured unsigned = csr("abc.com/xyz", null, null);
    Unstructured signed = csr("abc.com/xyz", "ZGF0YQ==", null);
    return run(
        "sign",
        List.of(
            new Case(
                "allowed if the 'certificate' and conditions field has not changed",
                "",
                true,
                "status",
                csr(null, "ZGF0YQ==", null),
                csr(null, "ZGF0YQ==", null),
                true),
            new Case(
                "deny request if authz lookup fails on certificate change",
                "abc.com/xyz",
                true,
                "status",
                signed,
                unsigned,
                false),
            new Case(
                "deny request if authz lookup fails on condition change",
                "abc.com/xyz",
                true,
                "status",
                csr("abc.com/xyz", null, "Failed"),
                unsigned,
                false),
            new Case(
                "allow request if user is authorized for specific signerName",
                "abc.com/xyz",
                false,
                "status",
                signed,
                unsigned,
                true),
            new Case(
                "allow request if user is authorized with wildcard",
                "abc.com/*",
                false,
                "status",
                signed,
                unsigned,
                true),
            new Case(
                "should deny request if user does not have permission for this signerName",
                "notabc.com/xyz",
                false,
                "status",
                signed,
                unsigned,
                false),
            new Case(
                "should deny request if user attempts to update signerName to a new value"
                    + " they *do* have permission to sign for",
                "allowed.com/xyz",
                false,
                "status",
                csr("allowed.com/xyz", "ZGF0YQ==", null),
                csr("notallowed.com/xyz", null, null),
                false),
            new Case("ignores approval", "", false, "approval", signed, unsigned, true)));
  }

  private static Unstructured request(String signerName, String pem) {
    Unstructured csr = csr(signerName, null, null);
    JsonTrees.child(csr.content(), "spec").put("request", TestCsrs.base64(pem));
    return csr;
  }

  private static String subjectRestriction(GroupResource resource, String sub, Unstructured csr) {
    AdmissionAttributes a =
        new AdmissionAttributes(
            Operation.CREATE,
            GroupVersion.of("certificates.k8s.io", "v1").withKind("CertificateSigningRequest"),
            resource,
            sub,
            "",
            "pooh",
            csr,
            null,
            USER,
            false);
    try {
      new CertificateSubjectRestriction().validate(a);
      return "";
    } catch (AdmissionException e) {
      return e.getMessage();
    }
  }

  @Test
  void subjectRestriction() {
    String masters = TestCsrs.pem("pooh", "system:masters");
    assertEquals(
        "",
        subjectRestriction(GroupResource.of("foo", "bar"), "", csr(null, null, null)),
        "ignored resource");
    assertEquals(
        "",
        subjectRestriction(
            CSRS, "approve", request("kubernetes.io/kube-apiserver-client", masters)),
        "ignored subresource");
    assertEquals(
        "",
        subjectRestriction(
            CSRS, "", request("kubernetes.io/kube-apiserver-client-kubelet", masters)),
        "some other signer");
    assertEquals(
        "failed to parse CSR: PEM block type must be CERTIFICATE REQUEST",
        subjectRestriction(
            CSRS, "", request("kubernetes.io/kube-apiserver-client", "this is not a CSR")),
        "invalid request");
    assertEquals(
        "",
        subjectRestriction(
            CSRS,
            "",
            request("kubernetes.io/kube-apiserver-client", TestCsrs.pem("pooh", "system:admin"))),
        "some other group");
    assertEquals(
        "use of kubernetes.io/kube-apiserver-client signer with system:masters group is not"
            + " allowed",
        subjectRestriction(CSRS, "", request("kubernetes.io/kube-apiserver-client", masters)),
        "request for system:masters");
    assertEquals(
        "use of kubernetes.io/kube-apiserver-client signer with system:masters group is not"
            + " allowed",
        subjectRestriction(
            CSRS,
            "",
            request(
                "kubernetes.io/kube-apiserver-client",
                TestCsrs.pem("pooh", "system:admin", "system:masters"))),
        "system:masters among other groups");
  }

  @Test
  void wrongType() {
    Object list = List.of();
    String expected = "expected type CertificateSigningRequest, got: " + list.getClass().getName();
    assertEquals(
        expected,
        assertThrows(
                AdmissionException.class,
                () ->
                    new CertificateApproval(fake("approve", "", false))
                        .validate(update("approval", list, list)))
            .getMessage());
    assertEquals(
        expected,
        assertThrows(
                AdmissionException.class,
                () ->
                    new CertificateSigning(fake("sign", "", false))
                        .validate(update("status", list, list)))
            .getMessage());
    AdmissionAttributes create =
        new AdmissionAttributes(
            Operation.CREATE,
            GroupVersion.of("certificates.k8s.io", "v1").withKind("CertificateSigningRequest"),
            CSRS,
            "",
            "",
            "panda",
            list,
            null,
            USER,
            false);
    assertEquals(
        expected,
        assertThrows(
                AdmissionException.class,
                () -> new CertificateSubjectRestriction().validate(create))
            .getMessage());
  }

  @Test
  void theDefaultsRunThePluginsInKubesOrder() {
    List<String> enabled = DefaultAdmission.kubernetes().enabled();
    assertEquals(
        List.of(
            "RuntimeClass",
            "CertificateApproval",
            "CertificateSigning",
            "CertificateSubjectRestriction",
            "DefaultIngressClass",
            "ResourceQuota"),
        enabled.subList(enabled.indexOf("RuntimeClass"), enabled.size()));
  }
}
