package dev.machinery.apiserver.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.discovery.ResourceInfo;
import dev.machinery.unversioned.discovery.RuntimeConfigException;
import dev.machinery.unversioned.meta.v1.APIGroupList;
import dev.machinery.unversioned.testapi.TestSchemes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DiscoveryTest {
  static final GroupVersion CORE_V1 = TestSchemes.CORE_V1;
  static final GroupVersion APPS_V1 = TestSchemes.APPS_V1;
  static final GroupVersion APPS_V1BETA1 = TestSchemes.APPS_V1BETA1;
  static final GroupVersion BATCH_V1 = TestSchemes.BATCH_V1;
  static final Scheme SCHEME = TestSchemes.SCHEME;
  private static final Codec JSON = CodecFactory.create(SCHEME).json();

  static Discovery discovery(Enablement enablement) {
    ResourceInfo deployments =
        ResourceInfo.of("Deployment", true)
            .withShortNames("deploy")
            .withCategories("all")
            .withSubresource(new ResourceInfo.Subresource("status", null, List.of("get", "patch")))
            .withSubresource(
                new ResourceInfo.Subresource(
                    "scale",
                    GroupVersionKind.of("autoscaling", "v1", "Scale"),
                    List.of("get", "update")));
    return Discovery.builder(SCHEME)
        .addResource(CORE_V1, ResourceInfo.of("Pod", true).withShortNames("po"))
        .addResource(CORE_V1, ResourceInfo.of("Service", true).withShortNames("svc"))
        .addResource(APPS_V1, deployments)
        .addResource(APPS_V1BETA1, ResourceInfo.of("Deployment", true))
        .addResource(BATCH_V1, ResourceInfo.of("Job", true))
        .addServerAddress("0.0.0.0/0", "10.0.0.1:6443")
        .enablement(enablement)
        .build();
  }

  @Test
  void servesEveryGroupWithItsPreferredVersion() {
    assertEquals(
        "{\"apiVersion\":\"v1\",\"kind\":\"APIGroupList\",\"groups\":[{\"name\":\"apps\","
            + "\"versions\":[{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"},"
            + "{\"groupVersion\":\"apps/v1beta1\",\"version\":\"v1beta1\"}],"
            + "\"preferredVersion\":{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"},"
            + "\"serverAddressByClientCIDRs\":[{\"clientCIDR\":\"0.0.0.0/0\","
            + "\"serverAddress\":\"10.0.0.1:6443\"}]},{\"name\":\"batch\",\"versions\":"
            + "[{\"groupVersion\":\"batch/v1\",\"version\":\"v1\"}],\"preferredVersion\":"
            + "{\"groupVersion\":\"batch/v1\",\"version\":\"v1\"},\"serverAddressByClientCIDRs\":"
            + "[{\"clientCIDR\":\"0.0.0.0/0\",\"serverAddress\":\"10.0.0.1:6443\"}]}]}",
        JSON.encodeToString(discovery(Enablement.all()).apiGroupList()));
    assertEquals(
        "{\"apiVersion\":\"v1\",\"kind\":\"APIVersions\",\"versions\":[\"v1\"],"
            + "\"serverAddressByClientCIDRs\":[{\"clientCIDR\":\"0.0.0.0/0\","
            + "\"serverAddress\":\"10.0.0.1:6443\"}]}",
        JSON.encodeToString(discovery(Enablement.all()).apiVersions()));
  }

  @Test
  void listsResourcesAndSubresources() {
    assertEquals(
        "{\"apiVersion\":\"v1\",\"kind\":\"APIResourceList\",\"groupVersion\":\"apps/v1\","
            + "\"resources\":[{\"name\":\"deployments\",\"singularName\":\"deployment\","
            + "\"namespaced\":true,\"kind\":\"Deployment\",\"verbs\":[\"create\",\"delete\","
            + "\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"],"
            + "\"shortNames\":[\"deploy\"],\"categories\":[\"all\"]},"
            + "{\"name\":\"deployments/status\",\"singularName\":\"\",\"namespaced\":true,"
            + "\"kind\":\"Deployment\",\"verbs\":[\"get\",\"patch\"]},"
            + "{\"name\":\"deployments/scale\",\"singularName\":\"\",\"namespaced\":true,"
            + "\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\","
            + "\"verbs\":[\"get\",\"update\"]}]}",
        JSON.encodeToString(discovery(Enablement.all()).apiResourceList(APPS_V1).orElseThrow()));
    assertEquals(
        "v1", discovery(Enablement.all()).apiResourceList(CORE_V1).orElseThrow().getGroupVersion());
  }

  @Test
  void turningOffThePreferredVersionPromotesTheNext() {
    Discovery discovery = discovery(Enablement.parse("apps/v1=false"));
    assertEquals(
        "apps/v1beta1",
        discovery.apiGroup("apps").orElseThrow().getPreferredVersion().getGroupVersion());
    assertEquals(List.of(APPS_V1BETA1), discovery.servedVersions().get("apps"));
    assertTrue(discovery.apiResourceList(APPS_V1).isEmpty());
    assertEquals(
        "v1beta1",
        discovery.aggregatedGroups().getItems().get(0).getVersions().get(0).getVersion());
  }

  @Test
  void aDisabledGroupVanishesFromEveryDocument() {
    Discovery discovery = discovery(Enablement.parse("batch=false"));
    APIGroupList groups = discovery.apiGroupList();
    assertEquals(List.of("apps"), groups.getGroups().stream().map(g -> g.getName()).toList());
    assertTrue(discovery.apiGroup("batch").isEmpty());
    assertTrue(discovery.apiResourceList(BATCH_V1).isEmpty());
    assertFalse(
        discovery.aggregatedGroups().getItems().stream()
            .anyMatch(item -> item.getMetadata().getName().equals("batch")));
  }

  @Test
  void aVersionSettingWinsOverItsGroupAndTheGroupOverAll() {
    Discovery discovery = discovery(Enablement.parse("api/all=false,apps=true,apps/v1=false,v1"));
    assertEquals(
        Map.of("", List.of(CORE_V1), "apps", List.of(APPS_V1BETA1)), discovery.servedVersions());
    Enablement enablement =
        Enablement.all().withGroup("apps", false).withVersion(APPS_V1BETA1, true);
    assertFalse(enablement.isEnabled(APPS_V1));
    assertTrue(enablement.isEnabled(APPS_V1BETA1));
    assertTrue(enablement.isEnabled(BATCH_V1));
    assertEquals(Enablement.parse(""), Enablement.all());
  }

  @Test
  void rejectsMalformedSettings() {
    RuntimeConfigException bad =
        assertThrows(RuntimeConfigException.class, () -> Enablement.parse("apps/v1=maybe"));
    assertEquals(
        "runtime config entry \"apps/v1=maybe\" has the value \"maybe\"; expected true or false",
        bad.getMessage());
    assertEquals("apps/v1=maybe", bad.entry());
    assertEquals(
        "runtime config entry \"Apps=false\" does not name a group; expected a DNS subdomain such"
            + " as apps or batch",
        assertThrows(RuntimeConfigException.class, () -> Enablement.parse("Apps=false"))
            .getMessage());
    assertEquals(
        "runtime config \"apps=true,,batch\" has an empty entry",
        assertThrows(RuntimeConfigException.class, () -> Enablement.parse("apps=true,,batch"))
            .getMessage());
  }

  @Test
  void aggregatedDiscoveryDescribesEveryResource() {
    String json =
        JSON.encodeToString(discovery(Enablement.parse("batch=false")).aggregatedGroups());
    assertEquals(
        "{\"apiVersion\":\"apidiscovery.k8s.io/v2\",\"kind\":\"APIGroupDiscoveryList\","
            + "\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"apps\",\"creationTimestamp\":null},"
            + "\"versions\":[{\"version\":\"v1\",\"resources\":[{\"resource\":\"deployments\","
            + "\"responseKind\":{\"group\":\"apps\",\"version\":\"v1\",\"kind\":\"Deployment\"},"
            + "\"scope\":\"Namespaced\",\"singularResource\":\"deployment\",\"verbs\":[\"create\","
            + "\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"],"
            + "\"shortNames\":[\"deploy\"],\"categories\":[\"all\"],\"subresources\":"
            + "[{\"subresource\":\"status\",\"responseKind\":{\"group\":\"apps\",\"version\":\"v1\","
            + "\"kind\":\"Deployment\"},\"verbs\":[\"get\",\"patch\"]},{\"subresource\":\"scale\","
            + "\"responseKind\":{\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\"},"
            + "\"verbs\":[\"get\",\"update\"]}]}],\"freshness\":\"Current\"},{\"version\":\"v1beta1\","
            + "\"resources\":[{\"resource\":\"deployments\",\"responseKind\":{\"group\":\"apps\","
            + "\"version\":\"v1beta1\",\"kind\":\"Deployment\"},\"scope\":\"Namespaced\","
            + "\"singularResource\":\"deployment\",\"verbs\":[\"create\",\"delete\","
            + "\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"]}],"
            + "\"freshness\":\"Current\"}]}]}",
        json);
    assertEquals(
        List.of("pods", "services"),
        discovery(Enablement.all())
            .aggregatedLegacy()
            .getItems()
            .get(0)
            .getVersions()
            .get(0)
            .getResources()
            .stream()
            .map(r -> r.getResource())
            .toList());
  }

  @Test
  void reportsResourcesWhoseKindIsNotRegistered() {
    DiscoveryBuildException error =
        assertThrows(
            DiscoveryBuildException.class,
            () ->
                Discovery.builder(SCHEME)
                    .addResource(APPS_V1, ResourceInfo.of("StatefulSet", true))
                    .addResource(BATCH_V1, ResourceInfo.of("Job", true))
                    .addResource(BATCH_V1, ResourceInfo.of("Job", true))
                    .build());
    assertEquals(
        List.of(
            "resource \"statefulsets\" of apps/v1 serves kind \"StatefulSet\", which is not"
                + " registered in apps/v1",
            "resource \"jobs\" is added twice to batch/v1"),
        error.problems());
  }

  @Test
  void guessesPluralsAsKubernetesDoes() {
    assertEquals("deployments", ResourceInfo.guessPlural("Deployment"));
    assertEquals("networkpolicies", ResourceInfo.guessPlural("NetworkPolicy"));
    assertEquals("ingressclasses", ResourceInfo.guessPlural("IngressClass"));
    assertEquals("endpoints", ResourceInfo.guessPlural("Endpoints"));
  }
}
