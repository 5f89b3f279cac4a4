package dev.machinery.apiserver.rbac;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.conversion.ProtoField;

/**
 * Who a binding grants a role to ({@code rbac.authorization.k8s.io/v1 Subject}): a {@code User}, a
 * {@code Group} (such as {@code system:authenticated}) or a {@code ServiceAccount} (the user {@code
 * system:serviceaccount:NAMESPACE:NAME}; its namespace defaults to the binding's). Immutable.
 *
 * @param kind {@value #USER}, {@value #GROUP} or {@value #SERVICE_ACCOUNT}
 * @param apiGroup {@code rbac.authorization.k8s.io} for users and groups, {@code ""} for service
 *     accounts
 * @param name the name
 * @param namespace the service account's namespace, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Subject(
    @ProtoField(1) String kind,
    @ProtoField(2) String apiGroup,
    @ProtoField(3) String name,
    @ProtoField(4) String namespace) {
  /** The kind of a user subject. */
  public static final String USER = "User";

  /** The kind of a group subject. */
  public static final String GROUP = "Group";

  /** The kind of a service account subject. */
  public static final String SERVICE_ACCOUNT = "ServiceAccount";

  /**
   * A user.
   *
   * @param name the user's name
   * @return the subject
   */
  public static Subject user(String name) {
    return new Subject(USER, RbacV1.GROUP, name, null);
  }

  /**
   * A group.
   *
   * @param name the group's name
   * @return the subject
   */
  public static Subject group(String name) {
    return new Subject(GROUP, RbacV1.GROUP, name, null);
  }

  /**
   * A service account.
   *
   * @param namespace its namespace, or {@code null} for the binding's
   * @param name its name
   * @return the subject
   */
  public static Subject serviceAccount(String namespace, String name) {
    return new Subject(SERVICE_ACCOUNT, "", name, namespace);
  }
}
