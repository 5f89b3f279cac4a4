package dev.machinery.apiserver.registry.rbac;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.filters.Filter;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.BootstrapPolicy;
import dev.machinery.apiserver.rbac.ClusterRole;
import dev.machinery.apiserver.rbac.ClusterRoleAggregation;
import dev.machinery.apiserver.rbac.ClusterRoleBinding;
import dev.machinery.apiserver.rbac.Escalation;
import dev.machinery.apiserver.rbac.PolicyRule;
import dev.machinery.apiserver.rbac.RbacAuthorizer;
import dev.machinery.apiserver.rbac.RbacPolicy;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.rbac.Reconciliation;
import dev.machinery.apiserver.rbac.Role;
import dev.machinery.apiserver.rbac.RoleBinding;
import dev.machinery.apiserver.rbac.RoleNotFoundException;
import dev.machinery.apiserver.rbac.RoleRef;
import dev.machinery.apiserver.rbac.Subject;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceValidator;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.Validation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * RBAC inside a server: the four resources' definitions (with Kubernetes' validation and escalation
 * prevention), the policy read from their stores, the default roles reconciled at start, and
 * ClusterRole aggregation after each change of a ClusterRole.
 *
 * <p>The policy is read as kube-apiserver's RBAC authorizer reads it, from informers: from the
 * stores' watch caches ({@link ResourceStore#listSeenHere}), which hold every role and binding
 * written through this server before the request, and those written through other servers on the
 * same storage as soon as their watches bring them, with no request to the storage. It is made
 * again only when a role or binding changed, not on every write elsewhere. Thread-safe: the stores
 * and authorizer are set once while the server is built, the snapshot is replaced atomically and
 * aggregation is serialized.
 */
public final class RbacSupport {
  private static final List<PolicyRule> FULL_AUTHORITY =
      List.of(
          PolicyRule.resources(List.of("*"), List.of("*"), List.of("*")),
          PolicyRule.nonResourceURLs(List.of("*"), List.of("*")));

  private final RbacAuthorizer authorizer = new RbacAuthorizer(this::policy);
  private ResourceStore roles;
  private ResourceStore clusterRoles;
  private ResourceStore roleBindings;
  private ResourceStore clusterRoleBindings;
  private Authorizer serverAuthorizer;
  private volatile Snapshot snapshot;

  /** The policy made from the objects listed, the caches' own (compared by identity first). */
  private record Snapshot(List<Object> objects, RbacPolicy policy) {
    /** Whether the objects listed now are those the policy was made from. */
    boolean madeFrom(List<Object> now) {
      if (now.size() != objects.size()) {
        return false;
      }
      for (int i = 0; i < now.size(); i++) {
        Object was = objects.get(i);
        Object is = now.get(i);
        if (was != is && !sameVersion(Accessor.of(was), Accessor.of(is))) {
          return false;
        }
      }
      return true;
    }

    private static boolean sameVersion(MetaObject was, MetaObject is) {
      return Objects.equals(was.getUid(), is.getUid())
          && Objects.equals(was.getResourceVersion(), is.getResourceVersion());
    }
  }

  /** Creates the server's RBAC; {@link #attach} gives it its stores. */
  public RbacSupport() {}

  /**
   * The authorizer over the stored roles and bindings.
   *
   * @return the authorizer
   */
  public RbacAuthorizer authorizer() {
    return authorizer;
  }

  /**
   * The four RBAC resources, with their validation and escalation prevention.
   *
   * @return the resources
   */
  public List<ResourceDefinition> definitions() {
    return List.of(
        ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true)
            .names(RbacSupport::validName)
            .validator(
                byRequester((requester, object, old) -> validateRole(requester, (Role) object)))
            .build(),
        ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "ClusterRole"), false)
            .names(RbacSupport::validName)
            .validator(
                byRequester(
                    (requester, object, old) ->
                        validateClusterRole(requester, (ClusterRole) object)))
            .build(),
        ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "RoleBinding"), true)
            .names(RbacSupport::validName)
            .validator(
                byRequester(
                    (requester, object, old) ->
                        validateRoleBinding(requester, (RoleBinding) object, (RoleBinding) old)))
            .build(),
        ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "ClusterRoleBinding"), false)
            .names(RbacSupport::validName)
            .validator(
                byRequester(
                    (requester, object, old) ->
                        validateClusterRoleBinding(
                            requester, (ClusterRoleBinding) object, (ClusterRoleBinding) old)))
            .build());
  }

  /** A validation that depends on who asks. */
  @FunctionalInterface
  private interface RequesterValidation {
    List<FieldError> validate(Attributes requester, Object object, Object old);
  }

  /**
   * A resource's validator that checks what its requester may grant; without a requester (the
   * server's own writes) it is the server's loopback user, who may grant anything.
   */
  private static ResourceValidator byRequester(RequesterValidation validation) {
    return new ResourceValidator() {
      @Override
      public List<FieldError> validate(Object object, Object old) {
        return validation.validate(ResourceStore.LOOPBACK, object, old);
      }

      @Override
      public List<FieldError> validate(Attributes requester, Object object, Object old) {
        return validation.validate(requester, object, old);
      }
    };
  }

  /**
   * RBAC names are path segments ({@code ValidateRBACName}), so {@code system:basic-user} is one.
   */
  private static List<String> validName(String name, boolean prefix) {
    return Validation.isValidPathSegmentName(name);
  }

  /**
   * Called once while the server is built, with the stores of {@link #definitions()}.
   *
   * @param storesByKind the store of each RBAC kind, by kind
   * @param server the server's whole authorizer, for the {@code escalate} and {@code bind} checks
   */
  public void attach(Map<String, ResourceStore> storesByKind, Authorizer server) {
    this.roles = storesByKind.get("Role");
    this.clusterRoles = storesByKind.get("ClusterRole");
    this.roleBindings = storesByKind.get("RoleBinding");
    this.clusterRoleBindings = storesByKind.get("ClusterRoleBinding");
    this.serverAuthorizer = server;
  }

  private RbacPolicy policy() {
    List<Object> objects = new ArrayList<>();
    for (ResourceStore store : stores()) {
      objects.addAll(store.listSeenHere(o -> true));
    }
    Snapshot current = snapshot;
    if (current != null && current.madeFrom(objects)) {
      return current.policy();
    }
    RbacPolicy policy = RbacPolicy.of(objects);
    snapshot = new Snapshot(objects, policy);
    return policy;
  }

  private List<ResourceStore> stores() {
    return List.of(roles, clusterRoles, roleBindings, clusterRoleBindings);
  }

  /**
   * Whether a decision now reads the policy without waiting: every RBAC store's watch cache already
   * holds the writes made through this server ({@link ResourceStore#holdsWritesMadeHere}), so that
   * a request may be decided on a thread that must not wait.
   *
   * @return true when no decision would wait for a cache or read the storage
   */
  public boolean decidesWithoutWaiting() {
    for (ResourceStore store : stores()) {
      if (!store.holdsWritesMadeHere()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reconciles the default roles and bindings with the stored ones, as kube-apiserver does at start
   * ({@link Reconciliation}, keeping extra rules and subjects): a default absent is created, one
   * that lacks what the default has gets it back, one annotated {@code autoupdate: "false"} is left
   * alone; then aggregates.
   */
  public void bootstrap() {
    for (ClusterRole role : BootstrapPolicy.clusterRoles()) {
      reconcile(role);
    }
    for (ClusterRoleBinding binding : BootstrapPolicy.clusterRoleBindings()) {
      reconcile(binding);
    }
    aggregate();
  }

  private void reconcile(ClusterRole expected) {
    String name = expected.getMetadata().getName();
    ClusterRole stored = (ClusterRole) getIfPresent(clusterRoles, name);
    Reconciliation.RoleResult result = Reconciliation.clusterRole(stored, expected, false);
    if (!result.needsWrite()) {
      return;
    }
    if (result.operation() == Reconciliation.Operation.CREATE) {
      createIfAbsent(clusterRoles, expected);
      return;
    }
    updateElseCreate(
        clusterRoles,
        expected,
        o -> {
          Reconciliation.RoleResult now =
              Reconciliation.clusterRole((ClusterRole) o, expected, false);
          if (now.needsWrite()) {
            now.applyTo((ClusterRole) o);
          }
        });
  }

  private void reconcile(ClusterRoleBinding expected) {
    String name = expected.getMetadata().getName();
    ClusterRoleBinding stored = (ClusterRoleBinding) getIfPresent(clusterRoleBindings, name);
    Reconciliation.BindingResult result =
        Reconciliation.clusterRoleBinding(stored, expected, false);
    if (!result.needsWrite()) {
      return;
    }
    switch (result.operation()) {
      case CREATE -> createIfAbsent(clusterRoleBindings, expected);
      case RECREATE -> {
        // A binding's role cannot change: the stored one goes, the default takes its place.
        try {
          clusterRoleBindings.delete(ResourceStore.LOOPBACK, null, name, null, false);
        } catch (RuntimeException e) {
          if (!ApiErrors.isNotFound(e)) {
            throw e;
          }
        }
        createIfAbsent(clusterRoleBindings, expected);
      }
      default ->
          updateElseCreate(
              clusterRoleBindings,
              expected,
              o -> {
                Reconciliation.BindingResult now =
                    Reconciliation.clusterRoleBinding((ClusterRoleBinding) o, expected, false);
                if (now.needsWrite() && now.operation() == Reconciliation.Operation.UPDATE) {
                  now.applyTo((ClusterRoleBinding) o);
                }
              });
    }
  }

  /**
   * Reconciles a stored default again on the object read for the update (which may have changed
   * since it was compared), or creates the default when it is gone meanwhile.
   */
  private static void updateElseCreate(
      ResourceStore store, Object expected, java.util.function.Consumer<Object> reconcile) {
    try {
      store.update(
          ResourceStore.LOOPBACK,
          null,
          Accessor.of(expected).getName(),
          o -> {
            reconcile.accept(o);
            return o;
          },
          false,
          false);
    } catch (RuntimeException e) {
      if (!ApiErrors.isNotFound(e)) {
        throw e;
      }
      createIfAbsent(store, expected);
    }
  }

  private static Object getIfPresent(ResourceStore store, String name) {
    try {
      return store.get(null, name);
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        return null;
      }
      throw e;
    }
  }

  private static void createIfAbsent(ResourceStore store, Object object) {
    try {
      store.create(ResourceStore.LOOPBACK, object, false);
    } catch (RuntimeException e) {
      if (!ApiErrors.isAlreadyExists(e)) {
        throw e;
      }
    }
  }

  /**
   * The step of the request path after authorization that keeps aggregated ClusterRoles up to date,
   * as kube-controller-manager's aggregation controller: after a request that changed a
   * ClusterRole, the roles that aggregate it are written again.
   *
   * @return the filter
   */
  public Filter aggregationFilter() {
    return (request, next) -> {
      ApiResponse response = next.handle(request);
      afterRequest(request.attributes(), response.status());
      return response;
    };
  }

  private void afterRequest(Attributes attributes, int status) {
    if (status >= 200
        && status < 300
        && attributes.resourceRequest()
        && attributes.apiGroup().equals(RbacV1.GROUP)
        && attributes.resource().equals("clusterroles")
        && List.of("create", "update", "patch", "delete", "deletecollection")
            .contains(attributes.verb())) {
      aggregate();
    }
  }

  synchronized void aggregate() {
    List<ClusterRole> all = new ArrayList<>();
    for (Object o : clusterRoles.list(null, x -> true, 0, null, null).items()) {
      all.add((ClusterRole) o);
    }
    for (Map.Entry<String, List<PolicyRule>> change :
        ClusterRoleAggregation.changes(all).entrySet()) {
      try {
        clusterRoles.update(
            ResourceStore.LOOPBACK,
            null,
            change.getKey(),
            o -> {
              ((ClusterRole) o).setRules(change.getValue());
              return o;
            },
            false,
            false);
      } catch (RuntimeException e) {
        if (!ApiErrors.isNotFound(e)) {
          throw e;
        }
      }
    }
  }

  // Validation and escalation prevention.

  private List<FieldError> validateRole(Attributes requester, Role role) {
    List<FieldError> errors = validateRules(role.getRules(), true);
    if (errors.isEmpty()) {
      String namespace = Objects.requireNonNullElse(role.getMetadata().getNamespace(), "");
      confirmRole(
          requester, "roles", role.getMetadata().getName(), namespace, role.getRules(), false);
    }
    return errors;
  }

  private List<FieldError> validateClusterRole(Attributes requester, ClusterRole role) {
    List<FieldError> errors = validateRules(role.getRules(), false);
    if (errors.isEmpty()) {
      confirmRole(
          requester,
          "clusterroles",
          role.getMetadata().getName(),
          "",
          role.getRules(),
          role.getAggregationRule() != null);
    }
    return errors;
  }

  private List<FieldError> validateRoleBinding(
      Attributes requester, RoleBinding binding, RoleBinding old) {
    List<FieldError> errors =
        validateBinding(
            binding.getRoleRef(),
            old == null ? null : old.getRoleRef(),
            binding.getSubjects(),
            List.of("Role", "ClusterRole"));
    if (errors.isEmpty()) {
      confirmBinding(
          requester,
          "rolebindings",
          binding.getMetadata().getName(),
          Objects.requireNonNullElse(binding.getMetadata().getNamespace(), ""),
          binding.getRoleRef());
    }
    return errors;
  }

  private List<FieldError> validateClusterRoleBinding(
      Attributes requester, ClusterRoleBinding binding, ClusterRoleBinding old) {
    List<FieldError> errors =
        validateBinding(
            binding.getRoleRef(),
            old == null ? null : old.getRoleRef(),
            binding.getSubjects(),
            List.of("ClusterRole"));
    if (errors.isEmpty()) {
      confirmBinding(
          requester,
          "clusterrolebindings",
          binding.getMetadata().getName(),
          "",
          binding.getRoleRef());
    }
    return errors;
  }

  private static List<FieldError> validateRules(List<PolicyRule> rules, boolean namespaced) {
    List<FieldError> errors = new ArrayList<>();
    if (rules == null) {
      return errors;
    }
    for (int i = 0; i < rules.size(); i++) {
      FieldPath path = FieldPath.of("rules").index(i);
      PolicyRule rule = rules.get(i);
      if (rule.verbs().isEmpty()) {
        errors.add(
            FieldError.required(path.child("verbs"), "verbs must contain at least one value"));
      }
      if (namespaced && !rule.nonResourceURLs().isEmpty()) {
        errors.add(
            FieldError.invalid(
                path.child("nonResourceURLs"),
                rule.nonResourceURLs(),
                "namespaced rules cannot apply to non-resource URLs"));
      }
      if (!rule.nonResourceURLs().isEmpty()
          && (!rule.apiGroups().isEmpty() || !rule.resources().isEmpty())) {
        errors.add(
            FieldError.invalid(
                path.child("nonResourceURLs"),
                rule.nonResourceURLs(),
                "rules cannot apply to both regular resources and non-resource URLs"));
      }
      if (rule.nonResourceURLs().isEmpty() && rule.resources().isEmpty()) {
        errors.add(
            FieldError.required(
                path.child("resources"), "resource rules must supply at least one resource"));
      }
      if (rule.nonResourceURLs().isEmpty() && rule.apiGroups().isEmpty()) {
        errors.add(
            FieldError.required(
                path.child("apiGroups"), "resource rules must supply at least one api group"));
      }
    }
    return errors;
  }

  private static List<FieldError> validateBinding(
      RoleRef ref, RoleRef old, List<Subject> subjects, List<String> kinds) {
    List<FieldError> errors = new ArrayList<>();
    FieldPath refPath = FieldPath.of("roleRef");
    if (ref == null) {
      errors.add(FieldError.required(refPath, ""));
      return errors;
    }
    if (!RbacV1.GROUP.equals(ref.apiGroup())) {
      errors.add(
          FieldError.notSupported(
              refPath.child("apiGroup"), ref.apiGroup(), List.of(RbacV1.GROUP)));
    }
    if (ref.kind() == null || !kinds.contains(ref.kind())) {
      errors.add(FieldError.notSupported(refPath.child("kind"), ref.kind(), kinds));
    }
    if (ref.name() == null || ref.name().isEmpty()) {
      errors.add(FieldError.required(refPath.child("name"), ""));
    }
    if (old != null && !old.equals(ref)) {
      errors.add(FieldError.invalid(refPath, ref, "cannot change roleRef"));
    }
    if (subjects != null) {
      for (int i = 0; i < subjects.size(); i++) {
        Subject subject = subjects.get(i);
        FieldPath path = FieldPath.of("subjects").index(i);
        List<String> supported = List.of(Subject.SERVICE_ACCOUNT, Subject.USER, Subject.GROUP);
        if (subject.kind() == null || !supported.contains(subject.kind())) {
          errors.add(FieldError.notSupported(path.child("kind"), subject.kind(), supported));
        }
        if (subject.name() == null || subject.name().isEmpty()) {
          errors.add(FieldError.required(path.child("name"), ""));
        }
      }
    }
    return errors;
  }

  /** Refuses a Role or ClusterRole granting what its author does not hold. */
  private void confirmRole(
      Attributes request,
      String resource,
      String name,
      String namespace,
      List<PolicyRule> rules,
      boolean aggregating) {
    if (privileged(request.user())) {
      return;
    }
    if (serverAuthorizer
        .authorize(
            new Attributes(
                request.user(),
                "escalate",
                true,
                RbacV1.GROUP,
                "*",
                resource,
                "",
                namespace,
                request.name(),
                ""))
        .allowed()) {
      return;
    }
    RbacAuthorizer.ResolvedRules held = authorizer.rules(request.user(), namespace);
    Optional<String> refusal =
        Escalation.refusal(request.user(), held, rules == null ? List.of() : rules);
    if (refusal.isPresent()) {
      throw ApiErrors.newForbidden(new GroupResource(RbacV1.GROUP, resource), name, refusal.get());
    }
    if (aggregating && Escalation.refusal(request.user(), held, FULL_AUTHORITY).isPresent()) {
      throw ApiErrors.newForbidden(
          new GroupResource(RbacV1.GROUP, resource),
          name,
          "must have cluster-admin privileges to use the aggregationRule");
    }
  }

  /** Refuses a binding of a role whose rules its author neither holds nor may bind. */
  private void confirmBinding(
      Attributes request, String resource, String name, String namespace, RoleRef ref) {
    if (privileged(request.user())) {
      return;
    }
    Attributes bind =
        Attributes.resource(
            request.user(),
            "bind",
            RbacV1.GROUP,
            ref.kind().equals("Role") ? "roles" : "clusterroles",
            "",
            namespace,
            ref.name());
    if (serverAuthorizer.authorize(bind).allowed()) {
      return;
    }
    GroupResource groupResource = new GroupResource(RbacV1.GROUP, resource);
    List<PolicyRule> rules;
    try {
      rules = authorizer.roleReferenceRules(ref, namespace);
    } catch (RoleNotFoundException e) {
      throw ApiErrors.newForbidden(groupResource, name, e.getMessage());
    }
    RbacAuthorizer.ResolvedRules held = authorizer.rules(request.user(), namespace);
    Optional<String> refusal = Escalation.refusal(request.user(), held, rules);
    if (refusal.isPresent()) {
      throw ApiErrors.newForbidden(groupResource, name, refusal.get());
    }
  }

  private static boolean privileged(UserInfo user) {
    return user.groups().contains(BootstrapPolicy.SYSTEM_MASTERS);
  }
}
