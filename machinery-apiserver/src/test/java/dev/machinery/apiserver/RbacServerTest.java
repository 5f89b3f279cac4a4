package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.v1.AuthorizationV1;
import dev.machinery.apiserver.authorization.v1.ResourceAttributes;
import dev.machinery.apiserver.authorization.v1.SelfSubjectAccessReview;
import dev.machinery.apiserver.authorization.v1.SelfSubjectAccessReviewSpec;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server with {@code rbac()}: the default roles, 403s worded as kube-apiserver's, escalation
 * prevention for roles and bindings (with {@code bind} and {@code escalate}), aggregation after a
 * change, {@code system:masters}, and the access reviews.
 */
class RbacServerTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String RBAC = "/apis/rbac.authorization.k8s.io/v1";
  private static final UserInfo JANE = UserInfo.of("jane", List.of("system:authenticated"));
  private static final UserInfo BOB = UserInfo.of("bob", List.of("system:authenticated"));
  private static final UserInfo ANONYMOUS =
      UserInfo.of("system:anonymous", List.of("system:unauthenticated"));

  private ApiServer server;

  static Scheme scheme() {
    return RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
  }

  @BeforeEach
  void start() {
    server = ApiServer.builder(scheme()).rbac().build();
    // jane is admin of the namespace "team".
    created(
        ApiServer.LOOPBACK_USER,
        RBAC + "/namespaces/team/rolebindings",
        binding("RoleBinding", "jane-admin", "ClusterRole", "admin", "User", "jane"));
  }

  private static String binding(
      String kind, String name, String roleKind, String role, String subjectKind, String subject) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\""
        + kind
        + "\",\"metadata\":{\"name\":\""
        + name
        + "\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\""
        + roleKind
        + "\",\"name\":\""
        + role
        + "\"},\"subjects\":[{\"kind\":\""
        + subjectKind
        + "\",\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\""
        + subject
        + "\"}]}";
  }

  private static String role(String kind, String name, String labels, String rules) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\""
        + kind
        + "\",\"metadata\":{\"name\":\""
        + name
        + "\",\"labels\":{"
        + labels
        + "}},\"rules\":["
        + rules
        + "]}";
  }

  private ApiResponse call(UserInfo user, String method, String path, String body) {
    return call(server, user, method, path, body);
  }

  /** A request as a user, with a JSON body or none. */
  static ApiResponse call(
      ApiServer server, UserInfo user, String method, String path, String body) {
    return server.handleAs(
        user,
        new ApiRequest(
            method,
            path,
            Map.of(),
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static JsonNode json(ApiResponse response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError(new String(response.body(), StandardCharsets.UTF_8), e);
    }
  }

  private JsonNode created(UserInfo user, String path, String body) {
    ApiResponse response = call(user, "POST", path, body);
    assertEquals(201, response.status(), () -> new String(response.body(), StandardCharsets.UTF_8));
    return json(response);
  }

  private String forbidden(UserInfo user, String method, String path, String body) {
    ApiResponse response = call(user, method, path, body);
    JsonNode status = json(response);
    assertEquals(403, response.status(), status::toString);
    assertEquals("Forbidden", status.path("reason").asText());
    return status.path("message").asText();
  }

  @Test
  void requestsNoRuleAllowsAreForbiddenInKubeApiserversWords() {
    assertEquals(
        "rolebindings.rbac.authorization.k8s.io is forbidden: User \"bob\" cannot list resource"
            + " \"rolebindings\" in API group \"rbac.authorization.k8s.io\" in the namespace"
            + " \"team\"",
        forbidden(BOB, "GET", RBAC + "/namespaces/team/rolebindings", null));
    assertEquals(
        "clusterroles.rbac.authorization.k8s.io \"admin\" is forbidden: User \"jane\" cannot get"
            + " resource \"clusterroles\" in API group \"rbac.authorization.k8s.io\" at the cluster"
            + " scope",
        forbidden(JANE, "GET", RBAC + "/clusterroles/admin", null));
    assertEquals(
        "forbidden: User \"system:anonymous\" cannot get path \"/apis\"",
        forbidden(ANONYMOUS, "GET", "/apis", null));
    ApiResponse details = call(BOB, "GET", RBAC + "/namespaces/team/rolebindings/x", null);
    JsonNode status = json(details);
    assertEquals("x", status.path("details").path("name").asText());
    assertEquals("rbac.authorization.k8s.io", status.path("details").path("group").asText());
    assertEquals("rolebindings", status.path("details").path("kind").asText());
  }

  @Test
  void aNamespaceAdminSeesNothingOutsideItNotInAListNorInAWatch() {
    // jane is admin of "team" only: lists and watches across namespaces or in another are refused
    // before anything is read, so no object of another namespace reaches her.
    created(
        ApiServer.LOOPBACK_USER,
        RBAC + "/namespaces/other/roles",
        role("Role", "secret-plans", "", ""));
    assertEquals(200, call(JANE, "GET", RBAC + "/namespaces/team/roles", null).status());
    assertEquals(
        "roles.rbac.authorization.k8s.io is forbidden: User \"jane\" cannot list resource"
            + " \"roles\" in API group \"rbac.authorization.k8s.io\" at the cluster scope",
        forbidden(JANE, "GET", RBAC + "/roles", null));
    assertEquals(
        "roles.rbac.authorization.k8s.io is forbidden: User \"jane\" cannot list resource"
            + " \"roles\" in API group \"rbac.authorization.k8s.io\" in the namespace \"other\"",
        forbidden(JANE, "GET", RBAC + "/namespaces/other/roles", null));
    assertEquals(
        "roles.rbac.authorization.k8s.io \"secret-plans\" is forbidden: User \"jane\" cannot get"
            + " resource \"roles\" in API group \"rbac.authorization.k8s.io\" in the namespace"
            + " \"other\"",
        forbidden(JANE, "GET", RBAC + "/namespaces/other/roles/secret-plans", null));
    assertEquals(
        "roles.rbac.authorization.k8s.io is forbidden: User \"jane\" cannot watch resource"
            + " \"roles\" in API group \"rbac.authorization.k8s.io\" in the namespace \"other\"",
        forbidden(JANE, "GET", RBAC + "/watch/namespaces/other/roles", null));
    assertEquals(
        "roles.rbac.authorization.k8s.io is forbidden: User \"jane\" cannot watch resource"
            + " \"roles\" in API group \"rbac.authorization.k8s.io\" at the cluster scope",
        forbidden(JANE, "GET", RBAC + "/watch/roles", null));
  }

  private ApiResponse as(
      UserInfo user, Map<String, List<String>> headers, String path, String body) {
    Map<String, List<String>> all = new java.util.HashMap<>(headers);
    all.put("Content-Type", List.of("application/json"));
    return server.handleAs(
        user,
        new ApiRequest(
            body == null ? "GET" : "POST",
            path,
            Map.of(),
            all,
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void impersonationActsAsTheUserWhenAllowedAndIsRefusedInKubeApiserversWordsWhenNot() {
    UserInfo root = UserInfo.of("root", List.of("system:masters"));
    ApiResponse asJane =
        as(
            root,
            Map.of("Impersonate-User", List.of("jane")),
            RBAC + "/namespaces/other/roles",
            null);
    assertEquals(403, asJane.status());
    assertEquals(
        "roles.rbac.authorization.k8s.io is forbidden: User \"jane\" cannot list resource"
            + " \"roles\" in API group \"rbac.authorization.k8s.io\" in the namespace \"other\"",
        json(asJane).path("message").asText());
    assertEquals(
        200,
        as(root, Map.of("Impersonate-User", List.of("jane")), RBAC + "/namespaces/team/roles", null)
            .status());
    ApiResponse refused =
        as(JANE, Map.of("Impersonate-User", List.of("bob")), RBAC + "/namespaces/team/roles", null);
    assertEquals(403, refused.status());
    assertEquals(
        "users \"bob\" is forbidden: User \"jane\" cannot impersonate resource \"users\" in API"
            + " group \"\" at the cluster scope",
        json(refused).path("message").asText());
    ApiResponse group =
        as(
            JANE,
            Map.of(
                "Impersonate-User",
                List.of("jane"),
                "Impersonate-Group",
                List.of("system:masters")),
            RBAC + "/clusterroles",
            null);
    assertEquals(403, group.status());
    assertEquals(
        "users \"jane\" is forbidden: User \"jane\" cannot impersonate resource \"users\" in"
            + " API group \"\" at the cluster scope",
        json(group).path("message").asText());
    ApiResponse noUser =
        as(root, Map.of("Impersonate-Group", List.of("devs")), RBAC + "/clusterroles", null);
    assertEquals(400, noUser.status());
    assertEquals(
        "requested [Impersonate-Group: devs] without impersonating a user",
        json(noUser).path("message").asText());
    JsonNode whoami =
        json(
            as(
                root,
                Map.of("Impersonate-User", List.of("system:serviceaccount:team:builder")),
                "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}"));
    assertEquals(
        "{\"username\":\"system:serviceaccount:team:builder\",\"groups\":"
            + "[\"system:serviceaccounts\",\"system:serviceaccounts:team\","
            + "\"system:authenticated\"]}",
        whoami.path("status").path("userInfo").toString());
  }

  @Test
  void defaultBindingsLetEveryoneSeeVersionAndAuthenticatedUsersDiscover() {
    assertEquals(200, call(ANONYMOUS, "GET", "/version", null).status());
    assertEquals(200, call(ANONYMOUS, "GET", "/healthz", null).status());
    assertEquals(200, call(BOB, "GET", "/apis", null).status());
    assertEquals(200, call(BOB, "GET", "/api", null).status());
    assertEquals(200, call(JANE, "GET", RBAC + "/namespaces/team/rolebindings", null).status());
  }

  @Test
  void systemMastersMayDoAnything() {
    UserInfo root = UserInfo.of("root", List.of("system:masters"));
    assertEquals(200, call(root, "GET", RBAC + "/clusterroles/cluster-admin", null).status());
    assertEquals(404, call(root, "GET", "/apis/example.com/v1/things", null).status());
  }

  @Test
  void defaultRolesAreAggregated() {
    JsonNode admin = json(call(ApiServer.LOOPBACK_USER, "GET", RBAC + "/clusterroles/admin", null));
    assertTrue(admin.path("rules").toString().contains("\"rolebindings\""), "admin: " + admin);
    assertTrue(admin.path("rules").toString().contains("\"pods/log\""), "admin: " + admin);
    JsonNode view = json(call(ApiServer.LOOPBACK_USER, "GET", RBAC + "/clusterroles/view", null));
    assertFalse(view.path("rules").toString().contains("\"secrets\""), "view: " + view);
    assertEquals(
        "true",
        view.path("metadata")
            .path("annotations")
            .path("rbac.authorization.kubernetes.io/autoupdate")
            .asText());
  }

  @Test
  void aNewLabelledClusterRoleIsAggregatedIntoViewEditAndAdmin() {
    created(
        ApiServer.LOOPBACK_USER,
        RBAC + "/clusterroles",
        role(
            "ClusterRole",
            "widgets-view",
            "\"rbac.authorization.k8s.io/aggregate-to-view\":\"true\"",
            "{\"verbs\":[\"get\"],\"apiGroups\":[\"example.com\"],\"resources\":[\"widgets\"]}"));
    for (String name : List.of("view", "edit", "admin")) {
      JsonNode role =
          json(call(ApiServer.LOOPBACK_USER, "GET", RBAC + "/clusterroles/" + name, null));
      assertTrue(role.path("rules").toString().contains("\"widgets\""), name + ": " + role);
    }
    assertEquals(
        200,
        call(ApiServer.LOOPBACK_USER, "DELETE", RBAC + "/clusterroles/widgets-view", null)
            .status());
    JsonNode view = json(call(ApiServer.LOOPBACK_USER, "GET", RBAC + "/clusterroles/view", null));
    assertFalse(view.path("rules").toString().contains("\"widgets\""), "view: " + view);
  }

  @Test
  void bindingARoleNotHeldIsRefusedWithoutBind() {
    assertEquals(
        "rolebindings.rbac.authorization.k8s.io \"steal\" is forbidden: user \"jane\""
            + " (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not"
            + " currently held:\n"
            + "{APIGroups:[\"*\"], Resources:[\"*\"], Verbs:[\"*\"]}\n"
            + "{NonResourceURLs:[\"*\"], Verbs:[\"*\"]}",
        forbidden(
            JANE,
            "POST",
            RBAC + "/namespaces/team/rolebindings",
            binding("RoleBinding", "steal", "ClusterRole", "cluster-admin", "User", "jane")));
    // Granting what she holds is fine: view is within admin.
    created(
        JANE,
        RBAC + "/namespaces/team/rolebindings",
        binding("RoleBinding", "bob-view", "ClusterRole", "view", "User", "bob"));
    // view grants no RBAC objects.
    forbidden(BOB, "GET", RBAC + "/namespaces/team/roles", null);
  }

  @Test
  void bindOnTheRoleAllowsBindingIt() {
    created(
        ApiServer.LOOPBACK_USER,
        RBAC + "/clusterroles",
        role(
            "ClusterRole",
            "binder",
            "",
            "{\"verbs\":[\"bind\"],\"apiGroups\":[\"rbac.authorization.k8s.io\"],"
                + "\"resources\":[\"clusterroles\"],\"resourceNames\":[\"cluster-admin\"]}"));
    created(
        ApiServer.LOOPBACK_USER,
        RBAC + "/namespaces/team/rolebindings",
        binding("RoleBinding", "jane-binder", "ClusterRole", "binder", "User", "jane"));
    created(
        JANE,
        RBAC + "/namespaces/team/rolebindings",
        binding("RoleBinding", "bob-admin", "ClusterRole", "cluster-admin", "User", "bob"));
    assertEquals(200, call(BOB, "GET", RBAC + "/namespaces/team/roles", null).status());
    // bind is on cluster-admin only.
    forbidden(
        JANE,
        "POST",
        RBAC + "/clusterrolebindings",
        binding("ClusterRoleBinding", "jane-root", "ClusterRole", "cluster-admin", "User", "jane"));
  }

  @Test
  void aRoleGrantingMoreThanHeldIsRefusedWithoutEscalate() {
    created(
        JANE,
        RBAC + "/namespaces/team/roles",
        role(
            "Role",
            "secrets",
            "",
            "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"secrets\"]}"));
    String nodes =
        role(
            "Role",
            "nodes",
            "",
            "{\"verbs\":[\"get\",\"list\"],\"apiGroups\":[\"\"],\"resources\":[\"nodes\"]}");
    assertEquals(
        "roles.rbac.authorization.k8s.io \"nodes\" is forbidden: user \"jane\""
            + " (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not"
            + " currently held:\n"
            + "{APIGroups:[\"\"], Resources:[\"nodes\"], Verbs:[\"get\" \"list\"]}",
        forbidden(JANE, "POST", RBAC + "/namespaces/team/roles", nodes));
    created(
        ApiServer.LOOPBACK_USER,
        RBAC + "/namespaces/team/roles",
        role(
            "Role",
            "escalator",
            "",
            "{\"verbs\":[\"escalate\"],\"apiGroups\":[\"rbac.authorization.k8s.io\"],"
                + "\"resources\":[\"roles\"]}"));
    created(
        ApiServer.LOOPBACK_USER,
        RBAC + "/namespaces/team/rolebindings",
        binding("RoleBinding", "jane-escalator", "Role", "escalator", "User", "jane"));
    created(JANE, RBAC + "/namespaces/team/roles", nodes);
  }

  @Test
  void onlyClusterAdminsMayCreateAnAggregatingClusterRole() {
    created(
        ApiServer.LOOPBACK_USER,
        RBAC + "/clusterroles",
        role(
            "ClusterRole",
            "role-writer",
            "",
            "{\"verbs\":[\"create\"],\"apiGroups\":[\"rbac.authorization.k8s.io\"],"
                + "\"resources\":[\"clusterroles\"]}"));
    created(
        ApiServer.LOOPBACK_USER,
        RBAC + "/clusterrolebindings",
        binding("ClusterRoleBinding", "jane-writer", "ClusterRole", "role-writer", "User", "jane"));
    assertEquals(
        "clusterroles.rbac.authorization.k8s.io \"gather\" is forbidden: must have cluster-admin"
            + " privileges to use the aggregationRule",
        forbidden(
            JANE,
            "POST",
            RBAC + "/clusterroles",
            "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                + "\"metadata\":{\"name\":\"gather\"},\"aggregationRule\":{\"clusterRoleSelectors\":"
                + "[{\"matchLabels\":{\"x\":\"y\"}}]}}"));
  }

  @Test
  void bindingsAreValidated() {
    ApiResponse response =
        call(
            ApiServer.LOOPBACK_USER,
            "POST",
            RBAC + "/clusterrolebindings",
            binding("ClusterRoleBinding", "bad", "Role", "x", "Robot", "r2"));
    assertEquals(422, response.status());
    String message = json(response).path("message").asText();
    assertTrue(message.contains("roleRef.kind: Unsupported value: \"Role\""), message);
    assertTrue(message.contains("subjects[0].kind: Unsupported value: \"Robot\""), message);
  }

  @Test
  void accessReviewsAnswerForTheUserAsked() {
    String ssar =
        "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\","
            + "\"spec\":{\"resourceAttributes\":{\"namespace\":\"%s\",\"verb\":\"list\","
            + "\"resource\":\"rolebindings\",\"group\":\"rbac.authorization.k8s.io\"}}}";
    String path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    JsonNode yes = created(JANE, path, ssar.formatted("team"));
    assertTrue(yes.path("status").path("allowed").asBoolean(), yes::toString);
    assertEquals("SelfSubjectAccessReview", yes.path("kind").asText());
    assertEquals("team", yes.path("spec").path("resourceAttributes").path("namespace").asText());
    JsonNode no = created(JANE, path, ssar.formatted("other"));
    assertFalse(no.path("status").path("allowed").asBoolean(), no::toString);
    // The anonymous user may not ask (system:basic-user is bound to system:authenticated).
    forbidden(ANONYMOUS, "POST", path, ssar.formatted("team"));

    JsonNode rules =
        created(
            JANE,
            "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
            "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectRulesReview\","
                + "\"spec\":{\"namespace\":\"team\"}}");
    String status = rules.path("status").toString();
    assertTrue(status.contains("\"selfsubjectaccessreviews\""), status);
    assertTrue(status.contains("\"rolebindings\""), status);
    assertTrue(status.contains("\"/version\""), status);
    assertFalse(rules.path("status").path("incomplete").asBoolean(), status);

    String sar =
        "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\","
            + "\"spec\":{\"user\":\"jane\",\"groups\":[\"system:authenticated\"],"
            + "\"resourceAttributes\":{\"namespace\":\"team\",\"verb\":\"delete\","
            + "\"resource\":\"roles\",\"group\":\"rbac.authorization.k8s.io\"}}}";
    forbidden(BOB, "POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", sar);
    JsonNode answer =
        created(ApiServer.LOOPBACK_USER, "/apis/authorization.k8s.io/v1/subjectaccessreviews", sar);
    assertTrue(answer.path("status").path("allowed").asBoolean(), answer::toString);
    ApiResponse neither =
        call(
            ApiServer.LOOPBACK_USER,
            "POST",
            path,
            "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\","
                + "\"spec\":{}}");
    assertEquals(422, neither.status());
    assertEquals(
        "SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.resourceAttributes:"
            + " Invalid value: \"null\": exactly one of nonResourceAttributes or"
            + " resourceAttributes must be specified",
        json(neither).path("message").asText());
  }

  @Test
  void aLocalSubjectAccessReviewIsCreatedInTheNamespaceItAsksAboutByWhomRbacAllows() {
    String lsar =
        "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"LocalSubjectAccessReview\","
            + "%s\"spec\":{\"user\":\"%s\",\"groups\":[\"system:authenticated\"],"
            + "\"resourceAttributes\":{\"namespace\":\"%s\",\"verb\":\"delete\","
            + "\"resource\":\"roles\",\"group\":\"rbac.authorization.k8s.io\"}}}";
    String team = "/apis/authorization.k8s.io/v1/namespaces/team/localsubjectaccessreviews";
    // jane is admin of "team", which grants creating LocalSubjectAccessReviews there.
    JsonNode yes = created(JANE, team, lsar.formatted("", "jane", "team"));
    assertEquals("LocalSubjectAccessReview", yes.path("kind").asText());
    assertEquals("team", yes.path("metadata").path("namespace").asText(), yes::toString);
    assertTrue(yes.path("status").path("allowed").asBoolean(), yes::toString);
    JsonNode no = created(JANE, team, lsar.formatted("", "bob", "team"));
    assertFalse(no.path("status").path("allowed").asBoolean(), no::toString);
    // Nor elsewhere, and not bob at all: RBAC decides as for any namespaced resource.
    assertEquals(
        "localsubjectaccessreviews.authorization.k8s.io is forbidden: User \"jane\" cannot create"
            + " resource \"localsubjectaccessreviews\" in API group \"authorization.k8s.io\" in"
            + " the namespace \"other\"",
        forbidden(
            JANE,
            "POST",
            "/apis/authorization.k8s.io/v1/namespaces/other/localsubjectaccessreviews",
            lsar.formatted("", "jane", "other")));
    forbidden(BOB, "POST", team, lsar.formatted("", "bob", "team"));

    ApiResponse elsewhere = call(JANE, "POST", team, lsar.formatted("", "jane", "other"));
    assertEquals(422, elsewhere.status());
    assertEquals(
        "LocalSubjectAccessReview.authorization.k8s.io \"\" is invalid:"
            + " spec.resourceAttributes.namespace: Invalid value: \"other\": must match"
            + " metadata.namespace",
        json(elsewhere).path("message").asText());
    ApiResponse clusterWide = call(JANE, "POST", team, lsar.formatted("", "jane", ""));
    assertEquals(422, clusterWide.status());
    assertTrue(
        json(clusterWide)
            .path("message")
            .asText()
            .endsWith(
                "spec.resourceAttributes.namespace: Invalid value: \"\": must match"
                    + " metadata.namespace"),
        json(clusterWide)::toString);
    ApiResponse otherMeta =
        call(
            JANE,
            "POST",
            team,
            lsar.formatted("\"metadata\":{\"namespace\":\"other\"},", "jane", "team"));
    assertEquals(400, otherMeta.status());
    assertEquals(
        "the namespace of the provided object does not match the namespace sent on the request",
        json(otherMeta).path("message").asText());
    ApiResponse paths =
        call(
            JANE,
            "POST",
            team,
            "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"LocalSubjectAccessReview\","
                + "\"spec\":{\"nonResourceAttributes\":{\"path\":\"/version\",\"verb\":\"get\"}}}");
    assertEquals(422, paths.status());
    assertEquals(
        "LocalSubjectAccessReview.authorization.k8s.io \"\" is invalid: [spec.user: Invalid value:"
            + " \"\": at least one of user or group must be specified,"
            + " spec.nonResourceAttributes: Invalid value:"
            + " {\"path\":\"/version\",\"verb\":\"get\"}: disallowed on this kind of request]",
        json(paths).path("message").asText());
    // Cluster-wide, there is no such resource.
    assertEquals(
        404,
        call(
                ApiServer.LOOPBACK_USER,
                "POST",
                "/apis/authorization.k8s.io/v1/localsubjectaccessreviews",
                lsar.formatted("", "jane", "team"))
            .status());
  }

  @Test
  void accessReviewsAreReadInProtobufAsKubectl132WritesThem() {
    Scheme reviews = AuthorizationV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    SelfSubjectAccessReview review = new SelfSubjectAccessReview();
    review.setApiVersion("authorization.k8s.io/v1");
    review.setKind("SelfSubjectAccessReview");
    review.setSpec(
        new SelfSubjectAccessReviewSpec(
            new ResourceAttributes("team", "delete", RbacV1.GROUP, "v1", "roles", null, "x"),
            null));
    ApiResponse response =
        server.handleAs(
            JANE,
            new ApiRequest(
                "POST",
                "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                Map.of(),
                Map.of("Content-Type", List.of(ProtobufCodec.MEDIA_TYPE)),
                new ByteArrayInputStream(ProtobufCodec.create(reviews).encode(review))));
    assertEquals(201, response.status(), () -> new String(response.body(), StandardCharsets.UTF_8));
    JsonNode answer = json(response);
    assertTrue(answer.path("status").path("allowed").asBoolean(), answer::toString);
    assertEquals("x", answer.path("spec").path("resourceAttributes").path("name").asText());
  }

  @Test
  void withoutAuthorizationEverythingIsAllowedAndTheRulesSaySo() {
    ApiServer open = ApiServer.builder(scheme()).build();
    ApiResponse response =
        open.handleAs(
            ANONYMOUS,
            new ApiRequest(
                "POST",
                "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
                Map.of(),
                Map.of(),
                new ByteArrayInputStream(
                    "{\"spec\":{\"namespace\":\"x\"}}".getBytes(StandardCharsets.UTF_8))));
    assertEquals(
        "{\"resourceRules\":[{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"]}],"
            + "\"nonResourceRules\":[{\"verbs\":[\"*\"],\"nonResourceURLs\":[\"*\"]}],"
            + "\"incomplete\":false}",
        json(response).path("status").toString());
  }

  @Test
  void rbacNeedsItsKindsInTheScheme() {
    assertEquals(
        "RBAC needs the rbac.authorization.k8s.io/v1 kinds in the Scheme; register them with"
            + " RbacV1.addToScheme(builder)",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    ApiServer.builder(MetaV1.addToScheme(Scheme.builder()).build()).rbac().build())
            .getMessage());
  }
}
