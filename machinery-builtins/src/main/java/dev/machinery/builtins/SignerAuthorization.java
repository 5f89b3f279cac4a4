package dev.machinery.builtins;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.unversioned.unstructured.JsonTrees;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a user may act for a signer, as kube's {@code IsAuthorizedForSignerName}
 * (k8s.io/kubernetes {@code plugin/pkg/admission/certificates/util.go}): the verb ({@code approve},
 * {@code sign}) on the resource {@code signers} of {@code certificates.k8s.io}, version {@code *},
 * named by the signer name, or else by its domain with a wildcard ({@code example.com/*}). An
 * authorizer that fails counts as a refusal.
 *
 * <p>Stateless; thread-safe when the authorizer is.
 */
final class SignerAuthorization {
  private static final String REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

  private SignerAuthorization() {}

  /**
   * Asks the authorizer for the signer name, then for its domain's wildcard.
   *
   * @param authorizer the server's authorizer
   * @param user who asks
   * @param verb {@code approve} or {@code sign}
   * @param signerName the request's signer
   * @return whether one of the two is allowed
   */
  static boolean allowed(Authorizer authorizer, UserInfo user, String verb, String signerName) {
    if (decide(authorizer, attributes(user, verb, signerName))) {
      return true;
    }
    String domain = signerName.split("/", -1)[0];
    return decide(authorizer, attributes(user, verb, domain + "/*"));
  }

  private static boolean decide(Authorizer authorizer, Attributes attributes) {
    try {
      return authorizer.authorize(attributes).allowed();
    } catch (RuntimeException e) {
      // Go's helper treats an authorizer's error as not allowed.
      return false;
    }
  }

  static Attributes attributes(UserInfo user, String verb, String name) {
    return new Attributes(
        user, verb, true, "certificates.k8s.io", "*", "signers", "", "", name, "");
  }

  /**
   * The server's authorizer as an admission plugin reaches it: each question is a {@code
   * SubjectAccessReview} created through the plugin's in-process handler (as {@code
   * system:apiserver}), which the server answers with the authorizer it runs every request through
   * — RBAC and the others given to its builder, {@code system:masters} allowed everything.
   *
   * @param loopback the plugin's in-process handler
   * @return the authorizer
   */
  static Authorizer throughAccessReviews(Loopback loopback) {
    return attributes -> {
      Map<String, Object> resource = new LinkedHashMap<>();
      resource.put("group", attributes.apiGroup());
      resource.put("version", attributes.apiVersion());
      resource.put("resource", attributes.resource());
      resource.put("verb", attributes.verb());
      resource.put("name", attributes.name());
      if (!attributes.namespace().isEmpty()) {
        resource.put("namespace", attributes.namespace());
      }
      if (!attributes.subresource().isEmpty()) {
        resource.put("subresource", attributes.subresource());
      }
      UserInfo user = attributes.user();
      Map<String, Object> spec = new LinkedHashMap<>();
      spec.put("resourceAttributes", resource);
      spec.put("user", user.name());
      if (!user.uid().isEmpty()) {
        spec.put("uid", user.uid());
      }
      spec.put("groups", List.copyOf(user.groups()));
      if (!user.extra().isEmpty()) {
        spec.put("extra", new LinkedHashMap<>(user.extra()));
      }
      Map<String, Object> review = new LinkedHashMap<>();
      review.put("apiVersion", "authorization.k8s.io/v1");
      review.put("kind", "SubjectAccessReview");
      review.put("spec", spec);
      Map<String, Object> answer = loopback.post(REVIEWS, review);
      Map<String, Object> status = JsonTrees.map(answer, "status");
      String reason = JsonTrees.string(status, "", "reason");
      if (status != null && Boolean.TRUE.equals(status.get("allowed"))) {
        return Authorization.allow(reason);
      }
      if (status != null && Boolean.TRUE.equals(status.get("denied"))) {
        return Authorization.deny(reason);
      }
      return Authorization.noOpinion(reason);
    };
  }
}
