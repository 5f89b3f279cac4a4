package dev.machinery.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.testing.Kubectl;
import dev.machinery.examples.server.ProjectCrds.Definition;
import dev.machinery.examples.server.ProjectCrds.SampleObject;
import dev.machinery.unversioned.discovery.Enablement;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The CustomResourceDefinitions of cert-manager (6), Prometheus Operator (10, and the two-version
 * AlertmanagerConfig of its "full" set) and Gateway API's standard channel (10), with every sample
 * object the projects publish beside them (copies under {@code src/test/resources/crds}, sources in
 * each project's README), on the sample server through every real kubectl on the machine, each
 * against a server of its own (two at a time). The definitions are installed as each project
 * documents it (cert-manager and Gateway API: {@code kubectl apply --server-side}; Prometheus
 * Operator: {@code kubectl create}, its definitions being too large for a client-side apply, which
 * is refused for its last-applied annotation as kube-apiserver refuses it) and waited on until
 * {@code Established}. Then, for each project: the samples are created in rounds (objects of the
 * same kind, namespace and name go to different rounds), each round listed across namespaces with
 * {@code -o wide} (each kind's table must have its definition's printer columns and a row for each
 * object) and deleted before the next; one sample is changed by a merge patch; a field of each
 * kind's {@code spec} is explained; and objects that break the schemas or CEL rules are refused
 * with kube-apiserver's messages. While its sample exists, Prometheus Operator's AlertmanagerConfig
 * is replaced by its two-version definition with a server-side apply, and the sample read as {@code
 * v1beta1}. Kinds without a published sample get one written here. What is expected is read from
 * the files: each definition's names, scope, served versions, printer columns and field types, each
 * sample's kind, namespace and name. Fails, saying what to install, where no kubectl is installed.
 */
class SampleServerProjectCrdsKubectlTest {
  private static final Path CRDS = Path.of("src/test/resources/crds");

  /**
   * A kubectl run and what it must print, made once the object it is filed under exists; an
   * argument starting with {@code example/} is a path in the project's folder.
   */
  record Check(List<String> args, int exitCode, List<String> expected) {
    static Check of(int exitCode, List<String> expected, String... args) {
      return new Check(List.of(args), exitCode, expected);
    }
  }

  /**
   * One project: where its definitions are and how it documents installing them; its sample files;
   * objects written here for kinds without a sample; objects each schema or rule refuses, with the
   * messages; and checks run once the object they name exists.
   */
  record Project(
      String name,
      List<String> crdPaths,
      List<String> install,
      List<String> samplePaths,
      String extraObjects,
      String invalidObjects,
      List<String> refusals,
      Map<SampleObject, List<Check>> checks) {}

  private static final String CERT_MANAGER_EXTRA =
      """
      apiVersion: cert-manager.io/v1
      kind: ClusterIssuer
      metadata:
        name: selfsigned-cluster-issuer
      spec:
        selfSigned: {}
      ---
      apiVersion: cert-manager.io/v1
      kind: CertificateRequest
      metadata:
        name: test1-request
        namespace: default
      spec:
        request: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K
        issuerRef:
          name: selfsigned-issuer
      ---
      apiVersion: acme.cert-manager.io/v1
      kind: Order
      metadata:
        name: test-order
        namespace: default
      spec:
        request: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K
        issuerRef:
          name: test
        dnsNames:
        - example.com
      ---
      apiVersion: acme.cert-manager.io/v1
      kind: Challenge
      metadata:
        name: test-challenge
        namespace: default
      spec:
        authorizationURL: https://acme.example.com/authz/1
        dnsName: example.com
        issuerRef:
          name: test
        key: key-authorization
        solver:
          dns01:
            route53: {}
        token: token
        type: DNS-01
        url: https://acme.example.com/chall/1
      """;

  private static final String CERT_MANAGER_INVALID =
      """
      apiVersion: cert-manager.io/v1
      kind: Issuer
      metadata:
        name: two-venafis
        namespace: default
      spec:
        venafi:
          zone: devops
      ---
      apiVersion: cert-manager.io/v1
      kind: Certificate
      metadata:
        name: dsa-key
        namespace: default
      spec:
        secretName: dsa-key
        issuerRef:
          name: selfsigned-issuer
        privateKey:
          algorithm: DSA
      ---
      apiVersion: cert-manager.io/v1
      kind: Certificate
      metadata:
        name: no-issuer
        namespace: default
      spec:
        dnsNames:
        - example.com
      """;

  private static final String PROMETHEUS_EXTRA =
      """
      apiVersion: monitoring.coreos.com/v1
      kind: Probe
      metadata:
        name: example-probe
        namespace: default
      spec:
        prober:
          url: blackbox-exporter:9115
        targets:
          staticConfig:
            static:
            - https://example.com
      ---
      apiVersion: monitoring.coreos.com/v1alpha1
      kind: ScrapeConfig
      metadata:
        name: example-scrape-config
        namespace: default
      spec:
        staticConfigs:
        - targets:
          - example.com:9100
      """;

  private static final String PROMETHEUS_INVALID =
      """
      apiVersion: monitoring.coreos.com/v1alpha1
      kind: PrometheusAgent
      metadata:
        name: daemonset-replicas
        namespace: default
      spec:
        mode: DaemonSet
        replicas: 2
      ---
      apiVersion: monitoring.coreos.com/v1alpha1
      kind: ScrapeConfig
      metadata:
        name: two-authorizations
        namespace: default
      spec:
        basicAuth:
          username:
            name: credentials
            key: username
        authorization:
          type: Bearer
      ---
      apiVersion: monitoring.coreos.com/v1
      kind: ServiceMonitor
      metadata:
        name: numeric-interval
        namespace: default
      spec:
        selector: {}
        endpoints:
        - port: web
          interval: 30
      ---
      apiVersion: monitoring.coreos.com/v1
      kind: Alertmanager
      metadata:
        name: rolling-recreate
        namespace: default
      spec:
        updateStrategy:
          type: OnDelete
          rollingUpdate:
            maxUnavailable: 1
      """;

  private static final String GATEWAY_INVALID =
      """
      apiVersion: gateway.networking.k8s.io/v1
      kind: TLSRoute
      metadata:
        name: ip-hostname
        namespace: default
      spec:
        hostnames:
        - 10.0.0.1
        rules:
        - backendRefs:
          - name: backend
            port: 443
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: BackendTLSPolicy
      metadata:
        name: no-ca
        namespace: default
      spec:
        targetRefs:
        - group: ""
          kind: Service
          name: backend
        validation:
          hostname: backend.example.com
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: GRPCRoute
      metadata:
        name: dashed-service
        namespace: default
      spec:
        rules:
        - matches:
          - method:
              service: example-dashed.v1
              method: Get
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata:
        name: service-without-port
        namespace: default
      spec:
        rules:
        - backendRefs:
          - name: backend
      """;

  static List<Project> projects() {
    return List.of(
        new Project(
            "cert-manager",
            List.of("deploy/crds"),
            List.of("apply", "--server-side"),
            List.of("test/fixtures", "test/integration/validation/files"),
            CERT_MANAGER_EXTRA,
            CERT_MANAGER_INVALID,
            List.of(
                "Issuer.cert-manager.io \"two-venafis\" is invalid: spec.venafi: Invalid value:"
                    + " \"object\": exactly one of tpp, cloud, or ngts must be configured",
                "Certificate.cert-manager.io \"dsa-key\" is invalid: spec.privateKey.algorithm:"
                    + " Unsupported value: \"DSA\": supported values: \"RSA\", \"ECDSA\","
                    + " \"Ed25519\"",
                "Certificate.cert-manager.io \"no-issuer\" is invalid: [spec.issuerRef: Required"
                    + " value, spec.secretName: Required value]"),
            Map.of(
                new SampleObject("cert-manager.io", "Certificate", "default", "test1"),
                List.of(
                    Check.of(
                        0,
                        List.of("[\"example.org\",\"www.example.org\"]"),
                        "patch",
                        "certificates.cert-manager.io",
                        "test1",
                        "-n",
                        "default",
                        "--type=merge",
                        "-p",
                        "{\"spec\":{\"dnsNames\":[\"example.org\",\"www.example.org\"]}}",
                        "-o",
                        "jsonpath={.spec.dnsNames}")))),
        new Project(
            "prometheus-operator",
            List.of("example/prometheus-operator-crd"),
            List.of("create"),
            List.of(
                "example/additional-scrape-configs",
                "example/admission-webhook",
                "example/non-rbac",
                "example/rbac",
                "example/shards",
                "example/storage",
                "example/thanos",
                "example/user-guides"),
            PROMETHEUS_EXTRA,
            PROMETHEUS_INVALID,
            List.of(
                "PrometheusAgent.monitoring.coreos.com \"daemonset-replicas\" is invalid: spec:"
                    + " Invalid value: \"object\": replicas cannot be set when mode is DaemonSet",
                "ScrapeConfig.monitoring.coreos.com \"two-authorizations\" is invalid: spec: Invalid"
                    + " value: \"object\": at most one of basicAuth, authorization, or oauth2 can be"
                    + " configured",
                "ServiceMonitor.monitoring.coreos.com \"numeric-interval\" is invalid:"
                    + " spec.endpoints[0].interval: Invalid value: \"integer\":"
                    + " spec.endpoints[0].interval in body must be of type string: \"integer\"",
                "Alertmanager.monitoring.coreos.com \"rolling-recreate\" is invalid:"
                    + " spec.updateStrategy: Invalid value: \"object\": rollingUpdate requires type"
                    + " to be RollingUpdate"),
            Map.of(
                new SampleObject("monitoring.coreos.com", "Prometheus", "default", "main"),
                List.of(
                    Check.of(
                        0,
                        List.of("3"),
                        "patch",
                        "prometheuses.monitoring.coreos.com",
                        "main",
                        "-n",
                        "default",
                        "--type=merge",
                        "-p",
                        "{\"spec\":{\"replicas\":3}}",
                        "-o",
                        "jsonpath={.spec.replicas}"),
                    Check.of(
                        0,
                        List.of("main", "3"),
                        "get",
                        "prometheuses.monitoring.coreos.com",
                        "main",
                        "-n",
                        "default")),
                // The two-version AlertmanagerConfig replaces the one-version definition by a
                // server-side apply (which must take spec.versions from kubectl create's manager),
                // and the v1alpha1 sample reads as v1beta1.
                new SampleObject(
                    "monitoring.coreos.com", "AlertmanagerConfig", "default", "config-example"),
                List.of(
                    Check.of(
                        0,
                        List.of(
                            "customresourcedefinition.apiextensions.k8s.io/"
                                + "alertmanagerconfigs.monitoring.coreos.com serverside-applied"),
                        "apply",
                        "--server-side",
                        "--force-conflicts",
                        "-f",
                        "example/prometheus-operator-crd-full/"
                            + "monitoring.coreos.com_alertmanagerconfigs.yaml"),
                    Check.of(
                        0,
                        List.of("condition met"),
                        "wait",
                        "--for",
                        "condition=established",
                        "--timeout=30s",
                        "crd/alertmanagerconfigs.monitoring.coreos.com"),
                    Check.of(
                        0,
                        List.of("monitoring.coreos.com/v1beta1 AlertmanagerConfig webhook"),
                        "get",
                        "alertmanagerconfigs.v1beta1.monitoring.coreos.com",
                        "config-example",
                        "-n",
                        "default",
                        "-o",
                        "jsonpath={.apiVersion} {.kind} {.spec.receivers[0].name}"),
                    Check.of(
                        0,
                        List.of("KIND:", "AlertmanagerConfig", "v1beta1", "receivers"),
                        "explain",
                        "alertmanagerconfigs.spec",
                        "--api-version=monitoring.coreos.com/v1beta1")))),
        new Project(
            "gateway-api",
            List.of("config/crd/standard"),
            List.of("apply", "--server-side"),
            List.of("examples/standard"),
            null,
            GATEWAY_INVALID,
            List.of(
                "TLSRoute.gateway.networking.k8s.io \"ip-hostname\" is invalid: spec.hostnames:"
                    + " Invalid value: \"array\": Hostnames cannot contain an IP",
                "BackendTLSPolicy.gateway.networking.k8s.io \"no-ca\" is invalid: spec.validation:"
                    + " Invalid value: \"object\": must specify either CACertificateRefs or"
                    + " WellKnownCACertificates",
                "GRPCRoute.gateway.networking.k8s.io \"dashed-service\" is invalid:"
                    + " spec.rules[0].matches[0].method: Invalid value: \"object\": service must"
                    + " only contain valid characters (matching"
                    + " ^(?i)\\.?[a-z_][a-z_0-9]*(\\.[a-z_][a-z_0-9]*)*$)",
                "HTTPRoute.gateway.networking.k8s.io \"service-without-port\" is invalid:"
                    + " spec.rules[0].backendRefs[0]: Invalid value: \"object\": Must have port for"
                    + " Service reference"),
            Map.of(
                new SampleObject("gateway.networking.k8s.io", "HTTPRoute", "default", "http-app-1"),
                List.of(
                    Check.of(
                        0,
                        List.of("[\"foo.com\",\"www.foo.com\"]"),
                        "patch",
                        "httproutes.gateway.networking.k8s.io",
                        "http-app-1",
                        "-n",
                        "default",
                        "--type=merge",
                        "-p",
                        "{\"spec\":{\"hostnames\":[\"foo.com\",\"www.foo.com\"]}}",
                        "-o",
                        "jsonpath={.spec.hostnames}")))));
  }

  @TestFactory
  Stream<DynamicTest> everyKubectl() throws Exception {
    Map<String, Path> installed = Kubectl.requireInstalled("SampleServerProjectCrdsKubectlTest");
    Map<Project, Path> unpacked = new LinkedHashMap<>();
    for (Project project : projects()) {
      Path dir = ProjectCrds.unpack(CRDS.resolve(project.name()));
      if (project.extraObjects() != null) {
        Files.writeString(dir.resolve(EXTRA), project.extraObjects());
      }
      unpacked.put(project, dir);
    }
    // Two servers and kubectl builds at a time: a scenario spends much of its time waiting for
    // kubectl (its start, its discovery, its client's rate limit), which another one fills.
    ExecutorService scenarios = Executors.newFixedThreadPool(2);
    Map<String, Future<List<String>>> outcomes = new LinkedHashMap<>();
    for (Map.Entry<String, Path> e : installed.entrySet()) {
      outcomes.put(
          e.getKey(), scenarios.submit(() -> scenario(e.getKey(), e.getValue(), unpacked)));
    }
    scenarios.shutdown();
    Thread cleanup =
        new Thread(
            () -> {
              try {
                if (scenarios.awaitTermination(1, TimeUnit.HOURS)) {
                  for (Path dir : unpacked.values()) {
                    ProjectCrds.delete(dir);
                  }
                }
              } catch (InterruptedException | IOException ex) {
                // A temporary directory left behind.
              }
            });
    cleanup.setDaemon(true);
    cleanup.start();
    return outcomes.entrySet().stream()
        .map(
            e ->
                DynamicTest.dynamicTest(
                    e.getKey(), () -> assertEquals(List.of(), e.getValue().get())));
  }

  /** The file the objects written here for kinds without a sample go to. */
  private static final String EXTRA = "objects-for-kinds-without-a-sample.yaml";

  /**
   * At most this many objects a kubectl run: kubectl's client allows ten requests at once, then
   * five a second, so larger sets go to several runs at the same time.
   */
  private static final int OBJECTS_PER_RUN = 10;

  /** One kubectl build against a server of its own; what it found wrong. */
  private static List<String> scenario(String name, Path binary, Map<Project, Path> projects)
      throws Exception {
    long start = System.nanoTime();
    ApiServer server = SampleServer.build(Enablement.all());
    SampleServer.loadSamples(server);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      Kubectl k = Kubectl.of(name, binary, binding.port());
      Runner runner = new Runner(k, pool);
      KubectlChecks checks = new KubectlChecks(name);
      Map<Project, List<Definition>> definitions = new LinkedHashMap<>();
      List<String> crds = new ArrayList<>();
      for (Map.Entry<Project, Path> e : projects.entrySet()) {
        Project project = e.getKey();
        List<Path> files = new ArrayList<>();
        for (String path : project.crdPaths()) {
          files.addAll(ProjectCrds.yamlFiles(e.getValue().resolve(path)));
        }
        List<Definition> defined = ProjectCrds.definitions(files);
        definitions.put(project, defined);
        List<String> args = new ArrayList<>(project.install());
        files.forEach(f -> args.addAll(List.of("-f", f.toString())));
        String verb =
            project.install().contains("--server-side") ? "serverside-applied" : "created";
        checks.expect(
            runner.run(null, args),
            0,
            defined.stream()
                .map(d -> "customresourcedefinition.apiextensions.k8s.io/" + d.name() + " " + verb)
                .toArray(String[]::new));
        defined.forEach(d -> crds.add(d.name()));
      }
      List<String> wait =
          new ArrayList<>(List.of("wait", "--for", "condition=established", "--timeout=60s"));
      crds.forEach(c -> wait.add("crd/" + c));
      checks.expect(
          runner.run(null, wait),
          0,
          crds.stream()
              .map(c -> "customresourcedefinition.apiextensions.k8s.io/" + c + " condition met")
              .toArray(String[]::new));

      // A definition over 256 KiB does not fit in kubectl apply's last-applied annotation.
      Path prometheuses =
          projects.entrySet().stream()
              .filter(e -> e.getKey().name().equals("prometheus-operator"))
              .findFirst()
              .orElseThrow()
              .getValue()
              .resolve("example/prometheus-operator-crd/monitoring.coreos.com_prometheuses.yaml");
      checks.expect(
          runner.run(null, List.of("apply", "-f", prometheuses.toString())),
          1,
          "The CustomResourceDefinition \"prometheuses.monitoring.coreos.com\" is invalid:"
              + " metadata.annotations: Too long: may not be more than 262144 bytes");

      for (Map.Entry<Project, Path> e : projects.entrySet()) {
        samples(runner, checks, e.getKey(), e.getValue(), definitions.get(e.getKey()));
      }
      System.out.printf(
          "%s: %d kubectl runs in %d s%n",
          name, runner.runs.get(), (System.nanoTime() - start) / 1_000_000_000L);
      return checks.failures;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Runs kubectl, alone or several at the same time, counting the runs. */
  private record Runner(Kubectl k, ExecutorService pool, AtomicInteger runs) {
    Runner(Kubectl k, ExecutorService pool) {
      this(k, pool, new AtomicInteger());
    }

    Kubectl.Result run(String stdin, List<String> args) throws IOException, InterruptedException {
      runs.incrementAndGet();
      return k.run(Map.of(), stdin, args.toArray(String[]::new));
    }

    /** Runs each at the same time; the results in the same order. */
    List<Kubectl.Result> all(List<List<String>> argLists) throws Exception {
      List<Future<Kubectl.Result>> futures = new ArrayList<>();
      for (List<String> args : argLists) {
        futures.add(pool.submit(() -> run(null, args)));
      }
      List<Kubectl.Result> results = new ArrayList<>();
      for (Future<Kubectl.Result> future : futures) {
        results.add(future.get());
      }
      return results;
    }
  }

  /** A sample file and the objects in it, as kubectl will name them. */
  record SampleFile(Path path, List<SampleObject> objects) {
    boolean hasNamespace() {
      return objects.stream().anyMatch(o -> o.kind().equals("Namespace"));
    }
  }

  private static void samples(
      Runner runner, KubectlChecks checks, Project project, Path dir, List<Definition> definitions)
      throws Exception {
    Map<String, Definition> byKind = new LinkedHashMap<>();
    for (Definition d : definitions) {
      byKind.put(d.group() + "/" + d.kind(), d);
    }
    List<Path> paths = new ArrayList<>();
    for (String path : project.samplePaths()) {
      paths.addAll(ProjectCrds.yamlFiles(dir.resolve(path)));
    }
    if (Files.exists(dir.resolve(EXTRA))) {
      paths.add(dir.resolve(EXTRA));
    }
    List<SampleFile> files = new ArrayList<>();
    Set<String> kindsWithObjects = new HashSet<>();
    for (Path path : paths) {
      List<SampleObject> objects =
          ProjectCrds.documents(path).stream()
              .map(SampleObject::of)
              .map(o -> o.in("default"))
              .toList();
      objects.forEach(o -> kindsWithObjects.add(o.group() + "/" + o.kind()));
      files.add(new SampleFile(path, objects));
    }
    for (String kind : byKind.keySet()) {
      if (!kindsWithObjects.contains(kind)) {
        checks.failures.add(project.name() + ": no sample object of " + kind);
      }
    }

    // Rounds of files whose objects have different names: the first round that can take each
    // file. Each round's objects are created, listed and deleted before the next round.
    List<List<SampleFile>> rounds = new ArrayList<>();
    List<Set<SampleObject>> taken = new ArrayList<>();
    for (SampleFile file : files) {
      int round = 0;
      while (round < rounds.size()
          && file.objects().stream().anyMatch(taken.get(round)::contains)) {
        round++;
      }
      if (round == rounds.size()) {
        rounds.add(new ArrayList<>());
        taken.add(new HashSet<>());
      }
      rounds.get(round).add(file);
      taken.get(round).addAll(file.objects());
    }

    // Cluster-scoped kinds first: kubectl get -A, once it has printed a namespaced kind, gives
    // the tables after it a NAMESPACE column whatever their scope.
    String resources =
        definitions.stream()
            .sorted(Comparator.comparing(Definition::namespaced))
            .map(Definition::resource)
            .collect(Collectors.joining(","));
    Set<String> namespaces = new HashSet<>(List.of("default", "kube-system"));
    for (List<SampleFile> round : rounds) {
      // Files that create Namespaces first, in one run, so that the objects in them find them;
      // then the other files, a few objects a run, the runs at the same time.
      List<List<SampleFile>> creates = new ArrayList<>();
      creates.add(round.stream().filter(SampleFile::hasNamespace).toList());
      List<SampleFile> chunk = new ArrayList<>();
      int size = 0;
      for (SampleFile file : round) {
        if (file.hasNamespace()) {
          continue;
        }
        if (size > 0 && size + file.objects().size() > OBJECTS_PER_RUN) {
          creates.add(chunk);
          chunk = new ArrayList<>();
          size = 0;
        }
        chunk.add(file);
        size += file.objects().size();
      }
      creates.add(chunk);
      creates.removeIf(List::isEmpty);

      List<SampleObject> custom = new ArrayList<>();
      List<List<String>> argLists = new ArrayList<>();
      List<List<String>> expected = new ArrayList<>();
      List<Integer> exitCodes = new ArrayList<>();
      for (List<SampleFile> run : creates) {
        List<String> args = new ArrayList<>(List.of("create"));
        List<String> lines = new ArrayList<>();
        int exitCode = 0;
        for (SampleFile file : run) {
          args.addAll(List.of("-f", file.path().toString()));
          for (SampleObject o : file.objects()) {
            if (!o.kind().equals("Namespace")) {
              lines.add(o.kindRef() + "/" + o.name() + " created");
              custom.add(o);
            } else if (namespaces.add(o.name())) {
              lines.add("namespace/" + o.name() + " created");
            } else {
              exitCode = 1;
              lines.add("namespaces \"" + o.name() + "\" already exists");
            }
          }
        }
        argLists.add(args);
        expected.add(lines);
        exitCodes.add(exitCode);
      }
      if (creates.get(0).stream().anyMatch(SampleFile::hasNamespace)) {
        checks.expect(
            runner.run(null, argLists.get(0)),
            exitCodes.get(0),
            expected.get(0).toArray(String[]::new));
        argLists.remove(0);
        expected.remove(0);
        exitCodes.remove(0);
      }
      List<Kubectl.Result> results = runner.all(argLists);
      for (int i = 0; i < results.size(); i++) {
        checks.expect(results.get(i), exitCodes.get(i), expected.get(i).toArray(String[]::new));
      }

      Kubectl.Result listed =
          checks.expect(runner.run(null, List.of("get", resources, "-A", "-o", "wide")), 0);
      tables(checks, project, listed.out(), custom, byKind);

      for (SampleObject o : custom) {
        for (Check check : project.checks().getOrDefault(o, List.of())) {
          List<String> args = new ArrayList<>();
          for (String arg : check.args()) {
            args.add(arg.startsWith("example/") ? dir.resolve(arg).toString() : arg);
          }
          checks.expect(
              runner.run(null, args), check.exitCode(), check.expected().toArray(String[]::new));
        }
      }

      // Deleted by name, a few a run, the runs at the same time.
      Map<String, List<SampleObject>> byNamespace = new LinkedHashMap<>();
      for (SampleObject o : custom) {
        byNamespace.computeIfAbsent(o.namespace(), n -> new ArrayList<>()).add(o);
      }
      List<List<String>> deletes = new ArrayList<>();
      List<List<String>> deleted = new ArrayList<>();
      for (Map.Entry<String, List<SampleObject>> e : byNamespace.entrySet()) {
        List<SampleObject> all = e.getValue();
        for (int from = 0; from < all.size(); from += OBJECTS_PER_RUN) {
          List<SampleObject> some = all.subList(from, Math.min(all.size(), from + OBJECTS_PER_RUN));
          List<String> args = new ArrayList<>(List.of("delete", "--wait=false"));
          if (!e.getKey().isEmpty()) {
            args.addAll(List.of("-n", e.getKey()));
          }
          some.forEach(o -> args.add(o.kindRef() + "/" + o.name()));
          deletes.add(args);
          deleted.add(
              some.stream().map(o -> o.kindRef() + " \"" + o.name() + "\" deleted").toList());
        }
      }
      results = runner.all(deletes);
      for (int i = 0; i < results.size(); i++) {
        checks.expect(results.get(i), 0, deleted.get(i).toArray(String[]::new));
      }
    }
    checks.expect(runner.run(null, List.of("get", resources, "-A")), 0, "No resources found");

    List<List<String>> explains = new ArrayList<>();
    List<List<String>> explained = new ArrayList<>();
    for (Definition d : definitions) {
      String version = d.preferredVersion();
      Map.Entry<String, String> field = d.explainableField(version);
      explains.add(
          List.of(
              "explain",
              d.plural() + ".spec." + field.getKey(),
              "--api-version=" + d.group() + "/" + version));
      explained.add(List.of("KIND:", d.kind(), field.getKey(), "<" + field.getValue() + ">"));
    }
    List<Kubectl.Result> results = runner.all(explains);
    for (int i = 0; i < results.size(); i++) {
      checks.expect(results.get(i), 0, explained.get(i).toArray(String[]::new));
    }

    checks.expect(
        runner.run(project.invalidObjects(), List.of("create", "-f", "-")),
        1,
        project.refusals().toArray(String[]::new));
    checks.expect(runner.run(null, List.of("get", resources, "-A")), 0, "No resources found");
  }

  private static final Pattern COLUMN_GAP = Pattern.compile("\\s{2,}");

  /**
   * Checks the tables of {@code kubectl get -A -o wide} over several kinds: one a kind with
   * objects, its header the definition's, a row for each object.
   */
  private static void tables(
      KubectlChecks checks,
      Project project,
      String out,
      List<SampleObject> objects,
      Map<String, Definition> byKind) {
    Map<String, List<String>> blocks = new LinkedHashMap<>();
    for (String block : out.split("\n\\s*\n")) {
      List<String> lines = block.lines().filter(l -> !l.isBlank()).toList();
      String kindRef = null;
      if (lines.size() > 1) {
        for (String cell : COLUMN_GAP.split(lines.get(1).trim())) {
          if (cell.contains("/")) {
            kindRef = cell.substring(0, cell.indexOf('/'));
            break;
          }
        }
      }
      if (kindRef == null) {
        checks.failures.add(project.name() + ": a table without kind/name rows:\n" + out);
        continue;
      }
      blocks.put(kindRef, lines);
    }
    Set<String> kinds = new LinkedHashSet<>();
    for (SampleObject o : objects) {
      kinds.add(o.group() + "/" + o.kind());
    }
    for (String kind : kinds) {
      Definition d = byKind.get(kind);
      String kindRef = d.kind().toLowerCase(Locale.ROOT) + "." + d.group();
      List<String> lines = blocks.get(kindRef);
      if (lines == null) {
        checks.failures.add(project.name() + ": no table of " + kindRef + " in:\n" + out);
        continue;
      }
      checks.same(
          kindRef + " header",
          d.wideHeader(d.preferredVersion()),
          List.of(COLUMN_GAP.split(lines.get(0).trim())));
      for (SampleObject o : objects) {
        if (!(o.group() + "/" + o.kind()).equals(kind)) {
          continue;
        }
        String row = (d.namespaced() ? o.namespace() + " " : "") + kindRef + "/" + o.name();
        boolean found =
            lines.stream()
                .skip(1)
                .map(l -> String.join(" ", COLUMN_GAP.split(l.trim())))
                .anyMatch(l -> l.equals(row) || l.startsWith(row + " "));
        if (!found) {
          checks.failures.add(
              project.name() + ": no row " + row + " in:\n" + String.join("\n", lines));
        }
      }
    }
    if (blocks.size() != kinds.size()) {
      checks.failures.add(project.name() + ": expected tables of " + kinds + ", got:\n" + out);
    }
  }
}
