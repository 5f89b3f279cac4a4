package dev.machinery.apiserver.admission.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ResourceVersions;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The cases of k8s.io/apiserver's policy matcher test (matching_test.go), the equivalent-resource
 * ones with Deployments served in three versions of one group (its extensions/v1beta1 rows have no
 * counterpart), and the scope, subresource and selector rules of its webhook predicates.
 */
class ResourceMatcherTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String ALL =
      "{\"operations\":[\"*\"],\"apiGroups\":[\"*\"],\"apiVersions\":[\"*\"],\"resources\":[\"*\"],"
          + "\"scope\":\"*\"}";
  private static final String APPS_DEPLOYMENTS =
      "{\"operations\":[\"*\"],\"apiGroups\":[\"apps\"],\"apiVersions\":[\"v1\"],"
          + "\"resources\":[\"deployments\"],\"scope\":\"*\"";

  private static Map<String, Object> criteria(String json) throws Exception {
    @SuppressWarnings("unchecked")
    Map<String, Object> tree = JSON.readValue(json, Map.class);
    return tree;
  }

  private static AdmissionAttributes deployment(String namespace, String subresource) {
    return new AdmissionAttributes(
        Operation.CREATE,
        GroupVersionKind.of("apps", "v1", "Deployment"),
        GroupResource.of("apps", "deployments"),
        subresource,
        namespace,
        "name",
        Map.of(),
        null,
        UserInfo.of("alice", List.of()),
        false);
  }

  private static AdmissionAttributes pod() {
    return new AdmissionAttributes(
        Operation.CREATE,
        GroupVersionKind.of("example.apiserver.k8s.io", "v1", "Pod"),
        GroupResource.of("example.apiserver.k8s.io", "pods"),
        "",
        "ns",
        "name",
        Map.of(),
        null,
        UserInfo.of("alice", List.of()),
        false);
  }

  private static boolean matches(String criteria, AdmissionAttributes a) throws Exception {
    return ResourceMatcher.matches(
        criteria(criteria), a, Map.of(), null, ns -> Map.of("env", "test"));
  }

  @Test
  void wildcardRuleMatchesAsRequested() throws Exception {
    assertTrue(matches("{\"resourceRules\":[" + ALL + "]}", deployment("ns", "")));
  }

  @Test
  void resourceNamesMatchAndMiss() throws Exception {
    assertTrue(
        matches(
            "{\"resourceRules\":["
                + APPS_DEPLOYMENTS.replace("{", "{\"resourceNames\":[\"name\"],")
                + "}]}",
            deployment("ns", "")));
    assertEquals(
        false,
        matches(
            "{\"resourceRules\":["
                + APPS_DEPLOYMENTS.replace("{", "{\"resourceNames\":[\"wrong-name\"],")
                + "}]}",
            deployment("ns", "")));
  }

  @Test
  void excludeRulesWinOnAMatchAndNotOnAMiss() throws Exception {
    String exclude =
        "\"excludeResourceRules\":[{\"operations\":[\"*\"],\"apiGroups\":[\"extensions\"],"
            + "\"apiVersions\":[\"v1beta1\"],\"resources\":[\"deployments\"],\"scope\":\"*\"}]";
    assertTrue(matches("{\"resourceRules\":[" + ALL + "]," + exclude + "}", deployment("ns", "")));
    String excludeApps = "\"excludeResourceRules\":[" + APPS_DEPLOYMENTS + "}]";
    assertEquals(
        false,
        matches("{\"resourceRules\":[" + ALL + "]," + excludeApps + "}", deployment("ns", "")));
  }

  @Test
  void emptyResourceRulesMatchAndAnEmptyRuleDoesNot() throws Exception {
    assertTrue(
        matches(
            "{\"excludeResourceRules\":[{\"operations\":[\"*\"],\"apiGroups\":[\"extensions\"],"
                + "\"apiVersions\":[\"v1beta1\"],\"resources\":[\"deployments\"]}]}",
            deployment("ns", "")));
    assertEquals(false, matches("{\"resourceRules\":[{}]}", deployment("ns", "")));
  }

  @Test
  void subresourcesAreNamedWithASlash() throws Exception {
    String scale =
        "{\"resourceRules\":[{\"operations\":[\"*\"],\"apiGroups\":[\"apps\"],"
            + "\"apiVersions\":[\"v1\"],\"resources\":[\"deployments/scale\"]}]}";
    assertTrue(matches(scale, deployment("ns", "scale")));
    assertEquals(false, matches(scale, deployment("ns", "")));
    assertEquals(false, matches("{\"resourceRules\":[" + ALL + "]}", deployment("ns", "scale")));
    assertTrue(matches(ALL_WITH("*/*"), deployment("ns", "scale")));
    assertTrue(matches(ALL_WITH("*/scale"), deployment("ns", "scale")));
    assertTrue(matches(ALL_WITH("deployments/*"), deployment("ns", "status")));
    // As kube-apiserver's rule matcher: "*" after the slash matches no subresource as well.
    assertTrue(matches(ALL_WITH("deployments/*"), deployment("ns", "")));
  }

  private static String ALL_WITH(String resource) {
    return "{\"resourceRules\":["
        + ALL.replace("[\"*\"],\"scope\"", "[\"" + resource + "\"],\"scope\"")
        + "]}";
  }

  @Test
  void scopeSeparatesNamespacedFromClusterWrites() throws Exception {
    String cluster =
        "{\"resourceRules\":[" + ALL.replace("\"scope\":\"*\"", "\"scope\":\"Cluster\"") + "]}";
    String namespaced =
        "{\"resourceRules\":[" + ALL.replace("\"scope\":\"*\"", "\"scope\":\"Namespaced\"") + "]}";
    assertTrue(matches(cluster, deployment("", "")));
    assertEquals(false, matches(cluster, deployment("ns", "")));
    assertTrue(matches(namespaced, deployment("ns", "")));
    assertEquals(false, matches(namespaced, deployment("", "")));
  }

  @Test
  void anUnreadableSelectorIsAnErrorOnlyWhenTheRulesMatch() throws Exception {
    String badNamespace =
        "\"namespaceSelector\":{\"matchExpressions\":[{\"key\":\"key\",\"operator\":\"In\","
            + "\"values\":[\"bad value\"]}]}";
    String badObject = badNamespace.replace("namespaceSelector", "objectSelector");
    String deployments =
        "\"resourceRules\":[{\"operations\":[\"*\"],\"apiGroups\":[\"*\"],\"apiVersions\":[\"*\"],"
            + "\"resources\":[\"deployments\"]}]";
    String pods = deployments.replace("deployments", "pods");
    for (String bad : List.of(badNamespace, badObject)) {
      assertEquals(false, matches("{" + bad + "," + deployments + "}", pod()));
      RuntimeException e =
          assertThrows(RuntimeException.class, () -> matches("{" + bad + "," + pods + "}", pod()));
      assertTrue(e.getMessage().contains("bad value"), e.getMessage());
    }
  }

  @Test
  void namespaceSelectorReadsTheNamespacesLabels() throws Exception {
    String test = "{\"namespaceSelector\":{\"matchLabels\":{\"env\":\"test\"}}}";
    String prod = "{\"namespaceSelector\":{\"matchLabels\":{\"env\":\"prod\"}}}";
    assertTrue(matches(test, deployment("ns", "")));
    assertEquals(false, matches(prod, deployment("ns", "")));
    // A cluster-scoped write is not narrowed by a namespace selector.
    assertTrue(matches(prod, deployment("", "")));
    RuntimeException missing =
        assertThrows(
            RuntimeException.class,
            () ->
                ResourceMatcher.matches(
                    criteria(test), deployment("ns", ""), Map.of(), null, ns -> null));
    assertEquals("namespaces \"ns\" not found", missing.getMessage());
  }

  @Test
  void objectSelectorMatchesTheNewOrTheOldObject() throws Exception {
    String selector = "{\"objectSelector\":{\"matchLabels\":{\"app\":\"web\"}}}";
    Map<String, Object> labelled = Map.of("metadata", Map.of("labels", Map.of("app", "web")));
    Map<String, Object> plain = Map.of("metadata", Map.of());
    AdmissionAttributes a = deployment("ns", "");
    assertTrue(ResourceMatcher.matches(criteria(selector), a, plain, labelled, ns -> Map.of()));
    assertTrue(ResourceMatcher.matches(criteria(selector), a, labelled, null, ns -> Map.of()));
    assertEquals(
        false, ResourceMatcher.matches(criteria(selector), a, plain, plain, ns -> Map.of()));
  }

  /**
   * An update of deployments/scale as kube-apiserver admits it: the Scale's kind, the resource's.
   */
  private static AdmissionAttributes scaleUpdate() {
    return new AdmissionAttributes(
        Operation.UPDATE,
        GroupVersionKind.of("autoscaling", "v1", "Scale"),
        GroupResource.of("apps", "deployments"),
        "v1",
        "scale",
        "ns",
        "web",
        Map.of(),
        Map.of(),
        UserInfo.of("alice", List.of()),
        false,
        null);
  }

  @Test
  void aScaleUpdateIsMatchedByTheResourcesGroupAndVersionNotTheScales() throws Exception {
    AdmissionAttributes scale = scaleUpdate();
    assertEquals("apps/v1, Resource=deployments", scale.groupVersionResource().toString());
    String rule =
        "{\"resourceRules\":[{\"operations\":[\"UPDATE\"],\"apiGroups\":[\"%s\"],"
            + "\"apiVersions\":[\"%s\"],\"resources\":[\"%s\"]}]}";
    assertTrue(matches(String.format(rule, "apps", "v1", "deployments/scale"), scale));
    assertTrue(matches(String.format(rule, "apps", "v1", "*/scale"), scale));
    assertEquals(
        false, matches(String.format(rule, "autoscaling", "v1", "deployments/scale"), scale));
    assertEquals(false, matches(String.format(rule, "apps", "v1", "deployments"), scale));
    assertEquals(
        false, matches(String.format(rule, "apps", "v1beta2", "deployments/scale"), scale));
  }

  /**
   * Deployments served in apps/v1, apps/v1beta1 and apps/v1alpha1, as the equivalent resource
   * registry of kube's matching_test.go registers them (its extensions/v1beta1 deployments, a
   * resource of another group, have no counterpart here); their scale subresource's kind is
   * autoscaling/v1 Scale in v1 and apps/VERSION Scale in the others, as registered there.
   */
  private static ResourceVersions appsVersions(String requested, boolean scale) {
    List<String> served = List.of("v1", "v1beta1", "v1alpha1");
    return new ResourceVersions() {
      @Override
      public String requested() {
        return requested;
      }

      @Override
      public List<String> served() {
        return served;
      }

      @Override
      public GroupVersionKind kindIn(String version) {
        if (!served.contains(version)) {
          throw new IllegalArgumentException(version);
        }
        if (!scale) {
          return GroupVersionKind.of("apps", version, "Deployment");
        }
        return version.equals("v1")
            ? GroupVersionKind.of("autoscaling", "v1", "Scale")
            : GroupVersionKind.of("apps", version, "Scale");
      }

      @Override
      public Object convert(Object object, String version) {
        return object;
      }
    };
  }

  private static AdmissionAttributes inVersions(String subresource, String name) {
    boolean scale = subresource.equals("scale");
    return new AdmissionAttributes(
        Operation.CREATE,
        scale
            ? GroupVersionKind.of("autoscaling", "v1", "Scale")
            : GroupVersionKind.of("apps", "v1", "Deployment"),
        GroupResource.of("apps", "deployments"),
        "v1",
        subresource,
        "ns",
        name,
        Map.of(),
        null,
        UserInfo.of("alice", List.of()),
        false,
        null,
        appsVersions("v1", scale));
  }

  private static String rules(String matchPolicy, String... groupVersionResources) {
    StringBuilder out = new StringBuilder("{");
    if (matchPolicy != null) {
      out.append("\"matchPolicy\":\"").append(matchPolicy).append("\",");
    }
    out.append("\"resourceRules\":[");
    for (int i = 0; i < groupVersionResources.length; i++) {
      String[] parts = groupVersionResources[i].split(" ");
      out.append(i == 0 ? "" : ",")
          .append("{\"operations\":[\"*\"],\"apiGroups\":[\"")
          .append(parts[0])
          .append("\"],\"apiVersions\":[\"")
          .append(parts[1])
          .append("\"],\"resources\":[\"")
          .append(String.join("\",\"", parts[2].split(",")))
          .append("\"],\"scope\":\"*\"");
      if (parts.length > 3) {
        out.append(",\"resourceNames\":[\"").append(parts[3]).append("\"]");
      }
      out.append("}");
    }
    return out.append("]}").toString();
  }

  private static Optional<String> version(String criteria, AdmissionAttributes a) throws Exception {
    return ResourceMatcher.matchedVersion(criteria(criteria), a, Map.of(), null, ns -> Map.of());
  }

  @Test
  void specificRulesPreferTheExactMatch() throws Exception {
    AdmissionAttributes a = inVersions("", "name");
    assertEquals(
        Optional.of("v1"),
        version(
            rules(
                "Equivalent",
                "extensions v1 deployments",
                "apps v1beta1 deployments",
                "apps v1 deployments"),
            a));
    assertEquals(GroupVersionKind.of("apps", "v1", "Deployment"), a.versions().kindIn("v1"));
  }

  @Test
  void specificRulesExactMatchMisses() throws Exception {
    assertEquals(
        Optional.empty(),
        version(
            rules("Exact", "extensions v1beta1 deployments", "apps v1beta1 deployments"),
            inVersions("", "name")));
  }

  @Test
  void specificRulesEquivalentMatchPrefersTheFirstRulesVersion() throws Exception {
    AdmissionAttributes a = inVersions("", "name");
    Optional<String> matched =
        version(
            rules("Equivalent", "apps v1beta1 deployments", "extensions v1beta1 deployments"), a);
    assertEquals(Optional.of("v1beta1"), matched);
    assertEquals(
        GroupVersionKind.of("apps", "v1beta1", "Deployment"), a.versions().kindIn(matched.get()));
    // The API defaults matchPolicy to Equivalent: a policy stored without one matches the same.
    assertEquals(
        Optional.of("v1beta1"),
        version(rules(null, "apps v1beta1 deployments", "extensions v1beta1 deployments"), a));
    // A version the resource is not served in is no equivalent.
    assertEquals(Optional.empty(), version(rules("Equivalent", "apps v2 deployments"), a));
  }

  @Test
  void subresourceRulesPreferTheExactMatch() throws Exception {
    AdmissionAttributes a = inVersions("scale", "name");
    assertEquals(
        Optional.of("v1"),
        version(
            rules(
                "Equivalent",
                "extensions v1beta1 deployments,deployments/scale",
                "apps v1beta1 deployments,deployments/scale",
                "apps v1 deployments,deployments/scale"),
            a));
    assertEquals(GroupVersionKind.of("autoscaling", "v1", "Scale"), a.versions().kindIn("v1"));
  }

  @Test
  void subresourceRulesExactMatchMisses() throws Exception {
    assertEquals(
        Optional.empty(),
        version(
            rules(
                "Exact",
                "extensions v1beta1 deployments,deployments/scale",
                "apps v1beta1 deployments,deployments/scale"),
            inVersions("scale", "name")));
  }

  @Test
  void subresourceRulesEquivalentMatchPrefersApps() throws Exception {
    AdmissionAttributes a = inVersions("scale", "name");
    Optional<String> matched =
        version(
            rules(
                "Equivalent",
                "apps v1beta1 deployments,deployments/scale",
                "extensions v1beta1 deployments,deployments/scale"),
            a);
    assertEquals(Optional.of("v1beta1"), matched);
    assertEquals(GroupVersionKind.of("apps", "v1beta1", "Scale"), a.versions().kindIn("v1beta1"));
  }

  @Test
  void equivalentMatchesKeepResourceNames() throws Exception {
    AdmissionAttributes named = inVersions("scale", "name");
    assertEquals(
        Optional.of("v1beta1"),
        version(rules("Equivalent", "apps v1beta1 deployments,deployments/scale name"), named));
    assertEquals(
        Optional.empty(),
        version(
            rules("Equivalent", "apps v1beta1 deployments,deployments/scale wrong-name"), named));
  }

  @Test
  void anEquivalentExcludeRuleExcludes() throws Exception {
    AdmissionAttributes a = inVersions("", "name");
    String exclude =
        "{\"matchPolicy\":\"%s\",\"resourceRules\":["
            + ALL
            + "],\"excludeResourceRules\":[{\"operations\":[\"*\"],\"apiGroups\":[\"apps\"],"
            + "\"apiVersions\":[\"v1beta1\"],\"resources\":[\"deployments\"]%s}]}";
    assertEquals(Optional.empty(), version(String.format(exclude, "Equivalent", ""), a));
    assertEquals(
        Optional.of("v1"),
        version(String.format(exclude, "Equivalent", ",\"resourceNames\":[\"other-name\"]"), a));
    assertEquals(Optional.of("v1"), version(String.format(exclude, "Exact", ""), a));
  }
}
