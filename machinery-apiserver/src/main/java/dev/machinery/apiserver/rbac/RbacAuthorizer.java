package dev.machinery.apiserver.rbac;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.authorization.RuleResolver;
import dev.machinery.apiserver.authorization.SubjectRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Kubernetes' RBAC authorizer ({@code --authorization-mode=RBAC}): a request is allowed when a rule
 * of a role bound to its user allows it, first through the ClusterRoleBindings, then through the
 * RoleBindings of the request's namespace; otherwise it has no opinion (a later authorizer may
 * still allow it), with the errors met on the way (a binding to a role that does not exist) as its
 * reason. A subject applies to a user by name ({@code User}), by one of the user's groups ({@code
 * Group}), or as the service account's user name {@code system:serviceaccount:NS:NAME}.
 *
 * <p>Thread-safe: it reads the policy its supplier gives for each request.
 */
public final class RbacAuthorizer implements Authorizer, RuleResolver {
  private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

  private final Supplier<RbacPolicy> policy;

  /**
   * Creates the authorizer over a policy that may change (a server's stored objects).
   *
   * @param policy gives the policy to decide each request by
   */
  public RbacAuthorizer(Supplier<RbacPolicy> policy) {
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  /**
   * Creates the authorizer over a fixed policy.
   *
   * @param policy the policy
   * @return the authorizer
   */
  public static RbacAuthorizer of(RbacPolicy policy) {
    Objects.requireNonNull(policy, "policy");
    return new RbacAuthorizer(() -> policy);
  }

  /**
   * The rules a user holds in a namespace and the errors met while gathering them. Immutable.
   *
   * @param rules the rules, those of ClusterRoleBindings first
   * @param errors what could not be resolved, such as {@code clusterrole.rbac.authorization.k8s.io
   *     "x" not found}
   */
  public record ResolvedRules(List<PolicyRule> rules, List<String> errors) {
    /**
     * Copies the lists.
     *
     * @param rules see the record description
     * @param errors see the record description
     */
    public ResolvedRules {
      rules = List.copyOf(rules);
      errors = List.copyOf(errors);
    }
  }

  @Override
  public Authorization authorize(Attributes attributes) {
    List<String> errors = new ArrayList<>();
    boolean allowed =
        visit(
            policy.get(),
            attributes.user(),
            attributes.namespace(),
            rule -> PolicyRules.allows(attributes, rule),
            errors);
    if (allowed) {
      return Authorization.allow("");
    }
    return Authorization.noOpinion(errors.isEmpty() ? "" : "RBAC: " + aggregate(errors));
  }

  /**
   * Gathers every rule a user holds in a namespace (Kubernetes' {@code RulesFor}).
   *
   * @param user the user
   * @param namespace the namespace, or {@code ""} for the cluster-wide rules only
   * @return the rules and errors
   */
  public ResolvedRules rules(UserInfo user, String namespace) {
    List<PolicyRule> rules = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    visit(
        policy.get(),
        user,
        namespace,
        rule -> {
          rules.add(rule);
          return false;
        },
        errors);
    return new ResolvedRules(rules, errors);
  }

  /**
   * The rules of the role a binding refers to ({@code GetRoleReferenceRules}).
   *
   * @param ref the reference
   * @param namespace the binding's namespace, {@code ""} for a ClusterRoleBinding
   * @return the rules
   * @throws RoleNotFoundException when the role does not exist or the kind is not a role's
   */
  public List<PolicyRule> roleReferenceRules(RoleRef ref, String namespace) {
    return roleRules(policy.get(), ref, namespace);
  }

  @Override
  public SubjectRules rulesFor(UserInfo user, String namespace) {
    ResolvedRules resolved = rules(user, namespace);
    List<SubjectRules.ResourceRule> resources = new ArrayList<>();
    List<SubjectRules.NonResourceRule> paths = new ArrayList<>();
    for (PolicyRule rule : resolved.rules()) {
      if (!rule.resources().isEmpty()) {
        resources.add(
            new SubjectRules.ResourceRule(
                rule.verbs(), rule.apiGroups(), rule.resources(), rule.resourceNames()));
      }
      if (!rule.nonResourceURLs().isEmpty()) {
        paths.add(new SubjectRules.NonResourceRule(rule.verbs(), rule.nonResourceURLs()));
      }
    }
    return new SubjectRules(
        resources, paths, false, resolved.errors().isEmpty() ? "" : aggregate(resolved.errors()));
  }

  /** Go's {@code utilerrors.NewAggregate(...).Error()}: one message alone, several in brackets. */
  static String aggregate(List<String> errors) {
    if (errors.size() == 1) {
      return errors.get(0);
    }
    return "[" + String.join(", ", errors) + "]";
  }

  /** Visits the user's rules until the visitor answers true; returns whether it did. */
  private static boolean visit(
      RbacPolicy policy,
      UserInfo user,
      String namespace,
      Predicate<PolicyRule> visitor,
      List<String> errors) {
    for (ClusterRoleBinding binding : policy.clusterRoleBindings()) {
      if (!appliesTo(user, binding.getSubjects(), "")) {
        continue;
      }
      List<PolicyRule> rules;
      try {
        rules = roleRules(policy, binding.getRoleRef(), "");
      } catch (RoleNotFoundException e) {
        errors.add(e.getMessage());
        continue;
      }
      for (PolicyRule rule : rules) {
        if (visitor.test(rule)) {
          return true;
        }
      }
    }
    if (namespace == null || namespace.isEmpty()) {
      return false;
    }
    for (RoleBinding binding : policy.roleBindings(namespace)) {
      if (!appliesTo(user, binding.getSubjects(), namespace)) {
        continue;
      }
      List<PolicyRule> rules;
      try {
        rules = roleRules(policy, binding.getRoleRef(), namespace);
      } catch (RoleNotFoundException e) {
        errors.add(e.getMessage());
        continue;
      }
      for (PolicyRule rule : rules) {
        if (visitor.test(rule)) {
          return true;
        }
      }
    }
    return false;
  }

  private static List<PolicyRule> roleRules(RbacPolicy policy, RoleRef ref, String namespace) {
    if (ref == null) {
      throw new RoleNotFoundException("unsupported role reference kind: \"\"");
    }
    switch (Objects.requireNonNullElse(ref.kind(), "")) {
      case "Role" -> {
        Optional<Role> role = policy.role(namespace, ref.name());
        if (role.isEmpty()) {
          throw new RoleNotFoundException(
              "role.rbac.authorization.k8s.io \"" + ref.name() + "\" not found");
        }
        return rulesOf(role.get().getRules());
      }
      case "ClusterRole" -> {
        Optional<ClusterRole> role = policy.clusterRole(ref.name());
        if (role.isEmpty()) {
          throw new RoleNotFoundException(
              "clusterrole.rbac.authorization.k8s.io \"" + ref.name() + "\" not found");
        }
        return rulesOf(role.get().getRules());
      }
      default ->
          throw new RoleNotFoundException(
              "unsupported role reference kind: \"" + ref.kind() + "\"");
    }
  }

  private static List<PolicyRule> rulesOf(List<PolicyRule> rules) {
    return rules == null ? List.of() : rules;
  }

  /**
   * Whether any of a binding's subjects is the user ({@code appliesTo}).
   *
   * @param user the user
   * @param subjects the binding's subjects
   * @param namespace the binding's namespace, {@code ""} for a ClusterRoleBinding
   * @return whether the binding applies
   */
  public static boolean appliesTo(UserInfo user, List<Subject> subjects, String namespace) {
    if (subjects == null) {
      return false;
    }
    for (Subject subject : subjects) {
      if (appliesTo(user, subject, namespace)) {
        return true;
      }
    }
    return false;
  }

  private static boolean appliesTo(UserInfo user, Subject subject, String namespace) {
    if (subject == null || subject.kind() == null) {
      return false;
    }
    switch (subject.kind()) {
      case Subject.USER:
        return user.name().equals(subject.name());
      case Subject.GROUP:
        return user.groups().contains(subject.name());
      case Subject.SERVICE_ACCOUNT:
        String saNamespace =
            subject.namespace() == null || subject.namespace().isEmpty()
                ? namespace
                : subject.namespace();
        if (saNamespace == null || saNamespace.isEmpty()) {
          return false;
        }
        return user.name().equals(SERVICE_ACCOUNT_PREFIX + saNamespace + ":" + subject.name());
      default:
        return false;
    }
  }
}
