package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.apiserver.admission.policy.PolicyObjects;
import dev.machinery.apiserver.admission.policy.PolicyTypeChecker;
import dev.machinery.apiserver.admission.policy.PolicyTypeChecker.ExpressionWarning;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.labels.Selector;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The type checking of ValidatingAdmissionPolicies for {@code status.typeChecking}, with the rows
 * of k8s.io/apiserver's typechecking_test.go (TestExtractTypeNames, TestTypeCheck): which kinds are
 * checked, which expressions warn, under which field reference, and with which of the compiler's
 * words. cel-java words some issues differently from cel-go; the rows check the words both share.
 */
class PolicyTypeCheckingTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final GroupVersionKind DEPLOYMENT =
      GroupVersionKind.of("apps", "v1", "Deployment");
  private static final GroupVersionKind POD = GroupVersionKind.of("", "v1", "Pod");

  /** kube's test resolver: apps/v1 deployments and v1 pods, every kind with one given schema. */
  private static PolicyObjects objects(String schema) {
    JSONSchemaProps props = schema == null ? null : schema(schema);
    return new PolicyObjects() {
      @Override
      public List<Map<String, Object>> policies() {
        return List.of();
      }

      @Override
      public List<Map<String, Object>> bindings() {
        return List.of();
      }

      @Override
      public Optional<Map<String, Object>> namespace(String name) {
        return Optional.empty();
      }

      @Override
      public Optional<ParamSource> params(String apiVersion, String kind) {
        return Optional.of(
            new ParamSource() {
              @Override
              public boolean namespaced() {
                return false;
              }

              @Override
              public Optional<Map<String, Object>> get(String namespace, String name) {
                return Optional.empty();
              }

              @Override
              public List<Map<String, Object>> list(String namespace, Selector selector) {
                return List.of();
              }
            });
      }

      @Override
      @SuppressWarnings("unchecked")
      public Map<String, Object> tree(Object object) {
        return (Map<String, Object>) object;
      }

      @Override
      public List<GroupVersionKind> kindsFor(String group, String version, String resource) {
        if (group.equals("apps") && version.equals("v1") && resource.equals("deployments")) {
          return List.of(DEPLOYMENT);
        }
        if (group.isEmpty() && version.equals("v1") && resource.equals("pods")) {
          return List.of(POD);
        }
        return List.of();
      }

      @Override
      public Optional<JSONSchemaProps> schema(GroupVersionKind kind) {
        return Optional.ofNullable(props);
      }
    };
  }

  private static JSONSchemaProps schema(String yaml) {
    try {
      return YAML.readValue(yaml, JSONSchemaProps.class);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> policy(String yaml) {
    try {
      return YAML.readValue(yaml, Map.class);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static final String DEPLOYMENTS =
      "  matchConstraints:\n"
          + "    resourceRules:\n"
          + "    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments]}\n";

  static Stream<Arguments> typesToCheck() {
    return Stream.of(
        Arguments.of("empty", "{}", List.of()),
        Arguments.of("specific", "spec:\n" + DEPLOYMENTS, List.of(DEPLOYMENT)),
        Arguments.of(
            "multiple",
            "spec:\n  matchConstraints:\n    resourceRules:\n"
                + "    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments]}\n"
                + "    - {apiGroups: [''], apiVersions: [v1], resources: [pods]}\n",
            List.of(POD, DEPLOYMENT)),
        Arguments.of(
            "all resources",
            "spec:\n  matchConstraints:\n    resourceRules:\n"
                + "    - {apiGroups: [apps], apiVersions: [v1], resources: ['*']}\n",
            List.of()),
        Arguments.of(
            "sub resources",
            "spec:\n  matchConstraints:\n    resourceRules:\n"
                + "    - {apiGroups: [apps], apiVersions: [v1], resources: ['pods/*']}\n",
            List.of()),
        Arguments.of(
            "mixtures",
            "spec:\n  matchConstraints:\n    resourceRules:\n"
                + "    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments]}\n"
                + "    - {apiGroups: [apps], apiVersions: ['*'], resources: [deployments]}\n",
            List.of(DEPLOYMENT)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void typesToCheck(String name, String policy, List<GroupVersionKind> expected) {
    PolicyTypeChecker checker = new PolicyTypeChecker(new CelPolicyExpressions(), objects(null));
    assertEquals(expected, checker.typesToCheck(policy(policy)));
  }

  private static final String FOO_STRING = "{type: object, properties: {foo: {type: string}}}";
  private static final String FOO_INT =
      "{type: object, properties: {foo: {type: integer, format: int64}}}";

  private static String validations(String... expressions) {
    StringBuilder out = new StringBuilder("  validations:\n");
    for (String expression : expressions) {
      out.append("  - ").append(expression).append('\n');
    }
    return out.toString();
  }

  private static final String DEPLOYMENT_POLICY =
      "spec:\n" + DEPLOYMENTS + validations("{expression: \"object.foo == 'bar'\"}");

  /**
   * A row: the policy, the schema every kind resolves to (null: none), the field references
   * expected, and a text every warning holds (null: none asked).
   */
  static Stream<Arguments> typeCheck() {
    return Stream.of(
        Arguments.of("empty", "{}", FOO_STRING, List.of(), null),
        Arguments.of("unresolved schema", DEPLOYMENT_POLICY, null, List.of(), null),
        Arguments.of("passed check", DEPLOYMENT_POLICY, FOO_STRING, List.of(), null),
        Arguments.of(
            "undefined field",
            DEPLOYMENT_POLICY,
            "{type: object, properties: {bar: {type: string}}}",
            List.of("spec.validations[0].expression"),
            "undefined field 'foo'"),
        Arguments.of(
            "field type mismatch",
            DEPLOYMENT_POLICY,
            FOO_INT,
            List.of("spec.validations[0].expression"),
            "found no matching overload"),
        Arguments.of(
            "params",
            "spec:\n  paramKind: {apiVersion: v1, kind: DoesNotMatter}\n"
                + DEPLOYMENTS
                + validations("{expression: 'object.foo == params.bar'}"),
            FOO_STRING,
            List.of("spec.validations[0].expression"),
            "undefined field 'bar'"),
        Arguments.of(
            "params with untyped schema",
            "spec:\n  paramKind: {apiVersion: v1, kind: Config}\n"
                + DEPLOYMENTS
                + validations("{expression: 'params != null'}"),
            "{}",
            List.of(),
            null),
        Arguments.of(
            "multiple expressions",
            "spec:\n"
                + DEPLOYMENTS
                + validations(
                    "{expression: \"object.foo == 'bar'\"}",
                    "{expression: \"object.bar == 'foo'\"}"),
            FOO_STRING,
            List.of("spec.validations[1].expression"),
            null),
        Arguments.of(
            "message expressions",
            "spec:\n"
                + DEPLOYMENTS
                + validations(
                    "{expression: \"object.foo == 'bar'\", messageExpression: 'object.foo +"
                        + " 114514'}"),
            FOO_STRING,
            List.of("spec.validations[0].messageExpression"),
            null),
        Arguments.of(
            "authorizer",
            "spec:\n"
                + DEPLOYMENTS
                + validations(
                    "{expression: \"authorizer.group('').resource('endpoints').check('create')"
                        + ".allowed()\"}"),
            FOO_STRING,
            List.of(),
            null),
        Arguments.of(
            "authorizer.requestResource, declared as every policy expression has it",
            "spec:\n"
                + DEPLOYMENTS
                + validations(
                    "{expression: \"authorizer.requestResource.check('get').allowed()\"}"),
            FOO_STRING,
            List.of(),
            null),
        Arguments.of(
            "a variable typed by the variables before it",
            "spec:\n"
                + DEPLOYMENTS
                + "  variables: [{name: a, expression: \"'x'\"}, {name: b, expression: 'variables.a +"
                + " object.foo'}]\n"
                + validations("{expression: 'variables.b == 1'}"),
            FOO_STRING,
            List.of("spec.validations[0].expression"),
            "found no matching overload for '_==_' applied to '(string, int)"),
        Arguments.of(
            "authorizer invalid",
            "spec:\n" + DEPLOYMENTS + validations("{expression: 'authorizer.allowed()'}"),
            FOO_STRING,
            List.of("spec.validations[0].expression"),
            "found no matching overload for 'allowed' applied to"
                + " 'kubernetes.authorization.Authorizer"),
        Arguments.of(
            "additionalProperties: true",
            "spec:\n  matchConstraints:\n    resourceRules:\n"
                + "    - {apiGroups: [example.com], apiVersions: [v1alpha1], resources:"
                + " [reproducers]}\n"
                + validations("{expression: 'has(object.spec.text)'}"),
            "{type: object, properties: {spec: {type: object, properties: {text: {type: string}}},"
                + " status: {type: object, properties: {problematicProperty: {type: object,"
                + " additionalProperties: true}}}}}",
            List.of(),
            null),
        Arguments.of(
            "schema without type",
            "spec:\n" + DEPLOYMENTS + validations("{expression: 'true'}"),
            "{}",
            List.of(),
            null),
        Arguments.of(
            "variables valid",
            "spec:\n"
                + DEPLOYMENTS
                + "  variables: [{name: works, expression: 'true'}]\n"
                + validations("{expression: variables.works}"),
            FOO_INT,
            List.of(),
            null),
        Arguments.of(
            "variables missing field",
            "spec:\n"
                + DEPLOYMENTS
                + "  variables: [{name: works, expression: 'true'}]\n"
                + validations("{expression: variables.nonExisting}"),
            FOO_INT,
            List.of("spec.validations[0].expression"),
            "undefined field 'nonExisting'"),
        Arguments.of(
            "variables field wrong type",
            "spec:\n"
                + DEPLOYMENTS
                + "  variables: [{name: name, expression: \"'something'\"}]\n"
                + validations("{expression: 'variables.name == object.foo'}"),
            FOO_INT,
            List.of("spec.validations[0].expression"),
            "found no matching overload for '_==_' applied to '(string, int)"),
        Arguments.of(
            "error in variables, not reported during type checking",
            "spec:\n"
                + DEPLOYMENTS
                + "  variables: [{name: name, expression: \"object.foo == 'str'\"}]\n"
                + validations("{expression: 'variables.name == object.foo'}"),
            FOO_INT,
            List.of(),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void typeCheck(
      String name, String policy, String schema, List<String> fieldRefs, String contained) {
    List<ExpressionWarning> warnings =
        new PolicyTypeChecker(new CelPolicyExpressions(), objects(schema)).check(policy(policy));
    assertEquals(fieldRefs, warnings.stream().map(ExpressionWarning::fieldRef).toList(), name);
    for (ExpressionWarning warning : warnings) {
      assertTrue(
          warning.warning().startsWith("apps/v1, Kind=Deployment: ERROR: <input>:1:"),
          warning.warning());
      assertTrue(warning.warning().endsWith("\n"), warning.warning());
      if (contained != null) {
        assertTrue(warning.warning().contains(contained), warning.warning());
      }
    }
  }

  @Test
  void eachKindHasItsOwnLineInTheOrderOfGroupVersionAndKind() {
    List<ExpressionWarning> warnings =
        new PolicyTypeChecker(new CelPolicyExpressions(), objects(FOO_STRING))
            .check(
                policy(
                    "spec:\n  matchConstraints:\n    resourceRules:\n"
                        + "    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments]}\n"
                        + "    - {apiGroups: [''], apiVersions: [v1], resources: [pods]}\n"
                        + validations("{expression: 'object.replicas > 1'}")));
    assertEquals(1, warnings.size());
    assertEquals(
        "/v1, Kind=Pod: ERROR: <input>:1:7: undefined field 'replicas'\n"
            + " | object.replicas > 1\n"
            + " | ......^\n"
            + "\n"
            + "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'\n"
            + " | object.replicas > 1\n"
            + " | ......^\n",
        warnings.get(0).warning());
  }

  @Test
  void requestAndNamespaceObjectAreTypedAsKubeTypesThem() {
    PolicyTypeChecker checker =
        new PolicyTypeChecker(new CelPolicyExpressions(), objects(FOO_STRING));
    List<ExpressionWarning> warnings =
        checker.check(
            policy(
                "spec:\n"
                    + DEPLOYMENTS
                    + validations(
                        "{expression: \"request.userInfo.username == 'a' &&"
                            + " namespaceObject.metadata.labels['x'] == 'y' &&"
                            + " request.dryRun\"}",
                        "{expression: \"request.userName == 'a'\"}",
                        "{expression: 'namespaceObject.spec.finalizers == 1'}")));
    assertEquals(
        List.of("spec.validations[1].expression", "spec.validations[2].expression"),
        warnings.stream().map(ExpressionWarning::fieldRef).toList());
    assertTrue(warnings.get(0).warning().contains("undefined field 'userName'"));
  }
}
