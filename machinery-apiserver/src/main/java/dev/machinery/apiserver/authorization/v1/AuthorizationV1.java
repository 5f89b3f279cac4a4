package dev.machinery.apiserver.authorization.v1;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;

/**
 * The {@code authorization.k8s.io/v1} access reviews a server answers: registration of {@link
 * SelfSubjectAccessReview}, {@link SelfSubjectRulesReview}, {@link SubjectAccessReview} and {@link
 * LocalSubjectAccessReview} in a Scheme (the server keeps a Scheme of its own for them; a client
 * registers them in its own). Stateless; thread-safe.
 */
public final class AuthorizationV1 {
  /** The group's name. */
  public static final String GROUP = "authorization.k8s.io";

  /** The group version {@code authorization.k8s.io/v1}. */
  public static final GroupVersion V1 = GroupVersion.of(GROUP, "v1");

  private AuthorizationV1() {}

  /**
   * Registers the four reviews in {@code v1}.
   *
   * @param builder the scheme builder, in which {@code meta.k8s.io/v1} is registered
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    return builder.addKnownTypes(
        V1,
        SelfSubjectAccessReview.class,
        SelfSubjectRulesReview.class,
        SubjectAccessReview.class,
        LocalSubjectAccessReview.class);
  }
}
