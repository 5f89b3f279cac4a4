package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.policy.PolicyObjects;
import dev.machinery.apiserver.admission.policy.ValidatingAdmissionPolicies;
import dev.machinery.apiserver.admission.policy.ValidatingAdmissionPolicies.Outcome;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.labels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The decisions of k8s.io/apiserver's validating policy dispatcher and validator (dispatcher.go,
 * validator.go and their tests): Warn and Audit actions, audit annotations, the failure policy on
 * errors, variables, match conditions, parameters by selector and the cost limits, evaluated with
 * machinery-cel's CEL.
 */
class PolicyDecisionsTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String RULES =
      "\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"\"],\"apiVersions\":[\"v1\"],"
          + "\"operations\":[\"*\"],\"resources\":[\"configmaps\"]}]}";

  private final List<Map<String, Object>> policies = new ArrayList<>();
  private final List<Map<String, Object>> bindings = new ArrayList<>();
  private final List<Map<String, Object>> params = new ArrayList<>();
  private Authorizer authorizer = Authorizer.alwaysAllow();

  private final PolicyObjects objects =
      new PolicyObjects() {
        @Override
        public List<Map<String, Object>> policies() {
          return policies;
        }

        @Override
        public List<Map<String, Object>> bindings() {
          return bindings;
        }

        @Override
        public Optional<Map<String, Object>> namespace(String name) {
          return Optional.of(
              parse("{\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"team\":\"a\"}}}"));
        }

        @Override
        public Optional<ParamSource> params(String apiVersion, String kind) {
          if (!kind.equals("Limit")) {
            return Optional.empty();
          }
          return Optional.of(
              new ParamSource() {
                @Override
                public boolean namespaced() {
                  return false;
                }

                @Override
                public Optional<Map<String, Object>> get(String namespace, String name) {
                  return params.stream()
                      .filter(p -> name.equals(((Map<?, ?>) p.get("metadata")).get("name")))
                      .findFirst();
                }

                @Override
                public List<Map<String, Object>> list(String namespace, Selector selector) {
                  return params.stream()
                      .filter(
                          p -> {
                            Object found = ((Map<?, ?>) p.get("metadata")).get("labels");
                            @SuppressWarnings("unchecked")
                            Map<String, String> labels =
                                found == null ? Map.of() : (Map<String, String>) found;
                            return selector.matches(labels);
                          })
                      .toList();
                }
              });
        }

        @Override
        @SuppressWarnings("unchecked")
        public Map<String, Object> tree(Object object) {
          return (Map<String, Object>) object;
        }
      };

  private final ValidatingAdmissionPolicies plugin =
      new ValidatingAdmissionPolicies(new CelPolicyExpressions(), objects, () -> authorizer);

  private static Map<String, Object> parse(String json) {
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> tree = JSON.readValue(json, Map.class);
      return tree;
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private void policy(String name, String spec) {
    policies.add(parse("{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{" + spec + "}}"));
  }

  private void binding(String name, String spec) {
    bindings.add(parse("{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{" + spec + "}}"));
  }

  private Outcome create(String configMap) {
    Map<String, Object> object = parse(configMap);
    return plugin.evaluate(
        new AdmissionAttributes(
            Operation.CREATE,
            GroupVersionKind.of("", "v1", "ConfigMap"),
            GroupResource.of("", "configmaps"),
            "",
            "default",
            String.valueOf(((Map<?, ?>) object.get("metadata")).get("name")),
            object,
            null,
            UserInfo.of("alice", List.of("devs")),
            false));
  }

  @Test
  void warnAndAuditActionsDoNotRefuse() {
    policy("p", RULES + ",\"validations\":[{\"expression\":\"false\",\"message\":\"m <1>\"}]");
    binding("b", "\"policyName\":\"p\",\"validationActions\":[\"Warn\",\"Audit\"]");
    Outcome outcome = create("{\"metadata\":{\"name\":\"c\"}}");
    assertNull(outcome.denial());
    assertEquals(
        List.of("Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': m <1>"),
        outcome.warnings());
    assertEquals(
        "[{\"message\":\"m \\u003c1\\u003e\",\"policy\":\"p\",\"binding\":\"b\","
            + "\"expressionIndex\":0,\"validationActions\":[\"Warn\",\"Audit\"]}]",
        outcome.validationFailureAnnotation().orElseThrow());
    assertEquals(
        "validation.policy.admission.k8s.io/validation_failure",
        ValidatingAdmissionPolicies.VALIDATION_FAILURE_ANNOTATION);
  }

  @Test
  void auditAnnotationsArePublishedUnderThePolicysName() {
    policy(
        "p",
        RULES
            + ",\"auditAnnotations\":[{\"key\":\"name\",\"valueExpression\":\"'  ' +"
            + " object.metadata.name + ' '\"},{\"key\":\"none\",\"valueExpression\":\"null\"},"
            + "{\"key\":\"empty\",\"valueExpression\":\"''\"}]");
    binding("b1", "\"policyName\":\"p\",\"validationActions\":[\"Deny\"]");
    binding("b2", "\"policyName\":\"p\",\"validationActions\":[\"Deny\"]");
    Outcome outcome = create("{\"metadata\":{\"name\":\"c\"}}");
    assertNull(outcome.denial());
    // Two bindings yielding one value publish it once.
    assertEquals(Map.of("p/name", "c"), outcome.auditAnnotations());
  }

  /**
   * Test_ValidateAnnotationsAndWarnings of kube's integration tests: an audit annotation that fails
   * (params is null without a paramRef) refuses under Fail and is dropped under Ignore; an excluded
   * (null) one is not published.
   */
  @Test
  void auditAnnotationsOfKubesIntegrationTest() {
    String configMapMatch =
        "\"paramKind\":{\"apiVersion\":\"example.com/v1\",\"kind\":\"Limit\"}," + RULES;
    policy(
        "validate-audit-annotations",
        configMapMatch
            + ",\"auditAnnotations\":[{\"key\":\"example-key\",\"valueExpression\":"
            + "\"'object name: ' + object.metadata.name\"},{\"key\":\"exclude-key\","
            + "\"valueExpression\":\"null\"}]");
    binding(
        "validate-audit-annotations-binding",
        "\"policyName\":\"validate-audit-annotations\",\"validationActions\":[\"Deny\"]");
    Outcome published = create("{\"metadata\":{\"name\":\"test1-k8s\"}}");
    assertNull(published.denial());
    assertEquals(
        Map.of("validate-audit-annotations/example-key", "object name: test1-k8s"),
        published.auditAnnotations());
    policies.clear();
    bindings.clear();
    policy(
        "validate-audit-annotations-invalid",
        configMapMatch
            + ",\"auditAnnotations\":[{\"key\":\"example-key\",\"valueExpression\":"
            + "\"string(params.metadata.name)\"}]");
    binding(
        "validate-audit-annotations-invalid-binding",
        "\"policyName\":\"validate-audit-annotations-invalid\",\"validationActions\":[\"Deny\"]");
    Outcome refused = create("{\"metadata\":{\"name\":\"test2-k8s\"}}");
    assertEquals(
        "configmaps \"test2-k8s\" is forbidden: ValidatingAdmissionPolicy"
            + " 'validate-audit-annotations-invalid' with binding"
            + " 'validate-audit-annotations-invalid-binding' denied request: expression"
            + " 'string(params.metadata.name)' resulted in error: no such key: metadata",
        refused.denial().getMessage());
    assertEquals("Invalid", refused.denial().statusReason());
    assertEquals(422, refused.denial().statusCode());
    policies.clear();
    policy(
        "validate-audit-annotations-invalid",
        "\"failurePolicy\":\"Ignore\","
            + configMapMatch
            + ",\"auditAnnotations\":[{\"key\":\"example-key\",\"valueExpression\":"
            + "\"string(params.metadata.name)\"}]");
    Outcome ignored = create("{\"metadata\":{\"name\":\"test3-k8s\"}}");
    assertNull(ignored.denial());
    assertEquals(Map.of(), ignored.auditAnnotations());
  }

  /** The Warn and Deny+Audit cases of the same integration test. */
  @Test
  void warnAndAuditOfKubesIntegrationTest() {
    policy(
        "validate-actions-warn",
        RULES + ",\"validations\":[{\"expression\":\"object.metadata.name.endsWith('k8s')\"}]");
    binding(
        "validate-actions-warn-binding",
        "\"policyName\":\"validate-actions-warn\",\"validationActions\":[\"Warn\"]");
    Outcome warned = create("{\"metadata\":{\"name\":\"test4-nope\"}}");
    assertNull(warned.denial());
    assertEquals(
        List.of(
            "Validation failed for ValidatingAdmissionPolicy 'validate-actions-warn' with binding"
                + " 'validate-actions-warn-binding': failed expression:"
                + " object.metadata.name.endsWith('k8s')"),
        warned.warnings());
    policies.clear();
    bindings.clear();
    policy(
        "validate-actions-audit",
        RULES + ",\"validations\":[{\"expression\":\"object.metadata.name.endsWith('k8s')\"}]");
    binding(
        "validate-actions-audit-binding",
        "\"policyName\":\"validate-actions-audit\",\"validationActions\":[\"Deny\",\"Audit\"]");
    Outcome audited = create("{\"metadata\":{\"name\":\"test5-nope\"}}");
    assertEquals(
        "configmaps \"test5-nope\" is forbidden: ValidatingAdmissionPolicy 'validate-actions-audit'"
            + " with binding 'validate-actions-audit-binding' denied request: failed expression:"
            + " object.metadata.name.endsWith('k8s')",
        audited.denial().getMessage());
    assertEquals(
        "[{\"message\":\"failed expression: object.metadata.name.endsWith('k8s')\","
            + "\"policy\":\"validate-actions-audit\",\"binding\":\"validate-actions-audit-binding\","
            + "\"expressionIndex\":0,\"validationActions\":[\"Deny\",\"Audit\"]}]",
        audited.validationFailureAnnotation().orElseThrow());
  }

  @Test
  void ignoreAdmitsOnErrorsAndFailDenies() {
    policy(
        "p",
        "\"failurePolicy\":\"Ignore\","
            + RULES
            + ",\"validations\":[{\"expression\":\"1 / 0 == 1\"},{\"expression\":\"false\"}]");
    binding("b", "\"policyName\":\"p\",\"validationActions\":[\"Deny\"]");
    Outcome outcome = create("{\"metadata\":{\"name\":\"c\"}}");
    assertEquals(
        "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied"
            + " request: failed expression: false",
        outcome.denial().getMessage());
    policies.clear();
    policy("p", RULES + ",\"validations\":[{\"expression\":\"1 / 0 == 1\"}]");
    assertEquals(
        "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied"
            + " request: expression '1 / 0 == 1' resulted in error: division by zero",
        create("{\"metadata\":{\"name\":\"c\"}}").denial().getMessage());
  }

  @Test
  void variablesAreEvaluatedWhenReadAndTheirErrorsNamed() {
    policy(
        "p",
        RULES
            + ",\"variables\":[{\"name\":\"unused\",\"expression\":\"object.nope\"},"
            + "{\"name\":\"keys\",\"expression\":\"has(object.data) ? size(object.data) : 0\"},"
            + "{\"name\":\"twice\",\"expression\":\"variables.keys * 2\"},"
            + "{\"name\":\"broken\",\"expression\":\"object.data.missing\"}],"
            + "\"validations\":[{\"expression\":\"variables.twice <= 2\","
            + "\"messageExpression\":\"'twice is ' + string(variables.twice)\"}]");
    binding("b", "\"policyName\":\"p\",\"validationActions\":[\"Deny\"]");
    assertNull(create("{\"metadata\":{\"name\":\"c\"},\"data\":{\"a\":\"1\"}}").denial());
    assertEquals(
        "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied"
            + " request: twice is 4",
        create("{\"metadata\":{\"name\":\"c\"},\"data\":{\"a\":\"1\",\"b\":\"2\"}}")
            .denial()
            .getMessage());
    policies.clear();
    policy(
        "p",
        RULES
            + ",\"variables\":[{\"name\":\"broken\",\"expression\":\"object.data.missing\"}],"
            + "\"validations\":[{\"expression\":\"variables.broken == 'x'\"}]");
    assertEquals(
        "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied"
            + " request: expression 'variables.broken == 'x'' resulted in error: composited"
            + " variable \"broken\" fails to evaluate: no such key: missing",
        create("{\"metadata\":{\"name\":\"c\"},\"data\":{}}").denial().getMessage());
  }

  @Test
  void aFalseMatchConditionWinsOverAnError() {
    policy(
        "p",
        RULES
            + ",\"matchConditions\":[{\"name\":\"err\",\"expression\":\"object.nope == 1\"},"
            + "{\"name\":\"no\",\"expression\":\"false\"}],"
            + "\"validations\":[{\"expression\":\"false\"}]");
    binding("b", "\"policyName\":\"p\",\"validationActions\":[\"Deny\"]");
    assertNull(create("{\"metadata\":{\"name\":\"c\"}}").denial());
    policies.clear();
    policy(
        "p",
        RULES
            + ",\"matchConditions\":[{\"name\":\"err\",\"expression\":\"object.nope == 1\"}],"
            + "\"validations\":[{\"expression\":\"false\"}]");
    assertEquals(
        "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied"
            + " request: expression 'object.nope == 1' resulted in error: no such key: nope",
        create("{\"metadata\":{\"name\":\"c\"}}").denial().getMessage());
  }

  @Test
  void paramsBySelectorEvaluateOncePerParam() {
    params.add(parse("{\"metadata\":{\"name\":\"small\",\"labels\":{\"use\":\"yes\"}},\"max\":1}"));
    params.add(parse("{\"metadata\":{\"name\":\"big\",\"labels\":{\"use\":\"yes\"}},\"max\":10}"));
    params.add(parse("{\"metadata\":{\"name\":\"off\"},\"max\":0}"));
    policy(
        "p",
        "\"paramKind\":{\"apiVersion\":\"example.com/v1\",\"kind\":\"Limit\"},"
            + RULES
            + ",\"validations\":[{\"expression\":\"size(object.data) <= params.max\","
            + "\"messageExpression\":\"'over ' + params.metadata.name\"}]");
    binding(
        "b",
        "\"policyName\":\"p\",\"validationActions\":[\"Warn\"],"
            + "\"paramRef\":{\"selector\":{\"matchLabels\":{\"use\":\"yes\"}},"
            + "\"parameterNotFoundAction\":\"Deny\"}");
    assertEquals(
        List.of("Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': over small"),
        create("{\"metadata\":{\"name\":\"c\"},\"data\":{\"a\":\"1\",\"b\":\"2\"}}").warnings());
    policies.clear();
    policy(
        "p",
        "\"paramKind\":{\"apiVersion\":\"example.com/v1\",\"kind\":\"Missing\"},"
            + RULES
            + ",\"validations\":[{\"expression\":\"true\"}]");
    assertEquals(
        "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'p' denied request: failed to"
            + " configure policy: failed to find resource referenced by paramKind:"
            + " 'example.com/v1, Kind=Missing'",
        create("{\"metadata\":{\"name\":\"c\"}}").denial().getMessage());
  }

  @Test
  void theAuthorizerAsksAboutTheRequester() {
    List<String> asked = new ArrayList<>();
    authorizer =
        attributes -> {
          asked.add(
              attributes.user().name()
                  + " "
                  + attributes.verb()
                  + " "
                  + attributes.resource()
                  + " "
                  + attributes.namespace());
          return attributes.resource().equals("secrets")
              ? Authorization.deny("no secrets")
              : Authorization.allow("");
        };
    policy(
        "p",
        RULES
            + ",\"validations\":[{\"expression\":\"authorizer.group('').resource('secrets')"
            + ".namespace('default').check('get').allowed()\",\"reason\":\"Unauthorized\","
            + "\"messageExpression\":\"'may not read secrets'\"}]");
    binding("b", "\"policyName\":\"p\",\"validationActions\":[\"Deny\"]");
    Outcome outcome = create("{\"metadata\":{\"name\":\"c\"}}");
    assertEquals(401, outcome.denial().statusCode());
    assertEquals("Unauthorized", outcome.denial().statusReason());
    assertEquals(List.of("alice get secrets default"), asked);
  }

  @Test
  void validationsShareTheBudgetOfTheirPolicy() {
    String list = "[1,2,3,4,5,6,7,8]";
    String costly =
        list
            + ".all(a, "
            + list
            + ".all(b, "
            + list
            + ".all(c, "
            + list
            + ".all(d, "
            + list
            + ".all(e, a + b + c + d + e > 0)))))";
    StringBuilder validations = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      validations
          .append(i == 0 ? "" : ",")
          .append("{\"expression\":\"")
          .append(costly)
          .append("\"}");
    }
    policy("p", RULES + ",\"validations\":[" + validations + "]");
    binding("b", "\"policyName\":\"p\",\"validationActions\":[\"Deny\"]");
    assertEquals(
        "configmaps \"c\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied"
            + " request: validation failed due to running out of cost budget, no further"
            + " validation rules will be run",
        create("{\"metadata\":{\"name\":\"c\"}}").denial().getMessage());
    // One of them alone is within the per-call limit.
    policies.clear();
    policy("p", RULES + ",\"validations\":[{\"expression\":\"" + costly + "\"}]");
    assertNull(create("{\"metadata\":{\"name\":\"c\"}}").denial());
  }

  @Test
  void anExpressionOverThePerCallLimitIsCancelled() {
    policy(
        "p",
        RULES
            + ",\"validations\":[{\"expression\":\"[1,2,3,4,5,6,7,8,9,10].all(a,"
            + " [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c,"
            + " [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e,"
            + " [1,2,3,4,5,6,7,8,9,10].all(f, a + b + c + d + e + f > 0))))))\"}]");
    binding("b", "\"policyName\":\"p\",\"validationActions\":[\"Deny\"]");
    String message = create("{\"metadata\":{\"name\":\"c\"}}").denial().getMessage();
    assertEquals(
        "resulted in error: operation cancelled: actual cost limit exceeded",
        message.substring(message.indexOf("resulted in error")));
  }
}
