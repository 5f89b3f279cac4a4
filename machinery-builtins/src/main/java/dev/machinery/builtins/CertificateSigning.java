package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.util.Map;
import java.util.Objects;

/**
 * kube-apiserver's {@code CertificateSigning} plugin: an update of a CertificateSigningRequest's
 * {@code status} subresource that changes {@code status.certificate} or {@code status.conditions}
 * is refused unless the user may {@code sign} on {@code signers} named by the stored request's
 * signer name or its domain's wildcard ({@link SignerAuthorization}), in kube's words: {@code user
 * not permitted to sign requests with signerName "NAME"}. A write that changes neither is let
 * through without asking.
 *
 * <p>Thread-safe once initialized.
 */
final class CertificateSigning implements ValidatingAdmissionPlugin {
  static final String NAME = "CertificateSigning";

  private final Loopback loopback = new Loopback();
  private final Authorizer authorizer;

  /** The plugin asking the server's authorizer through access reviews once initialized. */
  CertificateSigning() {
    this.authorizer = SignerAuthorization.throughAccessReviews(loopback);
  }

  /** The plugin asking a given authorizer (tests). */
  CertificateSigning(Authorizer authorizer) {
    this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.UPDATE;
  }

  @Override
  public void initialize(ApiHandler server) {
    loopback.initialize(server);
  }

  @Override
  public void validate(AdmissionAttributes a) {
    if (!a.subresource().equals("status") || !a.resource().equals(CertificateApproval.CSRS)) {
      return;
    }
    Map<String, Object> old = CertificateApproval.content(a.oldObject());
    Map<String, Object> csr = CertificateApproval.content(a.object());
    if (Objects.equals(
            JsonTrees.get(old, "status", "certificate"),
            JsonTrees.get(csr, "status", "certificate"))
        && JsonTrees.maps(old, "status", "conditions")
            .equals(JsonTrees.maps(csr, "status", "conditions"))) {
      return;
    }
    String signerName = JsonTrees.string(old, "", "spec", "signerName");
    if (!SignerAuthorization.allowed(authorizer, a.user(), "sign", signerName)) {
      throw new AdmissionException(
          "user not permitted to sign requests with signerName "
              + PodSecurityChecks.goQuote(signerName));
    }
  }
}
