package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.admission.webhook.MatchConditions;
import dev.machinery.apiserver.admission.webhook.MatchConditions.Condition;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.authorization.Authorizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Webhooks' match conditions: the first false condition names itself, errors count only when none
 * is false, and an expression that does not compile is refused, naming it.
 */
class CelMatchConditionsTest {
  private final MatchConditions conditions = new CelMatchConditions();

  private static Map<String, Object> variables(Map<String, Object> object) {
    Map<String, Object> variables = new HashMap<>();
    variables.put("object", object);
    variables.put("oldObject", null);
    variables.put(
        "request",
        Map.of(
            "operation",
            "CREATE",
            "userInfo",
            Map.of("username", "alice", "groups", List.of("system:authenticated"))));
    return variables;
  }

  @Test
  void firstFalseConditionSkips() {
    MatchConditions.Compiled compiled =
        conditions.compile(
            List.of(
                new Condition("not-alice", "request.userInfo.username != 'alice'"),
                new Condition("labelled", "has(object.metadata.labels)")));
    Map<String, Object> object = Map.of("metadata", Map.of("name", "a"));
    assertEquals(Optional.of("not-alice"), compiled.firstFalse(variables(object)));
    MatchConditions.Compiled others =
        conditions.compile(
            List.of(
                new Condition("create", "request.operation == 'CREATE'"),
                new Condition("no-old", "oldObject == null"),
                new Condition("labelled", "has(object.metadata.labels)")));
    assertEquals(Optional.of("labelled"), others.firstFalse(variables(object)));
    assertEquals(
        Optional.empty(),
        others.firstFalse(variables(Map.of("metadata", Map.of("labels", Map.of("a", "b"))))));
  }

  @Test
  void errorsCountOnlyWithoutFalse() {
    Map<String, Object> object = Map.of("metadata", Map.of("name", "a"));
    MatchConditions.Compiled erring =
        conditions.compile(
            List.of(
                new Condition("missing", "object.spec.replicas > 1"),
                new Condition("false", "object.metadata.name == 'b'")));
    assertEquals(Optional.of("false"), erring.firstFalse(variables(object)));
    MatchConditions.Compiled onlyError =
        conditions.compile(
            List.of(
                new Condition("missing", "object.spec.replicas > 1"),
                new Condition("true", "object.metadata.name == 'a'")));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> onlyError.firstFalse(variables(object)));
    assertTrue(
        e.getMessage().startsWith("expression 'object.spec.replicas > 1' resulted in error: "),
        e.getMessage());
  }

  @Test
  void compileErrorsNameTheCondition() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                conditions.compile(
                    List.of(new Condition("ok", "true"), new Condition("text", "'not a bool'"))));
    assertEquals(
        "matchConditions[1].expression: Invalid value: \"'not a bool'\": must evaluate to bool",
        e.getMessage());
    // object is of no declared type: a field of it may be a bool, so it compiles.
    conditions.compile(List.of(new Condition("field", "object.metadata.enabled")));
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> conditions.compile(List.of(new Condition("syntax", "object.("))));
    assertTrue(
        e.getMessage()
            .startsWith(
                "matchConditions[0].expression: Invalid value: \"object.(\": compilation failed: "),
        e.getMessage());
  }

  @Test
  void theAuthorizerChecksAsTheRequestsUser() {
    // kube-apiserver gives webhooks' match conditions the authorizer variable (1.28 on): checks
    // made as the requesting user, and authorizer.requestResource for the request's own resource.
    List<String> asked = new ArrayList<>();
    Authorizer onlyGets =
        attributes -> {
          asked.add(
              attributes.user().name()
                  + " "
                  + attributes.verb()
                  + " "
                  + attributes.resource()
                  + " "
                  + attributes.namespace());
          return attributes.verb().equals("get")
              ? Authorization.allow("")
              : Authorization.noOpinion("");
        };
    Map<String, Object> variables = variables(Map.of("metadata", Map.of("name", "x")));
    MatchConditions.Authorization authorization =
        new MatchConditions.Authorization(
            onlyGets,
            UserInfo.of("alice", List.of("system:authenticated")),
            List.of("", "v1", "pods", "", "ns", "x"));
    MatchConditions.Compiled compiled =
        conditions.compile(
            List.of(
                new Condition(
                    "may-get",
                    "authorizer.group('').resource('pods').namespace('ns').check('get')"
                        + ".allowed()"),
                new Condition(
                    "may-delete", "authorizer.requestResource.check('delete').allowed()")));
    assertEquals(Optional.of("may-delete"), compiled.firstFalse(variables, authorization));
    assertEquals(List.of("alice get pods ns", "alice delete pods ns"), asked);
    assertThrows(
        IllegalArgumentException.class,
        () -> compiled.firstFalse(variables),
        "without an authorizer a condition reading it cannot be evaluated");
  }

  @Test
  void foundOnTheClassPath() {
    assertTrue(MatchConditions.installed().orElseThrow() instanceof CelMatchConditions);
  }
}
