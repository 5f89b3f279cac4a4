package dev.machinery.apiserver.admission.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.StatusException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A server without an expression language: every policy that matches fails as its failurePolicy
 * says, never silently skipped; policies that do not match, and the policies' own kinds, are left
 * alone.
 */
class UnsupportedExpressionsTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private final List<Map<String, Object>> policies = new ArrayList<>();
  private final List<Map<String, Object>> bindings = new ArrayList<>();

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
          return Optional.of(Map.of("metadata", Map.of("name", name)));
        }

        @Override
        public Optional<ParamSource> params(String apiVersion, String kind) {
          return Optional.empty();
        }

        @Override
        @SuppressWarnings("unchecked")
        public Map<String, Object> tree(Object object) {
          return (Map<String, Object>) object;
        }
      };

  private final ValidatingAdmissionPolicies plugin =
      new ValidatingAdmissionPolicies(
          PolicyExpressions.unsupported(), objects, Authorizer::alwaysAllow);

  @SuppressWarnings("unchecked")
  private static Map<String, Object> parse(String json) throws Exception {
    return JSON.readValue(json, Map.class);
  }

  private static AdmissionAttributes write(String group, String resource, String kind) {
    return new AdmissionAttributes(
        Operation.CREATE,
        GroupVersionKind.of(group, "v1", kind),
        GroupResource.of(group, resource),
        "",
        "default",
        "x",
        Map.of("metadata", Map.of("name", "x")),
        null,
        UserInfo.of("alice", List.of()),
        false);
  }

  private void add(String failurePolicy) throws Exception {
    policies.clear();
    policies.add(
        parse(
            "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"failurePolicy\":\""
                + failurePolicy
                + "\",\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"*\"],"
                + "\"apiVersions\":[\"*\"],\"operations\":[\"CREATE\"],"
                + "\"resources\":[\"configmaps\"]}]},"
                + "\"validations\":[{\"expression\":\"true\"}]}}"));
    bindings.clear();
    bindings.add(
        parse(
            "{\"metadata\":{\"name\":\"b\"},\"spec\":{\"policyName\":\"p\","
                + "\"validationActions\":[\"Deny\"]}}"));
  }

  @Test
  void aMatchingPolicyFailsClosedUnderFail() throws Exception {
    add("Fail");
    StatusException refused =
        assertThrows(
            StatusException.class, () -> plugin.validate(write("", "configmaps", "ConfigMap")));
    assertEquals(
        "configmaps \"x\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied"
            + " request: compilation error: compilation failed: no expression language is"
            + " installed (add machinery-cel)",
        refused.getMessage());
    assertEquals(422, refused.statusCode());
    assertEquals("Invalid", refused.statusReason());
    assertEquals(
        refused.getMessage().substring(refused.getMessage().indexOf("ValidatingAdmissionPolicy")),
        refused.status().getDetails().getCauses().get(0).getMessage());
  }

  @Test
  void ignoreAdmitsAndOtherResourcesAreLeftAlone() throws Exception {
    add("Ignore");
    assertNull(plugin.evaluate(write("", "configmaps", "ConfigMap")).denial());
    add("Fail");
    assertNull(plugin.evaluate(write("", "secrets", "Secret")).denial());
    assertNull(
        plugin
            .evaluate(
                write(
                    "admissionregistration.k8s.io",
                    "validatingadmissionpolicies",
                    "ValidatingAdmissionPolicy"))
            .denial());
  }
}
