package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.util.Base64;
import java.util.Map;

/**
 * kube-apiserver's {@code CertificateSubjectRestriction} plugin: a created
 * CertificateSigningRequest for the signer {@code kubernetes.io/kube-apiserver-client} whose
 * PKCS#10 subject has the organization {@code system:masters} is refused ({@code use of
 * kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed}), and so is
 * one whose request cannot be read ({@code failed to parse CSR: ...}).
 *
 * <p>Stateless and thread-safe.
 */
final class CertificateSubjectRestriction implements ValidatingAdmissionPlugin {
  static final String NAME = "CertificateSubjectRestriction";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE;
  }

  @Override
  public void validate(AdmissionAttributes a) {
    if (!a.resource().equals(CertificateApproval.CSRS) || !a.subresource().isEmpty()) {
      return;
    }
    Map<String, Object> csr = CertificateApproval.content(a.object());
    if (!CertificateSigningRequests.KUBE_APISERVER_CLIENT.equals(
        JsonTrees.get(csr, "spec", "signerName"))) {
      return;
    }
    CertificateRequest request;
    try {
      byte[] pem;
      try {
        pem = Base64.getDecoder().decode(JsonTrees.string(csr, "", "spec", "request"));
      } catch (IllegalArgumentException e) {
        throw new CertificateRequest.InvalidRequestException(
            "PEM block type must be CERTIFICATE REQUEST");
      }
      request = CertificateRequest.parse(pem);
    } catch (CertificateRequest.InvalidRequestException e) {
      throw new AdmissionException("failed to parse CSR: " + e.getMessage());
    }
    if (request.organizations().contains("system:masters")) {
      throw new AdmissionException(
          "use of "
              + CertificateSigningRequests.KUBE_APISERVER_CLIENT
              + " signer with system:masters group is not allowed");
    }
  }
}
