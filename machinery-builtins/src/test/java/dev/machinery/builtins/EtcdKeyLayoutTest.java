package dev.machinery.builtins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.StorageKeys;
import dev.machinery.core.schema.GroupResource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The etcd keys objects are kept under, as kube-apiserver lays them out: the expected key of every
 * resource of each group version in Kubernetes' {@code test/integration/etcd/data.go} (the {@code
 * ExpectedEtcdPath} of each entry, in its namespace {@code etcdstoragepathtestnamespace}), carried
 * over as a table. Every built-in resource the server serves has a row, and an object put at the
 * row's key (without the {@code /registry/} prefix, which the etcd store applies) is the object the
 * server answers a GET with; the objects the server creates land under those keys.
 */
@Timeout(120)
class EtcdKeyLayoutTest {
  private static final String NS = "etcdstoragepathtestnamespace";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One entry of data.go: a group version resource, its object's name and expected etcd key. */
  private record Row(String group, String version, String resource, String name, String path) {
    boolean namespaced() {
      return path.contains("/" + NS + "/");
    }

    GroupResource groupResource() {
      return GroupResource.of(group, resource);
    }
  }

  private static Row row(String group, String version, String resource, String name, String path) {
    return new Row(group, version, resource, name, path);
  }

  /** Kubernetes' test/integration/etcd/data.go: the built-in resources. */
  private static final List<Row> BUILT_IN =
      List.of(
          row("", "v1", "configmaps", "cm1", "/registry/configmaps/" + NS + "/cm1"),
          row("", "v1", "services", "service1", "/registry/services/specs/" + NS + "/service1"),
          row("", "v1", "podtemplates", "pt1name", "/registry/podtemplates/" + NS + "/pt1name"),
          row("", "v1", "pods", "pod1", "/registry/pods/" + NS + "/pod1"),
          row("", "v1", "endpoints", "ep1name", "/registry/services/endpoints/" + NS + "/ep1name"),
          row("", "v1", "resourcequotas", "rq1name", "/registry/resourcequotas/" + NS + "/rq1name"),
          row("", "v1", "limitranges", "lr1name", "/registry/limitranges/" + NS + "/lr1name"),
          row("", "v1", "namespaces", "namespace1", "/registry/namespaces/namespace1"),
          row("", "v1", "nodes", "node1", "/registry/minions/node1"),
          row("", "v1", "persistentvolumes", "pv1name", "/registry/persistentvolumes/pv1name"),
          row("", "v1", "events", "event1", "/registry/events/" + NS + "/event1"),
          row(
              "",
              "v1",
              "persistentvolumeclaims",
              "pvc1",
              "/registry/persistentvolumeclaims/" + NS + "/pvc1"),
          row(
              "",
              "v1",
              "serviceaccounts",
              "sa1name",
              "/registry/serviceaccounts/" + NS + "/sa1name"),
          row("", "v1", "secrets", "secret1", "/registry/secrets/" + NS + "/secret1"),
          row("", "v1", "replicationcontrollers", "rc1", "/registry/controllers/" + NS + "/rc1"),
          row("apps", "v1", "daemonsets", "ds6", "/registry/daemonsets/" + NS + "/ds6"),
          row(
              "apps",
              "v1",
              "deployments",
              "deployment4",
              "/registry/deployments/" + NS + "/deployment4"),
          row("apps", "v1", "statefulsets", "ss3", "/registry/statefulsets/" + NS + "/ss3"),
          row("apps", "v1", "replicasets", "rs3", "/registry/replicasets/" + NS + "/rs3"),
          row(
              "apps",
              "v1",
              "controllerrevisions",
              "crs3",
              "/registry/controllerrevisions/" + NS + "/crs3"),
          row(
              "autoscaling",
              "v1",
              "horizontalpodautoscalers",
              "hpa2",
              "/registry/horizontalpodautoscalers/" + NS + "/hpa2"),
          row(
              "autoscaling",
              "v2",
              "horizontalpodautoscalers",
              "hpa4",
              "/registry/horizontalpodautoscalers/" + NS + "/hpa4"),
          row("batch", "v1", "jobs", "job1", "/registry/jobs/" + NS + "/job1"),
          row("batch", "v1", "cronjobs", "cjv1", "/registry/cronjobs/" + NS + "/cjv1"),
          row(
              "certificates.k8s.io",
              "v1",
              "certificatesigningrequests",
              "csr2",
              "/registry/certificatesigningrequests/csr2"),
          row(
              "certificates.k8s.io",
              "v1alpha1",
              "clustertrustbundles",
              "example.com:signer:abcd",
              "/registry/clustertrustbundles/example.com:signer:abcd"),
          row(
              "certificates.k8s.io",
              "v1alpha1",
              "podcertificaterequests",
              "req-1",
              "/registry/podcertificaterequests/" + NS + "/req-1"),
          row(
              "certificates.k8s.io",
              "v1beta1",
              "clustertrustbundles",
              "example.com:signer:abc",
              "/registry/clustertrustbundles/example.com:signer:abc"),
          row(
              "certificates.k8s.io",
              "v1beta1",
              "podcertificaterequests",
              "req-1",
              "/registry/podcertificaterequests/" + NS + "/req-1"),
          row(
              "coordination.k8s.io",
              "v1",
              "leases",
              "leasev1",
              "/registry/leases/" + NS + "/leasev1"),
          row(
              "coordination.k8s.io",
              "v1beta1",
              "leasecandidates",
              "leasecandidatev1beta1",
              "/registry/leasecandidates/" + NS + "/leasecandidatev1beta1"),
          row(
              "coordination.k8s.io",
              "v1alpha2",
              "leasecandidates",
              "leasecandidatev1alpha2",
              "/registry/leasecandidates/" + NS + "/leasecandidatev1alpha2"),
          row(
              "discovery.k8s.io",
              "v1",
              "endpointslices",
              "slicev1",
              "/registry/endpointslices/" + NS + "/slicev1"),
          row("events.k8s.io", "v1", "events", "event3", "/registry/events/" + NS + "/event3"),
          row(
              "networking.k8s.io",
              "v1",
              "ingresses",
              "ingress3",
              "/registry/ingress/" + NS + "/ingress3"),
          row(
              "networking.k8s.io",
              "v1",
              "ingressclasses",
              "ingressclass3",
              "/registry/ingressclasses/ingressclass3"),
          row(
              "networking.k8s.io",
              "v1",
              "networkpolicies",
              "np2",
              "/registry/networkpolicies/" + NS + "/np2"),
          row(
              "networking.k8s.io",
              "v1",
              "ipaddresses",
              "192.168.2.3",
              "/registry/ipaddresses/192.168.2.3"),
          row(
              "networking.k8s.io",
              "v1",
              "servicecidrs",
              "range-b2",
              "/registry/servicecidrs/range-b2"),
          row(
              "networking.k8s.io",
              "v1beta1",
              "ipaddresses",
              "192.168.1.3",
              "/registry/ipaddresses/192.168.1.3"),
          row(
              "networking.k8s.io",
              "v1beta1",
              "servicecidrs",
              "range-b1",
              "/registry/servicecidrs/range-b1"),
          row(
              "policy",
              "v1",
              "poddisruptionbudgets",
              "pdbv1",
              "/registry/poddisruptionbudgets/" + NS + "/pdbv1"),
          row(
              "storagemigration.k8s.io",
              "v1beta1",
              "storageversionmigrations",
              "test-migration",
              "/registry/storageversionmigrations/test-migration"),
          row(
              "flowcontrol.apiserver.k8s.io",
              "v1",
              "flowschemas",
              "fs-3",
              "/registry/flowschemas/fs-3"),
          row(
              "flowcontrol.apiserver.k8s.io",
              "v1",
              "prioritylevelconfigurations",
              "conf5",
              "/registry/prioritylevelconfigurations/conf5"),
          row(
              "storage.k8s.io",
              "v1",
              "volumeattachments",
              "va3",
              "/registry/volumeattachments/va3"),
          row(
              "storage.k8s.io",
              "v1beta1",
              "volumeattributesclasses",
              "vac2",
              "/registry/volumeattributesclasses/vac2"),
          row(
              "storage.k8s.io",
              "v1",
              "volumeattributesclasses",
              "vac3",
              "/registry/volumeattributesclasses/vac3"),
          row("storage.k8s.io", "v1", "storageclasses", "sc2", "/registry/storageclasses/sc2"),
          row(
              "storage.k8s.io",
              "v1",
              "csistoragecapacities",
              "csc-12345-3",
              "/registry/csistoragecapacities/" + NS + "/csc-12345-3"),
          row(
              "rbac.authorization.k8s.io",
              "v1",
              "roles",
              "role3",
              "/registry/roles/" + NS + "/role3"),
          row(
              "rbac.authorization.k8s.io",
              "v1",
              "clusterroles",
              "crole3",
              "/registry/clusterroles/crole3"),
          row(
              "rbac.authorization.k8s.io",
              "v1",
              "rolebindings",
              "roleb3",
              "/registry/rolebindings/" + NS + "/roleb3"),
          row(
              "rbac.authorization.k8s.io",
              "v1",
              "clusterrolebindings",
              "croleb3",
              "/registry/clusterrolebindings/croleb3"),
          row(
              "admissionregistration.k8s.io",
              "v1",
              "validatingwebhookconfigurations",
              "hook2",
              "/registry/validatingwebhookconfigurations/hook2"),
          row(
              "admissionregistration.k8s.io",
              "v1",
              "mutatingwebhookconfigurations",
              "hook2",
              "/registry/mutatingwebhookconfigurations/hook2"),
          row(
              "admissionregistration.k8s.io",
              "v1",
              "validatingadmissionpolicies",
              "vap1",
              "/registry/validatingadmissionpolicies/vap1"),
          row(
              "admissionregistration.k8s.io",
              "v1",
              "validatingadmissionpolicybindings",
              "pb1",
              "/registry/validatingadmissionpolicybindings/pb1"),
          row(
              "admissionregistration.k8s.io",
              "v1",
              "mutatingadmissionpolicies",
              "map1v1",
              "/registry/mutatingadmissionpolicies/map1v1"),
          row(
              "admissionregistration.k8s.io",
              "v1",
              "mutatingadmissionpolicybindings",
              "mpb1v1",
              "/registry/mutatingadmissionpolicybindings/mpb1v1"),
          row(
              "admissionregistration.k8s.io",
              "v1beta1",
              "validatingadmissionpolicies",
              "vap1b1",
              "/registry/validatingadmissionpolicies/vap1b1"),
          row(
              "admissionregistration.k8s.io",
              "v1beta1",
              "validatingadmissionpolicybindings",
              "pb1b1",
              "/registry/validatingadmissionpolicybindings/pb1b1"),
          row(
              "admissionregistration.k8s.io",
              "v1beta1",
              "mutatingadmissionpolicies",
              "map1b1",
              "/registry/mutatingadmissionpolicies/map1b1"),
          row(
              "admissionregistration.k8s.io",
              "v1beta1",
              "mutatingadmissionpolicybindings",
              "mpb1b1",
              "/registry/mutatingadmissionpolicybindings/mpb1b1"),
          row(
              "admissionregistration.k8s.io",
              "v1alpha1",
              "mutatingadmissionpolicies",
              "map1",
              "/registry/mutatingadmissionpolicies/map1"),
          row(
              "admissionregistration.k8s.io",
              "v1alpha1",
              "mutatingadmissionpolicybindings",
              "mpb1",
              "/registry/mutatingadmissionpolicybindings/mpb1"),
          row("scheduling.k8s.io", "v1", "priorityclasses", "pc3", "/registry/priorityclasses/pc3"),
          row(
              "scheduling.k8s.io",
              "v1alpha2",
              "workloads",
              "w1",
              "/registry/workloads/" + NS + "/w1"),
          row(
              "scheduling.k8s.io",
              "v1alpha2",
              "podgroups",
              "pg1",
              "/registry/podgroups/" + NS + "/pg1"),
          row(
              "apiregistration.k8s.io",
              "v1",
              "apiservices",
              "as2.foo.com",
              "/registry/apiregistration.k8s.io/apiservices/as2.foo.com"),
          row(
              "apiextensions.k8s.io",
              "v1",
              "customresourcedefinitions",
              "openshiftwebconsoleconfigs.webconsole2.operator.openshift.io",
              "/registry/apiextensions.k8s.io/customresourcedefinitions/openshiftwebconsoleconfigs.webconsole2.operator.openshift.io"),
          row("node.k8s.io", "v1", "runtimeclasses", "rc3", "/registry/runtimeclasses/rc3"),
          row(
              "resource.k8s.io",
              "v1alpha3",
              "devicetaintrules",
              "taint1name",
              "/registry/devicetaintrules/taint1name"),
          row(
              "resource.k8s.io",
              "v1alpha3",
              "resourcepoolstatusrequests",
              "rpsr1name",
              "/registry/resourcepoolstatusrequests/rpsr1name"),
          row(
              "resource.k8s.io",
              "v1beta1",
              "deviceclasses",
              "class2name",
              "/registry/deviceclasses/class2name"),
          row(
              "resource.k8s.io",
              "v1beta1",
              "resourceclaims",
              "claim2name",
              "/registry/resourceclaims/" + NS + "/claim2name"),
          row(
              "resource.k8s.io",
              "v1beta1",
              "resourceclaimtemplates",
              "claimtemplate2name",
              "/registry/resourceclaimtemplates/" + NS + "/claimtemplate2name"),
          row(
              "resource.k8s.io",
              "v1beta1",
              "resourceslices",
              "node2slice",
              "/registry/resourceslices/node2slice"),
          row(
              "resource.k8s.io",
              "v1beta2",
              "deviceclasses",
              "class3name",
              "/registry/deviceclasses/class3name"),
          row(
              "resource.k8s.io",
              "v1beta2",
              "devicetaintrules",
              "taint2name",
              "/registry/devicetaintrules/taint2name"),
          row(
              "resource.k8s.io",
              "v1beta2",
              "resourceclaims",
              "claim3name",
              "/registry/resourceclaims/" + NS + "/claim3name"),
          row(
              "resource.k8s.io",
              "v1beta2",
              "resourceclaimtemplates",
              "claimtemplate3name",
              "/registry/resourceclaimtemplates/" + NS + "/claimtemplate3name"),
          row(
              "resource.k8s.io",
              "v1beta2",
              "resourceslices",
              "node3slice",
              "/registry/resourceslices/node3slice"),
          row(
              "resource.k8s.io",
              "v1",
              "deviceclasses",
              "class4name",
              "/registry/deviceclasses/class4name"),
          row(
              "resource.k8s.io",
              "v1",
              "resourceclaims",
              "claim4name",
              "/registry/resourceclaims/" + NS + "/claim4name"),
          row(
              "resource.k8s.io",
              "v1",
              "resourceclaimtemplates",
              "claimtemplate4name",
              "/registry/resourceclaimtemplates/" + NS + "/claimtemplate4name"),
          row(
              "resource.k8s.io",
              "v1",
              "resourceslices",
              "node4slice",
              "/registry/resourceslices/node4slice"),
          row(
              "internal.apiserver.k8s.io",
              "v1alpha1",
              "storageversions",
              "sv1.test",
              "/registry/storageversions/sv1.test"),
          row("storage.k8s.io", "v1", "csinodes", "csini2", "/registry/csinodes/csini2"),
          row("storage.k8s.io", "v1", "csidrivers", "csid2", "/registry/csidrivers/csid2"));

  /** Kubernetes' test/integration/etcd/data.go: its custom resources (of its test CRDs). */
  private static final List<Row> CUSTOM =
      List.of(
          row("cr.bar.com", "v1", "foos", "cr1foo", "/registry/cr.bar.com/foos/" + NS + "/cr1foo"),
          row(
              "custom.fancy.com",
              "v2",
              "pants",
              "cr2pant",
              "/registry/custom.fancy.com/pants/cr2pant"),
          row(
              "awesome.bears.com",
              "v1",
              "pandas",
              "cr3panda",
              "/registry/awesome.bears.com/pandas/cr3panda"),
          row(
              "awesome.bears.com",
              "v3",
              "pandas",
              "cr4panda",
              "/registry/awesome.bears.com/pandas/cr4panda"),
          row(
              "random.numbers.com",
              "v1",
              "integers",
              "fortytwo",
              "/registry/random.numbers.com/integers/fortytwo"));

  /**
   * The resources stored as another group's kind, as data.go's {@code ExpectedGVK} says: {@code
   * events.k8s.io} Events are kept as core {@code v1} Events.
   */
  private static final Map<GroupResource, String> STORED_AS =
      Map.of(GroupResource.of("events.k8s.io", "events"), "v1");

  private static ApiServer server;

  @BeforeAll
  static void start() {
    server = BuiltinKinds.apiServer().build();
  }

  @AfterAll
  static void stop() {
    server.storage().close();
  }

  private static String keyOf(Row row, boolean custom) {
    String prefix =
        custom
            ? StorageKeys.customResourcePrefix(row.group(), row.resource())
            : StorageKeys.resourcePrefix(row.groupResource());
    return "/registry/" + StorageKeys.objectKey(prefix, row.namespaced() ? NS : null, row.name());
  }

  @Test
  void everyBuiltInResourceOfDataGoHasKubeApiserversKey() {
    List<String> wrong = new ArrayList<>();
    for (Row row : BUILT_IN) {
      String expected = row.path();
      String actual = keyOf(row, false);
      if (!expected.equals(actual)) {
        wrong.add(row.group() + "/" + row.version() + "/" + row.resource() + ": " + actual);
      }
    }
    assertEquals(List.of(), wrong, "keys other than data.go's");
    assertEquals(90, BUILT_IN.size(), "every built-in entry of data.go");
  }

  @Test
  void customResourcesAreUnderTheirGroupAndPlural() {
    for (Row row : CUSTOM) {
      assertEquals(row.path(), keyOf(row, true), row.toString());
    }
  }

  /**
   * Every resource the server serves (as discovery lists it) has a row of data.go, and an object
   * put at that row's key in the server's storage is the one a GET answers with: the registry reads
   * and writes each resource at kube-apiserver's key.
   */
  @Test
  void everyServedResourceReadsItsObjectFromKubeApiserversKey() throws IOException {
    Map<String, JsonNode> served = servedResources();
    assertTrue(served.size() >= 50, "the built-in resources served: " + served.keySet());
    List<String> failures = new ArrayList<>();
    Set<String> checked = new TreeSet<>();
    for (Map.Entry<String, JsonNode> entry : served.entrySet()) {
      String[] gvr = entry.getKey().split("/", -1);
      String group = gvr[0];
      String version = gvr[1];
      String resource = gvr[2];
      JsonNode info = entry.getValue();
      Row row =
          BUILT_IN.stream()
              .filter(r -> r.group().equals(group) && r.resource().equals(resource))
              .findFirst()
              .orElse(null);
      if (row == null) {
        failures.add(entry.getKey() + ": no entry in data.go");
        continue;
      }
      boolean namespaced = info.get("namespaced").asBoolean();
      if (namespaced != row.namespaced()) {
        failures.add(entry.getKey() + ": namespaced " + namespaced + " where data.go's key is not");
        continue;
      }
      String path = row.path();
      String key = path.substring("/registry/".length());
      String name = row.name() + "-" + version;
      key = key.substring(0, key.length() - row.name().length()) + name;
      ObjectNode object = JSON.createObjectNode();
      object.put(
          "apiVersion",
          STORED_AS.getOrDefault(
              row.groupResource(), group.isEmpty() ? version : group + "/" + version));
      object.put("kind", info.get("kind").asText());
      ObjectNode metadata = object.putObject("metadata");
      metadata.put("name", name);
      if (namespaced) {
        metadata.put("namespace", NS);
      }
      metadata.put("uid", "00000000-0000-0000-0000-" + String.format("%012d", checked.size()));
      metadata.put("creationTimestamp", "2020-01-01T00:00:00Z");
      KeyValue stored = server.storage().create(key, JSON.writeValueAsBytes(object));
      String url =
          (group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version)
              + (namespaced ? "/namespaces/" + NS : "")
              + "/"
              + resource
              + "/"
              + name;
      ApiResponse response = get(url);
      if (response.status() != 200) {
        failures.add(entry.getKey() + ": GET " + url + " answered " + response.status());
        continue;
      }
      JsonNode read = JSON.readTree(response.body());
      if (!name.equals(read.at("/metadata/name").asText())
          || !Long.toString(stored.modRevision())
              .equals(read.at("/metadata/resourceVersion").asText())) {
        failures.add(entry.getKey() + ": GET " + url + " answered another object: " + read);
        continue;
      }
      checked.add(entry.getKey());
    }
    assertEquals(List.of(), failures);
    assertEquals(served.keySet(), checked);
  }

  /** What the server writes when objects are created through its API: data.go's keys. */
  @Test
  void createdObjectsLandUnderKubeApiserversKeys() throws IOException {
    String ns = "created";
    assertEquals(
        201,
        post(
                "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
                    + "\"metadata\":{\"name\":\"created\"}}")
            .status());
    Map<String, String> objects = new LinkedHashMap<>();
    objects.put(
        "/api/v1/namespaces/created/configmaps",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm1\"}}");
    objects.put(
        "/api/v1/namespaces/created/services",
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"service1\"},"
            + "\"spec\":{\"ports\":[{\"port\":10000}]}}");
    objects.put(
        "/apis/apps/v1/namespaces/created/deployments",
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d4\"},"
            + "\"spec\":{\"selector\":{\"matchLabels\":{\"f\":\"z\"}},\"template\":{\"metadata\":"
            + "{\"labels\":{\"f\":\"z\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}");
    objects.put(
        "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
            + "\"metadata\":{\"name\":\"crole3\"}}");
    for (Map.Entry<String, String> object : objects.entrySet()) {
      ApiResponse response = post(object.getKey(), object.getValue());
      assertEquals(
          201,
          response.status(),
          object.getKey() + ": " + new String(response.body(), StandardCharsets.UTF_8));
    }
    Set<String> keys = new TreeSet<>();
    for (KeyValue kv : server.storage().list("", 0, null, 0).items()) {
      keys.add(kv.key());
    }
    for (String expected :
        List.of(
            "namespaces/created",
            "configmaps/created/cm1",
            "services/specs/created/service1",
            "deployments/created/d4",
            "clusterroles/crole3")) {
      assertTrue(keys.contains(expected), expected + " is not among " + keys);
    }
  }

  /** Every resource discovery lists, without subresources: group/version/resource to its entry. */
  private static Map<String, JsonNode> servedResources() throws IOException {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    List<String> lists = new ArrayList<>();
    for (JsonNode v : JSON.readTree(get("/api").body()).get("versions")) {
      lists.add("/api/" + v.asText());
    }
    for (JsonNode g : JSON.readTree(get("/apis").body()).get("groups")) {
      for (JsonNode v : g.get("versions")) {
        lists.add("/apis/" + v.get("groupVersion").asText());
      }
    }
    for (String list : lists) {
      JsonNode document = JSON.readTree(get(list).body());
      String gv = document.get("groupVersion").asText();
      String group = gv.contains("/") ? gv.substring(0, gv.indexOf('/')) : "";
      String version = gv.substring(gv.indexOf('/') + 1);
      for (JsonNode resource : document.get("resources")) {
        String name = resource.get("name").asText();
        if (!name.contains("/") && resource.get("verbs").toString().contains("\"get\"")) {
          out.put(group + "/" + version + "/" + name, resource);
        }
      }
    }
    return out;
  }

  private static ApiResponse get(String path) {
    return server.handle(
        new ApiRequest("GET", path, Map.of(), Map.of(), new ByteArrayInputStream(new byte[0])));
  }

  private static ApiResponse post(String path, String body) {
    return server.handle(
        new ApiRequest(
            "POST",
            path,
            Map.of(),
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
  }
}
