package dev.machinery.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.authorization.Authorizer;
import java.util.List;

/**
 * Kubernetes' CEL authorizer library, as ValidatingAdmissionPolicies use it: {@code
 * authorizer.group(g).resource(r).subresource(s).namespace(ns).name(n).check(verb)}, {@code
 * authorizer.path(p).check(verb)}, {@code authorizer.serviceAccount(ns, name)}, {@code
 * authorizer.requestResource}, and a decision's {@code allowed()}, {@code reason()}, {@code
 * errored()} and {@code error()}, asked of the server's {@link Authorizer}. Stateless.
 */
final class AuthorizerLibrary {
  static final OpaqueType AUTHORIZER = OpaqueType.create("kubernetes.authorization.Authorizer");
  static final OpaqueType PATH_CHECK = OpaqueType.create("kubernetes.authorization.PathCheck");
  static final OpaqueType GROUP_CHECK = OpaqueType.create("kubernetes.authorization.GroupCheck");
  static final OpaqueType RESOURCE_CHECK =
      OpaqueType.create("kubernetes.authorization.ResourceCheck");
  static final OpaqueType DECISION = OpaqueType.create("kubernetes.authorization.Decision");

  private AuthorizerLibrary() {}

  /** The authorizer of one user. */
  record Authz(Authorizer authorizer, UserInfo user) {}

  record PathCheck(Authz authz, String path) {}

  record GroupCheck(Authz authz, String group) {}

  record ResourceCheck(
      Authz authz,
      String group,
      String version,
      String resource,
      String subresource,
      String namespace,
      String name) {
    ResourceCheck with(int part, String value) {
      return new ResourceCheck(
          authz,
          group,
          version,
          part == 0 ? value : resource,
          part == 1 ? value : subresource,
          part == 2 ? value : namespace,
          part == 3 ? value : name);
    }
  }

  record Decision(Authorization authorization) {}

  static List<CelFunctionDecl> declarations() {
    return List.of(
        member("path", "authorizer_path", PATH_CHECK, AUTHORIZER, SimpleType.STRING),
        member("group", "authorizer_group", GROUP_CHECK, AUTHORIZER, SimpleType.STRING),
        CelFunctionDecl.newFunctionDeclaration(
            "serviceAccount",
            CelOverloadDecl.newMemberOverload(
                "authorizer_serviceaccount",
                AUTHORIZER,
                AUTHORIZER,
                SimpleType.STRING,
                SimpleType.STRING)),
        member("resource", "groupcheck_resource", RESOURCE_CHECK, GROUP_CHECK, SimpleType.STRING),
        member(
            "subresource",
            "resourcecheck_subresource",
            RESOURCE_CHECK,
            RESOURCE_CHECK,
            SimpleType.STRING),
        member(
            "namespace",
            "resourcecheck_namespace",
            RESOURCE_CHECK,
            RESOURCE_CHECK,
            SimpleType.STRING),
        member("name", "resourcecheck_name", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING),
        CelFunctionDecl.newFunctionDeclaration(
            "check",
            CelOverloadDecl.newMemberOverload(
                "pathcheck_check", DECISION, PATH_CHECK, SimpleType.STRING),
            CelOverloadDecl.newMemberOverload(
                "resourcecheck_check", DECISION, RESOURCE_CHECK, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration(
            "allowed",
            CelOverloadDecl.newMemberOverload("decision_allowed", SimpleType.BOOL, DECISION)),
        CelFunctionDecl.newFunctionDeclaration(
            "reason",
            CelOverloadDecl.newMemberOverload("decision_reason", SimpleType.STRING, DECISION)),
        CelFunctionDecl.newFunctionDeclaration(
            "errored",
            CelOverloadDecl.newMemberOverload("decision_errored", SimpleType.BOOL, DECISION)),
        CelFunctionDecl.newFunctionDeclaration(
            "error",
            CelOverloadDecl.newMemberOverload("decision_error", SimpleType.STRING, DECISION)));
  }

  private static CelFunctionDecl member(
      String name,
      String id,
      OpaqueType result,
      OpaqueType target,
      dev.cel.common.types.CelType arg) {
    return CelFunctionDecl.newFunctionDeclaration(
        name, CelOverloadDecl.newMemberOverload(id, result, target, arg));
  }

  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from(
            "authorizer_path", Authz.class, String.class, (a, p) -> new PathCheck(a, p)),
        CelFunctionBinding.from(
            "authorizer_group", Authz.class, String.class, (a, g) -> new GroupCheck(a, g)),
        CelFunctionBinding.from(
            "authorizer_serviceaccount",
            List.of(Authz.class, String.class, String.class),
            args -> serviceAccount((Authz) args[0], (String) args[1], (String) args[2])),
        CelFunctionBinding.from(
            "groupcheck_resource",
            GroupCheck.class,
            String.class,
            (g, r) -> new ResourceCheck(g.authz(), g.group(), "*", r, "", "", "")),
        CelFunctionBinding.from(
            "resourcecheck_subresource", ResourceCheck.class, String.class, (c, v) -> c.with(1, v)),
        CelFunctionBinding.from(
            "resourcecheck_namespace", ResourceCheck.class, String.class, (c, v) -> c.with(2, v)),
        CelFunctionBinding.from(
            "resourcecheck_name", ResourceCheck.class, String.class, (c, v) -> c.with(3, v)),
        CelFunctionBinding.from(
            "pathcheck_check",
            PathCheck.class,
            String.class,
            (c, verb) ->
                decide(
                    c.authz(),
                    new Attributes(
                        c.authz().user(),
                        verb.toLowerCase(java.util.Locale.ROOT),
                        false,
                        "",
                        "",
                        "",
                        "",
                        "",
                        "",
                        c.path()))),
        CelFunctionBinding.from(
            "resourcecheck_check",
            ResourceCheck.class,
            String.class,
            (c, verb) ->
                decide(
                    c.authz(),
                    new Attributes(
                        c.authz().user(),
                        verb,
                        true,
                        c.group(),
                        c.version(),
                        c.resource(),
                        c.subresource(),
                        c.namespace(),
                        c.name(),
                        ""))),
        CelFunctionBinding.from(
            "decision_allowed", Decision.class, d -> d.authorization().allowed()),
        CelFunctionBinding.from("decision_reason", Decision.class, d -> d.authorization().reason()),
        CelFunctionBinding.from("decision_errored", Decision.class, d -> false),
        CelFunctionBinding.from("decision_error", Decision.class, d -> ""));
  }

  private static Decision decide(Authz authz, Attributes attributes) {
    return new Decision(authz.authorizer().authorize(attributes));
  }

  private static Authz serviceAccount(Authz authz, String namespace, String name) {
    UserInfo user =
        UserInfo.of(
            "system:serviceaccount:" + namespace + ":" + name,
            List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace));
    return new Authz(authz.authorizer(), user);
  }

  /** The {@code authorizer.requestResource} of a write. */
  static ResourceCheck requestResource(Authz authz, List<String> parts) {
    return new ResourceCheck(
        authz, parts.get(0), parts.get(1), parts.get(2), parts.get(3), parts.get(4), parts.get(5));
  }
}
