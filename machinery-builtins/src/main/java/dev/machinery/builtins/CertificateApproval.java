package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.Map;
import java.util.Objects;

/**
 * kube-apiserver's {@code CertificateApproval} plugin: an update of a CertificateSigningRequest's
 * {@code approval} subresource is refused unless the user may {@code approve} on {@code signers}
 * named by the stored request's signer name or its domain's wildcard ({@link SignerAuthorization}),
 * in kube's words: {@code user not permitted to approve requests with signerName "NAME"}. The
 * stored request's signer is the one checked, so a signer name changed in the same write (which the
 * strategy drops) grants nothing.
 *
 * <p>Thread-safe once initialized.
 */
final class CertificateApproval implements ValidatingAdmissionPlugin {
  static final String NAME = "CertificateApproval";
  static final GroupResource CSRS =
      GroupResource.of("certificates.k8s.io", "certificatesigningrequests");

  private final Loopback loopback = new Loopback();
  private final Authorizer authorizer;

  /** The plugin asking the server's authorizer through access reviews once initialized. */
  CertificateApproval() {
    this.authorizer = SignerAuthorization.throughAccessReviews(loopback);
  }

  /** The plugin asking a given authorizer (tests). */
  CertificateApproval(Authorizer authorizer) {
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

  /**
   * A request's tree; an object of another type (a kind modelled in Java in place of the built-in
   * one) is refused in kube's words.
   */
  static Map<String, Object> content(Object object) {
    try {
      return ((Unstructured) object).content();
    } catch (ClassCastException e) {
      throw new AdmissionException(
          "expected type CertificateSigningRequest, got: "
              + (object == null ? "<nil>" : object.getClass().getName()));
    }
  }

  @Override
  public void validate(AdmissionAttributes a) {
    if (!a.subresource().equals("approval") || !a.resource().equals(CSRS)) {
      return;
    }
    String signerName = JsonTrees.string(content(a.oldObject()), "", "spec", "signerName");
    if (!SignerAuthorization.allowed(authorizer, a.user(), "approve", signerName)) {
      throw new AdmissionException(
          "user not permitted to approve requests with signerName "
              + PodSecurityChecks.goQuote(signerName));
    }
  }
}
