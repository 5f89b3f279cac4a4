package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.unversioned.discovery.Enablement;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Kubernetes' built-in kinds on the sample server, driven by every real kubectl on the machine,
 * each against a server of its own: {@code api-resources}, the {@code create} generators (service,
 * secret, service account, job, cron job), {@code run}, {@code expose}, {@code get all}, {@code get
 * -o yaml} with Kubernetes' defaults, {@code explain}, client-side {@code apply} twice (a strategic
 * merge patch), {@code set image}, {@code label}, refusals with kube-apiserver's messages, and
 * deletes. kubectl 1.32 and later write these kinds in protobuf. Fails, saying what to install,
 * where no kubectl is installed.
 */
class SampleServerBuiltinsKubectlTest {
  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SampleServerBuiltinsKubectlTest");
    return installed.entrySet().stream()
        .map(e -> DynamicTest.dynamicTest(e.getKey(), () -> scenario(e.getKey(), e.getValue())));
  }

  private static void scenario(String name, Path binary) throws Exception {
    ApiServer server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      Kubectl k = Kubectl.of(name, binary, binding.port());
      KubectlChecks c = new KubectlChecks(name);
      c.expect(
          k.run("api-resources"),
          0,
          "pods",
          "po",
          "services",
          "svc",
          "secrets",
          "serviceaccounts",
          "sa",
          "statefulsets",
          "sts",
          "cronjobs",
          "cj",
          "leases",
          "coordination.k8s.io/v1",
          "horizontalpodautoscalers",
          "autoscaling/v2");
      c.expect(
          k.run("create", "service", "clusterip", "web", "--tcp=80:8080", "-n", "default"),
          0,
          "service/web created");
      c.expect(
          k.run(
              "create", "secret", "generic", "creds", "--from-literal=user=admin", "-n", "default"),
          0,
          "secret/creds created");
      c.expect(
          k.run("create", "serviceaccount", "robot", "-n", "default"),
          0,
          "serviceaccount/robot created");
      c.expect(
          k.run("create", "job", "once", "--image=busybox:1.36", "-n", "default", "--", "true"),
          0,
          "job.batch/once created");
      c.expect(
          k.run(
              "create",
              "cronjob",
              "nightly",
              "--image=busybox:1.36",
              "--schedule=0 3 * * *",
              "-n",
              "default"),
          0,
          "cronjob.batch/nightly created");
      c.expect(k.run("run", "solo", "--image=nginx:1.27", "-n", "default"), 0, "pod/solo created");
      c.expect(
          k.run("create", "deployment", "web", "--image=nginx:1.27", "-n", "default"),
          0,
          "deployment.apps/web created");
      c.expect(
          k.run("scale", "deployment", "web", "--replicas=3", "-n", "default"),
          0,
          "deployment.apps/web scaled");
      c.expect(
          k.run("set", "image", "deployment/web", "nginx=nginx:1.28", "-n", "default"),
          0,
          "deployment.apps/web image updated");
      c.expect(
          k.run("rollout", "restart", "deployment/web", "-n", "default"),
          0,
          "deployment.apps/web restarted");
      c.expect(
          k.run(
              "get",
              "deployment",
              "web",
              "-n",
              "default",
              "-o",
              "jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image}"
                  + " {.spec.template.metadata.annotations}"),
          0,
          "3 nginx:1.28",
          "kubectl.kubernetes.io/restartedAt");
      c.expect(
          k.run("expose", "pod", "solo", "--port=80", "--name=solo", "-n", "default"),
          0,
          "service/solo exposed");
      c.expect(
          k.run("get", "all", "-A"),
          0,
          "pod/solo",
          "Pending",
          "service/web",
          "ClusterIP",
          "80/TCP",
          "cronjob.batch/nightly",
          "0 3 * * *",
          "job.batch/once",
          "0/1");
      c.expect(k.run("get", "secret", "creds", "-n", "default"), 0, "creds", "Opaque", "1");
      c.expect(
          k.run("get", "service", "web", "-n", "default", "-o", "yaml"),
          0,
          "clusterIP: 10.",
          "ipFamilyPolicy: SingleStack",
          "sessionAffinity: None",
          "protocol: TCP",
          "targetPort: 8080",
          "type: ClusterIP");
      c.expect(
          k.run("get", "pod", "solo", "-n", "default", "-o", "yaml"),
          0,
          "dnsPolicy: ClusterFirst",
          "restartPolicy: Always",
          "imagePullPolicy: IfNotPresent",
          "terminationMessagePath: /dev/termination-log",
          "phase: Pending",
          "qosClass: BestEffort");
      c.expect(
          k.run("get", "job", "once", "-n", "default", "-o", "yaml"),
          0,
          "backoffLimit: 6",
          "completionMode: NonIndexed",
          "restartPolicy: Never");
      c.expect(
          k.run("explain", "pods.spec.restartPolicy"),
          0,
          "KIND:",
          "Pod",
          "restartPolicy",
          "<string>");
      c.expect(k.run("explain", "leases.spec"), 0, "holderIdentity", "<string>");
      String config =
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: default\n"
              + "data:\n  colour: blue\n";
      c.expect(k.run(Map.of(), config, "apply", "-f", "-"), 0, "configmap/applied created");
      String service =
          "apiVersion: v1\nkind: Service\nmetadata:\n  name: applied\n  namespace: default\n"
              + "spec:\n  selector:\n    app: a\n  ports:\n  - name: http\n    port: 80\n";
      c.expect(k.run(Map.of(), service, "apply", "-f", "-"), 0, "service/applied created");
      c.expect(
          k.run(Map.of(), service.replace("port: 80", "port: 8080"), "apply", "-f", "-"),
          0,
          "service/applied configured");
      c.expect(
          k.run(
              "get", "service", "applied", "-n", "default", "-o", "jsonpath={.spec.ports[*].port}"),
          0,
          "8080");
      // A manifest's quantities as YAML numbers, written in their canonical form as
      // kube-apiserver writes them.
      String sized =
          "apiVersion: v1\nkind: Pod\nmetadata:\n  name: sized\n  namespace: default\nspec:\n"
              + "  containers:\n  - name: app\n    image: nginx:1.27\n    resources:\n"
              + "      requests: {cpu: 0.5, memory: 1.5Gi}\n";
      c.expect(k.run(Map.of(), sized, "apply", "-f", "-"), 0, "pod/sized created");
      c.expect(
          k.run(
              "get",
              "pod",
              "sized",
              "-n",
              "default",
              "-o",
              "jsonpath={.spec.containers[0].resources.requests.cpu}"
                  + " {.spec.containers[0].resources.requests.memory}"),
          0,
          "500m 1536Mi");
      c.expect(k.run("delete", "pod", "sized", "-n", "default"), 0, "pod \"sized\" deleted");
      c.expect(
          k.run("set", "image", "cronjob/nightly", "nightly=busybox:1.37", "-n", "default"),
          0,
          "cronjob.batch/nightly image updated");
      c.expect(
          k.run(
              "get",
              "cronjob",
              "nightly",
              "-n",
              "default",
              "-o",
              "jsonpath={.spec.jobTemplate.spec.template.spec.containers[0].image}"),
          0,
          "busybox:1.37");
      c.expect(k.run("label", "pod", "solo", "tier=web", "-n", "default"), 0, "pod/solo labeled");
      c.expect(
          k.run("get", "pods", "-l", "tier=web", "-n", "default"), 0, "solo", "0/1", "Pending");
      c.expect(
          k.run(
              Map.of(),
              "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"bad\"},"
                  + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\","
                  + "\"imagePullPolicy\":\"Sometimes\"}]}}",
              "create",
              "-n",
              "default",
              "-f",
              "-"),
          1,
          "The Pod \"bad\" is invalid: spec.containers[0].imagePullPolicy: Unsupported value:"
              + " \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\"");
      // kubectl 1.27 to 1.32 write autoscaling/v1, served beside v2 and converted.
      c.expect(
          k.run("create", "deployment", "scaled", "--image=nginx", "-n", "default"),
          0,
          "deployment.apps/scaled created");
      c.expect(
          k.run(
              "autoscale", "deployment", "scaled", "--max=3", "--cpu-percent=70", "-n", "default"),
          0,
          "horizontalpodautoscaler.autoscaling/scaled autoscaled");
      c.expect(k.run("get", "hpa", "scaled", "-n", "default"), 0, "cpu: <unknown>/70%");
      // An events.k8s.io Event, as client-go's new recorder writes it, is a core Event too.
      c.expect(
          k.run(
              Map.of(),
              "apiVersion: events.k8s.io/v1\nkind: Event\n"
                  + "metadata: {name: scaled.note, namespace: default}\n"
                  + "eventTime: 2026-11-30T01:00:00.000000Z\nreportingController: example\n"
                  + "reportingInstance: example-1\naction: Noting\nreason: Noted\n"
                  + "regarding: {kind: Deployment, namespace: default, name: scaled}\n"
                  + "note: written through events.k8s.io\ntype: Normal\n",
              "create",
              "-f",
              "-"),
          0,
          "event.events.k8s.io/scaled.note created");
      c.expect(
          k.run(
              "get",
              "events",
              "-n",
              "default",
              "--field-selector",
              "involvedObject.name=scaled",
              "-o",
              "jsonpath={.items[*].message}"),
          0,
          "written through events.k8s.io");
      c.expect(k.run("delete", "secret", "creds", "-n", "default"), 0, "secret \"creds\" deleted");
      c.expect(k.run("delete", "pod", "solo", "-n", "default"), 0, "pod \"solo\" deleted");
      c.expect(k.run("get", "pods", "-n", "default"), 0, "No resources found");
      assertEquals(List.of(), c.failures);
    }
  }
}
