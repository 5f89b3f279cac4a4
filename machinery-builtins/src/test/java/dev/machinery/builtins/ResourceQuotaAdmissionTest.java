package dev.machinery.builtins;

import static dev.machinery.builtins.DefaultAdmissionPluginsTest.request;
import static dev.machinery.builtins.DefaultAdmissionPluginsTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.storage.ListResult;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.RevisionCheck;
import dev.machinery.apiserver.storage.testing.ForwardingStorage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * kube-apiserver's ResourceQuota plugin in a server, as Kubernetes' {@code
 * plugin/pkg/admission/resourcequota/admission_test.go} asserts it: usage written to the quota's
 * status, refusals in kube's words (exceeded, status unknown, must specify), scopes, dry run, and
 * the service, claim and object count evaluators.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ResourceQuotaAdmissionTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String QUOTAS = "/api/v1/namespaces/test/resourcequotas";

  private static ApiServer server() {
    ApiServer server =
        BuiltinKinds.apiServer(DefaultAdmission.none().enable("ResourceQuota")).build();
    ApiResponse ns =
        request(server, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"test\"}}");
    assertEquals(201, ns.status(), text(ns));
    return server;
  }

  /** A quota whose status is {@code hard} and {@code used}, as the controller would write it. */
  private static void quota(ApiServer server, String name, String spec, String hard, String used)
      throws Exception {
    ApiResponse created =
        request(
            server,
            "POST",
            QUOTAS,
            "{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":" + spec + "}");
    assertEquals(201, created.status(), text(created));
    JsonNode quota = JSON.readTree(text(created));
    String status =
        "{\"metadata\":{\"name\":\""
            + name
            + "\",\"resourceVersion\":\""
            + quota.at("/metadata/resourceVersion").asText()
            + "\"},\"spec\":"
            + spec
            + ",\"status\":{\"hard\":"
            + hard
            + (used == null ? "" : ",\"used\":" + used)
            + "}}";
    ApiResponse updated = request(server, "PUT", QUOTAS + "/" + name + "/status", status);
    assertEquals(200, updated.status(), text(updated));
  }

  private static String used(ApiServer server, String name) throws Exception {
    ApiResponse got = request(server, "GET", QUOTAS + "/" + name, null);
    assertEquals(200, got.status(), text(got));
    return JSON.readTree(text(got)).at("/status/used").toString();
  }

  private static String pod(String name, String resources, String extraSpec) {
    return "{\"metadata\":{\"name\":\""
        + name
        + "\"},\"spec\":{"
        + extraSpec
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"resources\":"
        + resources
        + "}]}}";
  }

  private static ApiResponse create(ApiServer server, String resource, String body) {
    return request(server, "POST", "/api/v1/namespaces/test/" + resource, body);
  }

  private static ApiResponse dryRun(ApiServer server, String body) {
    return server.handle(
        new ApiRequest(
            "POST",
            "/api/v1/namespaces/test/pods",
            Map.of("dryRun", List.of("All")),
            Map.of("Content-Type", List.of("application/json")),
            new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String refused(ApiResponse response) throws Exception {
    assertEquals(403, response.status(), text(response));
    return JSON.readTree(text(response)).path("message").asText();
  }

  private static final String COMPUTE = "{\"cpu\":\"3\",\"memory\":\"100Gi\",\"pods\":\"5\"}";
  private static final String COMPUTE_USED = "{\"cpu\":\"1\",\"memory\":\"50Gi\",\"pods\":\"3\"}";

  /** TestAdmitBelowQuotaLimit: the pod's requests are added to the quota's used. */
  /**
   * A memory store counting the live reads of one namespace's quotas that reach it: a list of them,
   * or a check that the quotas' watch cache is current (a consistent list the cache then answers).
   */
  private static final class CountingQuotaLists extends ForwardingStorage {
    final AtomicInteger lists = new AtomicInteger();

    CountingQuotaLists() {
      super(new MemoryStorage());
    }

    @Override
    public ListResult list(String prefix, long revision, String startKey, int limit) {
      count(prefix);
      return super.list(prefix, revision, startKey, limit);
    }

    @Override
    public ListResult list(
        String prefix, long revision, String startKey, int limit, boolean countRemaining) {
      count(prefix);
      return super.list(prefix, revision, startKey, limit, countRemaining);
    }

    @Override
    public RevisionCheck checkUnchanged(String prefix, long afterRevision, long keysAtAfter) {
      if (prefix.startsWith("resourcequotas/")) {
        lists.incrementAndGet();
      }
      return super.checkUnchanged(prefix, afterRevision, keysAtAfter);
    }

    private void count(String prefix) {
      if (prefix.startsWith("resourcequotas/test/")) {
        lists.incrementAndGet();
      }
    }
  }

  @Test
  void writesIntoANamespaceWithoutQuotasListItsQuotasFromTheStorageOnceInThirtySeconds()
      throws Exception {
    CountingQuotaLists storage = new CountingQuotaLists();
    ApiServer server =
        BuiltinKinds.apiServer(DefaultAdmission.none().enable("ResourceQuota"))
            .storage(storage)
            .build();
    try {
      assertEquals(
          201,
          request(server, "POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"test\"}}")
              .status());
      String pods = "/api/v1/namespaces/test/pods";
      for (int i = 0; i < 5; i++) {
        ApiResponse created = request(server, "POST", pods, pod("p" + i, "{}", ""));
        assertEquals(201, created.status(), text(created));
      }
      assertEquals(1, storage.lists.get(), "live reads of the quotas for five writes");

      // A quota written through the server is counted from the next write on.
      quota(server, "pods", "{\"hard\":{\"pods\":\"6\"}}", "{\"pods\":\"6\"}", "{\"pods\":\"5\"}");
      ApiResponse fits = request(server, "POST", pods, pod("p5", "{}", ""));
      assertEquals(201, fits.status(), text(fits));
      ApiResponse over = request(server, "POST", pods, pod("p6", "{}", ""));
      assertEquals(403, over.status(), text(over));
      assertTrue(text(over).contains("exceeded quota: pods"), text(over));
    } finally {
      server.close();
    }
  }

  @Test
  void admittedUsageIsWrittenToTheQuota() throws Exception {
    ApiServer server = server();
    quota(server, "quota", "{\"hard\":" + COMPUTE + "}", COMPUTE, COMPUTE_USED);
    ApiResponse ok =
        create(
            server,
            "pods",
            pod("allowed-pod", "{\"requests\":{\"cpu\":\"100m\",\"memory\":\"2Gi\"}}", ""));
    assertEquals(201, ok.status(), text(ok));
    assertEquals("{\"cpu\":\"1100m\",\"memory\":\"52Gi\",\"pods\":\"4\"}", used(server, "quota"));
  }

  /** TestAdmitExceedQuotaLimit, with kube's message. */
  @Test
  void exceedingIsRefusedInKubesWords() throws Exception {
    ApiServer server = server();
    quota(server, "quota", "{\"hard\":" + COMPUTE + "}", COMPUTE, COMPUTE_USED);
    assertEquals(
        "pods \"not-allowed-pod\" is forbidden: exceeded quota: quota, requested: cpu=3, used:"
            + " cpu=1, limited: cpu=3",
        refused(
            create(
                server,
                "pods",
                pod("not-allowed-pod", "{\"requests\":{\"cpu\":\"3\",\"memory\":\"2Gi\"}}", ""))));
    assertEquals(COMPUTE_USED, used(server, "quota"));
  }

  /** TestAdmitEnforceQuotaConstraints: a tracked compute resource the pod does not state. */
  @Test
  void aPodMustStateTheComputeResourcesTracked() throws Exception {
    ApiServer server = server();
    String hard = "{\"cpu\":\"3\",\"memory\":\"100Gi\",\"limits.memory\":\"200Gi\",\"pods\":\"5\"}";
    quota(
        server,
        "quota",
        "{\"hard\":" + hard + "}",
        hard,
        "{\"cpu\":\"1\",\"memory\":\"50Gi\",\"limits.memory\":\"100Gi\",\"pods\":\"3\"}");
    assertEquals(
        "pods \"not-allowed-pod\" is forbidden: failed quota: quota: must specify limits.memory"
            + " for: c",
        refused(
            create(
                server,
                "pods",
                pod(
                    "not-allowed-pod",
                    "{\"requests\":{\"cpu\":\"100m\",\"memory\":\"2Gi\"},\"limits\":{\"cpu\":\"200m\"}}",
                    ""))));
    assertEquals(
        "pods \"p\" is forbidden: failed quota: quota: must specify cpu for: c; limits.memory for:"
            + " c; memory for: c",
        refused(create(server, "pods", pod("p", "{}", ""))));
  }

  /** A quota whose usage the controller has not computed yet refuses what it tracks. */
  @Test
  void unknownUsageIsRefused() throws Exception {
    ApiServer server = server();
    quota(
        server,
        "quota",
        "{\"hard\":{\"pods\":\"5\",\"services\":\"1\"}}",
        "{\"pods\":\"5\",\"services\":\"1\"}",
        null);
    assertEquals(
        "pods \"p\" is forbidden: status unknown for quota: quota, resources: pods",
        refused(create(server, "pods", pod("p", "{}", ""))));
    // A quota without status (just created) tracks nothing yet.
    ApiResponse other =
        request(
            server,
            "POST",
            QUOTAS,
            "{\"metadata\":{\"name\":\"fresh\"},\"spec\":{\"hard\":{\"configmaps\":\"0\"}}}");
    assertEquals(201, other.status(), text(other));
    ApiResponse cm = create(server, "configmaps", "{\"metadata\":{\"name\":\"cm\"}}");
    assertEquals(201, cm.status(), text(cm));
  }

  /** TestAdmitBelowTerminatingQuotaLimit and the BestEffort scopes. */
  @Test
  void scopesSelectThePodsCharged() throws Exception {
    ApiServer server = server();
    quota(
        server,
        "not-terminating",
        "{\"hard\":" + COMPUTE + ",\"scopes\":[\"NotTerminating\"]}",
        COMPUTE,
        COMPUTE_USED);
    quota(
        server,
        "terminating",
        "{\"hard\":" + COMPUTE + ",\"scopes\":[\"Terminating\"]}",
        COMPUTE,
        COMPUTE_USED);
    String best = "{\"hard\":{\"pods\":\"5\"},\"scopes\":[\"BestEffort\"]}";
    quota(server, "best-effort", best, "{\"pods\":\"5\"}", "{\"pods\":\"0\"}");
    ApiResponse ok =
        create(
            server,
            "pods",
            pod(
                "allowed-pod",
                "{\"requests\":{\"cpu\":\"100m\",\"memory\":\"2Gi\"}}",
                "\"activeDeadlineSeconds\":30,"));
    assertEquals(201, ok.status(), text(ok));
    assertEquals(
        "{\"cpu\":\"1100m\",\"memory\":\"52Gi\",\"pods\":\"4\"}", used(server, "terminating"));
    assertEquals(COMPUTE_USED, used(server, "not-terminating"));
    assertEquals("{\"pods\":\"0\"}", used(server, "best-effort"));
    // A best-effort pod states no cpu or memory: the NotTerminating quota asks for them.
    assertEquals(
        "pods \"be\" is forbidden: failed quota: not-terminating: must specify cpu for: c; memory"
            + " for: c",
        refused(create(server, "pods", pod("be", "{}", ""))));
  }

  /** A {@code scopeSelector} on PriorityClass picks the pods of the classes named. */
  @Test
  void priorityClassScopeSelector() throws Exception {
    ApiServer server = server();
    String spec =
        "{\"hard\":{\"pods\":\"1\"},\"scopeSelector\":{\"matchExpressions\":[{\"scopeName\":"
            + "\"PriorityClass\",\"operator\":\"In\",\"values\":[\"high\"]}]}}";
    quota(server, "high", spec, "{\"pods\":\"1\"}", "{\"pods\":\"1\"}");
    ApiResponse plain = create(server, "pods", pod("plain", "{}", ""));
    assertEquals(201, plain.status(), text(plain));
    assertEquals(
        "pods \"h\" is forbidden: exceeded quota: high, requested: pods=1, used: pods=1, limited:"
            + " pods=1",
        refused(create(server, "pods", pod("h", "{}", "\"priorityClassName\":\"high\","))));
  }

  /** A dry run is checked but not charged. */
  @Test
  void dryRunIsCheckedNotCharged() throws Exception {
    ApiServer server = server();
    quota(server, "quota", "{\"hard\":{\"pods\":\"1\"}}", "{\"pods\":\"1\"}", "{\"pods\":\"0\"}");
    ApiResponse dry = dryRun(server, pod("p", "{}", ""));
    assertEquals(201, dry.status(), text(dry));
    assertEquals("{\"pods\":\"0\"}", used(server, "quota"));
    ApiResponse real = create(server, "pods", pod("p", "{}", ""));
    assertEquals(201, real.status(), text(real));
    assertEquals("{\"pods\":\"1\"}", used(server, "quota"));
    assertEquals(
        "pods \"q\" is forbidden: exceeded quota: quota, requested: pods=1, used: pods=1, limited:"
            + " pods=1",
        refused(dryRun(server, pod("q", "{}", ""))));
  }

  /** services.go: node ports and load balancers, and a type change on update. */
  @Test
  void servicesCountNodePortsAndLoadBalancers() throws Exception {
    ApiServer server = server();
    String hard =
        "{\"services\":\"10\",\"services.nodeports\":\"2\",\"services.loadbalancers\":\"1\"}";
    quota(
        server,
        "quota",
        "{\"hard\":" + hard + "}",
        hard,
        "{\"services\":\"0\",\"services.nodeports\":\"0\",\"services.loadbalancers\":\"0\"}");
    String ports = "\"ports\":[{\"name\":\"a\",\"port\":80},{\"name\":\"b\",\"port\":81}]";
    ApiResponse plain =
        create(server, "services", "{\"metadata\":{\"name\":\"s\"},\"spec\":{" + ports + "}}");
    assertEquals(201, plain.status(), text(plain));
    assertEquals(
        "{\"services\":\"1\",\"services.loadbalancers\":\"0\",\"services.nodeports\":\"0\"}",
        used(server, "quota"));
    // Two ports as a NodePort fit; a LoadBalancer's ports after them do not.
    JsonNode svc = JSON.readTree(text(plain));
    ((com.fasterxml.jackson.databind.node.ObjectNode) svc.get("spec")).put("type", "NodePort");
    ApiResponse changed =
        request(server, "PUT", "/api/v1/namespaces/test/services/s", svc.toString());
    assertEquals(200, changed.status(), text(changed));
    assertEquals(
        "{\"services\":\"1\",\"services.loadbalancers\":\"0\",\"services.nodeports\":\"2\"}",
        used(server, "quota"));
    assertEquals(
        "services \"lb\" is forbidden: exceeded quota: quota, requested: services.nodeports=2,"
            + " used: services.nodeports=2, limited: services.nodeports=2",
        refused(
            create(
                server,
                "services",
                "{\"metadata\":{\"name\":\"lb\"},\"spec\":{\"type\":\"LoadBalancer\","
                    + ports
                    + "}}")));
  }

  /** persistent_volume_claims.go: storage in total and by class, and an increase on update. */
  @Test
  void claimsCountStorageByClass() throws Exception {
    ApiServer server = server();
    String hard =
        "{\"requests.storage\":\"10Gi\",\"persistentvolumeclaims\":\"5\","
            + "\"gold.storageclass.storage.k8s.io/requests.storage\":\"3Gi\"}";
    quota(
        server,
        "quota",
        "{\"hard\":" + hard + "}",
        hard,
        "{\"requests.storage\":\"0\",\"persistentvolumeclaims\":\"0\","
            + "\"gold.storageclass.storage.k8s.io/requests.storage\":\"0\"}");
    String claim =
        "{\"metadata\":{\"name\":\"%s\"},\"spec\":{\"storageClassName\":\"%s\",\"accessModes\":"
            + "[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"%s\"}}}}";
    ApiResponse gold =
        create(server, "persistentvolumeclaims", String.format(claim, "g", "gold", "2Gi"));
    assertEquals(201, gold.status(), text(gold));
    assertEquals(
        "{\"gold.storageclass.storage.k8s.io/requests.storage\":\"2Gi\","
            + "\"persistentvolumeclaims\":\"1\",\"requests.storage\":\"2Gi\"}",
        used(server, "quota"));
    assertEquals(
        "persistentvolumeclaims \"g2\" is forbidden: exceeded quota: quota, requested:"
            + " gold.storageclass.storage.k8s.io/requests.storage=2Gi, used:"
            + " gold.storageclass.storage.k8s.io/requests.storage=2Gi, limited:"
            + " gold.storageclass.storage.k8s.io/requests.storage=3Gi",
        refused(
            create(server, "persistentvolumeclaims", String.format(claim, "g2", "gold", "2Gi"))));
    ApiResponse silver =
        create(server, "persistentvolumeclaims", String.format(claim, "s", "silver", "5Gi"));
    assertEquals(201, silver.status(), text(silver));
    // Growing the silver claim by 4Gi passes the 10Gi in total.
    JsonNode grown = JSON.readTree(text(silver));
    ((com.fasterxml.jackson.databind.node.ObjectNode) grown.at("/spec/resources/requests"))
        .put("storage", "9Gi");
    assertEquals(
        "persistentvolumeclaims \"s\" is forbidden: exceeded quota: quota, requested:"
            + " requests.storage=4Gi, used: requests.storage=7Gi, limited: requests.storage=10Gi",
        refused(
            request(
                server,
                "PUT",
                "/api/v1/namespaces/test/persistentvolumeclaims/s",
                grown.toString())));
  }

  /** The generic object count: {@code count/<resource>.<group>} and the legacy names. */
  @Test
  void objectCounts() throws Exception {
    ApiServer server = server();
    String hard = "{\"count/deployments.apps\":\"1\",\"configmaps\":\"1\",\"count/secrets\":\"0\"}";
    quota(
        server,
        "quota",
        "{\"hard\":" + hard + "}",
        hard,
        "{\"count/deployments.apps\":\"0\",\"configmaps\":\"0\",\"count/secrets\":\"0\"}");
    ApiResponse cm = create(server, "configmaps", "{\"metadata\":{\"name\":\"a\"}}");
    assertEquals(201, cm.status(), text(cm));
    assertEquals(
        "configmaps \"b\" is forbidden: exceeded quota: quota, requested: configmaps=1, used:"
            + " configmaps=1, limited: configmaps=1",
        refused(create(server, "configmaps", "{\"metadata\":{\"name\":\"b\"}}")));
    assertEquals(
        "secrets \"s\" is forbidden: exceeded quota: quota, requested: count/secrets=1, used:"
            + " count/secrets=0, limited: count/secrets=0",
        refused(create(server, "secrets", "{\"metadata\":{\"name\":\"s\"}}")));
    String deployment =
        "{\"metadata\":{\"name\":\"%s\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"
            + "\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"containers\":"
            + "[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}";
    String path = "/apis/apps/v1/namespaces/test/deployments";
    ApiResponse d = request(server, "POST", path, String.format(deployment, "d1"));
    assertEquals(201, d.status(), text(d));
    assertEquals(
        "deployments.apps \"d2\" is forbidden: exceeded quota: quota, requested:"
            + " count/deployments.apps=1, used: count/deployments.apps=1, limited:"
            + " count/deployments.apps=1",
        refused(request(server, "POST", path, String.format(deployment, "d2"))));
    assertEquals(
        "{\"configmaps\":\"1\",\"count/deployments.apps\":\"1\",\"count/secrets\":\"0\"}",
        used(server, "quota"));
  }
}
