package dev.machinery.examples.server;

import dev.machinery.api.KubernetesApi;
import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.ApiextensionsV1;
import dev.machinery.apiserver.audit.AuditLogWriter;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.authentication.Authenticator;
import dev.machinery.apiserver.authentication.TokenFileAuthenticator;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authentication.X509Authenticator;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.client.InProcessTransport;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.http.HttpBinding;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.negotiation.Ages;
import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.apiserver.netty.NettyBinding;
import dev.machinery.apiserver.netty.NettyOptions;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceList;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.apiserver.storage.encryption.EncryptionConfiguration;
import dev.machinery.builtins.BuiltinKinds;
import dev.machinery.client.Client;
import dev.machinery.client.RateLimiter;
import dev.machinery.cluster.ControllerManager;
import dev.machinery.cluster.SimulatedNode;
import dev.machinery.core.codec.FieldProblem;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.examples.apps.AppsV1;
import dev.machinery.examples.apps.Container;
import dev.machinery.examples.apps.DeploymentSpec;
import dev.machinery.examples.apps.DeploymentStatus;
import dev.machinery.examples.demo.DemoApi;
import dev.machinery.examples.demo.v1.Rollout;
import dev.machinery.examples.frobber.FrobberApi;
import dev.machinery.examples.sites.Site;
import dev.machinery.storage.etcd.EtcdStorage;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.ScaleSpec;
import dev.machinery.unversioned.meta.v1.ScaleStatus;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The sample API server: every built-in kind of Kubernetes 1.33 as Kubernetes serves it
 * (Namespaces, ConfigMaps, Events, Deployments, Jobs, Pods, ... from {@code machinery-builtins},
 * with Kubernetes' defaults and strategies), CustomResourceDefinitions, and three kinds of the
 * sample's own, modelled in Java, each in a group of its own under {@code example.dev}: the {@code
 * demo.example.dev} Rollout (a Deployment's spec and status) served in {@code v1beta1} and {@code
 * v1} (stored as {@code v1}, converted by generated code) with {@code status} and {@code scale}
 * subresources, the {@code all} category and kubectl's columns; the Frobbers of {@code
 * frobbers.example.dev} ({@code v6} and {@code v7beta1}); and the {@code sites.example.dev/v1} Site
 * (with a {@code status} subresource). Run it with {@code mvn -q -pl machinery-examples exec:java};
 * its flags ({@link SampleServerFlags}) are {@code --port}, {@code --runtime-config}, {@code
 * --request-log} (one line a request, through SLF4J), {@code --http-binding=netty|jdk}, and
 * kube-apiserver's etcd (with {@code --storage-media-type}, protobuf by default as
 * kube-apiserver's), TLS, authentication, authorization, in-flight, audit and admission flags;
 * {@code main} runs kube-apiserver's default admission plugins ({@link
 * SampleServerFlags#admission()}), which {@link #builder} leaves to its caller.
 *
 * <p>Thread-safe once built, as {@link ApiServer} is.
 */
public final class SampleServer {
  private SampleServer() {}

  /**
   * Returns the sample's Scheme: its own kinds and their list kinds, {@code meta.k8s.io/v1}, {@code
   * rbac.authorization.k8s.io/v1} and {@code apiextensions.k8s.io/v1} (Kubernetes' built-in kinds
   * are served as {@code Unstructured} objects, without classes).
   *
   * @return the scheme
   */
  public static Scheme scheme() {
    Scheme.Builder builder = MetaV1.addToScheme(Scheme.builder());
    DemoApi.addToScheme(builder);
    ResourceList.addToScheme(builder, "Rollout", DemoApi.V1, DemoApi.V1BETA1);
    FrobberApi.addToScheme(builder);
    ResourceList.addToScheme(builder, "Frobber", FrobberApi.V6, FrobberApi.V7BETA1);
    builder.addKnownTypes(Site.V1, Site.class);
    ResourceList.addToScheme(builder, "Site", Site.V1);
    // Served only with --authorization-mode=RBAC (ApiServer.Builder.rbac()).
    RbacV1.addToScheme(builder);
    ApiextensionsV1.addToScheme(builder);
    return builder.build();
  }

  /**
   * Builds the sample server, empty.
   *
   * @param enablement which group versions to serve
   * @return the server
   */
  public static ApiServer build(Enablement enablement) {
    return build(enablement, Duration.ofMinutes(1));
  }

  /**
   * Builds the sample server, empty, with a chosen watch bookmark interval.
   *
   * @param enablement which group versions to serve
   * @param bookmarkInterval how often watches that allow bookmarks get one
   * @return the server
   */
  public static ApiServer build(Enablement enablement, Duration bookmarkInterval) {
    return build(enablement, bookmarkInterval, null);
  }

  /**
   * Builds the sample server, empty, with a chosen watch bookmark interval and request log.
   *
   * @param enablement which group versions to serve
   * @param bookmarkInterval how often watches that allow bookmarks get one
   * @param requestLog where {@link ApiServer#serve} sends one line a request, or {@code null} for
   *     no request log
   * @return the server
   */
  public static ApiServer build(
      Enablement enablement, Duration bookmarkInterval, Consumer<String> requestLog) {
    return build(enablement, bookmarkInterval, requestLog, new MemoryStorage());
  }

  /**
   * Builds the sample server over a storage of the caller's, such as an {@code EtcdStorage}: the
   * objects the storage already holds are served as they are.
   *
   * @param enablement which group versions to serve
   * @param bookmarkInterval how often watches that allow bookmarks get one
   * @param requestLog where {@link ApiServer#serve} sends one line a request, or {@code null} for
   *     no request log
   * @param storage the storage
   * @return the server
   */
  public static ApiServer build(
      Enablement enablement,
      Duration bookmarkInterval,
      Consumer<String> requestLog,
      Storage storage) {
    return build(
        enablement, bookmarkInterval, requestLog, storage, ApiServer.DEFAULT_WATCH_CACHE_SIZE);
  }

  /**
   * Builds the sample server over a storage of the caller's with a chosen watch cache size (see
   * {@link ApiServer.Builder#watchCacheSize}; 0 gives every watcher a storage watch of its own).
   *
   * @param enablement which group versions to serve
   * @param bookmarkInterval how often watches that allow bookmarks get one
   * @param requestLog where {@link ApiServer#serve} sends one line a request, or {@code null} for
   *     no request log
   * @param storage the storage
   * @param watchCacheSize how many changes each resource's watch cache keeps; 0 for no cache
   * @return the server
   */
  public static ApiServer build(
      Enablement enablement,
      Duration bookmarkInterval,
      Consumer<String> requestLog,
      Storage storage,
      int watchCacheSize) {
    return builder(enablement, bookmarkInterval, requestLog, storage, watchCacheSize).build();
  }

  /**
   * The CEL validation rules of CustomResourceDefinitions: {@code machinery-cel}'s, found on the
   * class path (the artifact cannot be a named module, so the sample does not name its class).
   *
   * @return the rules
   * @throws IllegalStateException when {@code machinery-cel} is not on the class path
   */
  public static ValidationRules celValidationRules() {
    return ValidationRules.installed()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no ValidationRules implementation on the class path: add machinery-cel"));
  }

  /**
   * Returns the sample server's builder, with its resources added, for a caller to add more (such
   * as TLS and authentication) before building.
   *
   * @param enablement which group versions to serve
   * @param bookmarkInterval how often watches that allow bookmarks get one
   * @param requestLog where {@link ApiServer#serve} sends one line a request, or {@code null} for
   *     no request log
   * @param storage the storage
   * @param watchCacheSize how many changes each resource's watch cache keeps; 0 for no cache
   * @return the builder
   */
  public static ApiServer.Builder builder(
      Enablement enablement,
      Duration bookmarkInterval,
      Consumer<String> requestLog,
      Storage storage,
      int watchCacheSize) {
    Scheme scheme = scheme();
    ApiServer.Builder builder =
        ApiServer.builder(scheme)
            .storage(storage)
            // Nothing a read does waits but the storage: its authenticators and audit log never
            // block.
            .readsWithoutWaiting(true)
            .watchCacheSize(watchCacheSize)
            .enablement(enablement)
            .bookmarkInterval(bookmarkInterval)
            .requestLog(requestLog)
            .customResourceDefinitions(celValidationRules())
            .addResource(
                ResourceDefinition.builder(GroupKind.of(DemoApi.GROUP, "Rollout"), true)
                    // What kube-apiserver defaults and the apply key of a port names: its protocol.
                    .normalizer(SampleServer::defaultRollout)
                    .categories("all")
                    .storageVersion(DemoApi.V1)
                    .statusSubresource()
                    .tracksGeneration()
                    .scaleSubresource(Rollout.class, new RolloutScale())
                    .validator(SampleServer::validateRollout)
                    .table(rolloutColumns(scheme))
                    .build())
            .addResource(
                ResourceDefinition.builder(GroupKind.of(FrobberApi.GROUP, "Frobber"), true)
                    .shortNames("frob")
                    // A custom kind: kube-apiserver answers a custom resource's delete with the
                    // object.
                    .returnDeletedObject()
                    .storageVersion(FrobberApi.V6)
                    .build())
            .addResource(
                ResourceDefinition.builder(GroupKind.of(Site.GROUP, "Site"), true)
                    .statusSubresource()
                    .tracksGeneration()
                    .build());
    // Every kind of Kubernetes 1.33, from Kubernetes' own description.
    return BuiltinKinds.kubernetes().install(builder);
  }

  /** A Rollout's defaults, in either served version: its containers' ports' protocol. */
  private static List<FieldProblem> defaultRollout(Object object) {
    if (object.getClass() == Rollout.class) {
      Rollout rollout = (Rollout) object;
      rollout.setSpec(AppsV1.withDefaults(rollout.getSpec()));
    } else if (object.getClass() == dev.machinery.examples.demo.v1beta1.Rollout.class) {
      var rollout = (dev.machinery.examples.demo.v1beta1.Rollout) object;
      rollout.setSpec(AppsV1.withDefaults(rollout.getSpec()));
    }
    return List.of();
  }

  private static Columns<Rollout> rolloutColumns(Scheme scheme) {
    return Columns.of(
            (Object o) ->
                Rollout.class.isInstance(o)
                    ? Rollout.class.cast(o)
                    : scheme.convert(o, Rollout.class))
        .add(
            "Name",
            "string",
            0,
            "Name must be unique within a namespace.",
            d -> d.getMetadata().getName())
        .add(
            "Ready",
            "string",
            0,
            "Number of the pod with ready state.",
            d -> number(status(d).readyReplicas()) + "/" + number(spec(d).replicas()))
        .add(
            "Up-to-date",
            "integer",
            0,
            "Total number of non-terminated pods targeted by this rollout that have the desired template spec.",
            d -> number(status(d).updatedReplicas()))
        .add(
            "Available",
            "integer",
            0,
            "Total number of available pods (ready for at least minReadySeconds) targeted by this rollout.",
            d -> number(status(d).availableReplicas()))
        .add(
            "Age",
            "string",
            0,
            "Time since creation.",
            d -> Ages.since(d.getMetadata().getCreationTimestamp()))
        .add(
            "Containers",
            "string",
            1,
            "Names of each container in the template.",
            d -> containers(d).stream().map(Container::name).collect(Collectors.joining(",")))
        .add(
            "Images",
            "string",
            1,
            "Images referenced by each container in the template.",
            d -> containers(d).stream().map(Container::image).collect(Collectors.joining(",")))
        .add(
            "Selector",
            "string",
            1,
            "Label selector for pods.",
            d ->
                spec(d).selector() == null
                    ? "<none>"
                    : LabelSelectors.toSelector(spec(d).selector()).toString());
  }

  private static DeploymentSpec spec(Rollout d) {
    return d.getSpec() == null
        ? new DeploymentSpec(null, null, null, null, null, null, null, null)
        : d.getSpec();
  }

  private static DeploymentStatus status(Rollout d) {
    return d.getStatus() == null
        ? new DeploymentStatus(null, null, null, null, null, null, null)
        : d.getStatus();
  }

  private static List<Container> containers(Rollout d) {
    DeploymentSpec spec = spec(d);
    if (spec.template() == null
        || spec.template().spec() == null
        || spec.template().spec().containers() == null) {
      return List.of();
    }
    return spec.template().spec().containers();
  }

  private static int number(Integer value) {
    return value == null ? 0 : value;
  }

  /** A Rollout's validation: a Deployment's rules for the fields it models. */
  private static List<FieldError> validateRollout(Object object, Object old) {
    Rollout rollout = (Rollout) object;
    List<FieldError> errors = new ArrayList<>();
    FieldPath spec = FieldPath.of("spec");
    DeploymentSpec s = rollout.getSpec();
    if (s == null) {
      errors.add(FieldError.required(spec, ""));
      return errors;
    }
    if (s.replicas() != null && s.replicas() < 0) {
      errors.add(
          FieldError.invalid(
              spec.child("replicas"), s.replicas(), "must be greater than or equal to 0"));
    }
    if (s.selector() == null) {
      errors.add(FieldError.required(spec.child("selector"), ""));
    }
    if (s.template() == null
        || s.template().spec() == null
        || s.template().spec().containers() == null
        || s.template().spec().containers().isEmpty()) {
      errors.add(FieldError.required(spec.child("template").child("spec").child("containers"), ""));
    } else {
      List<Container> containers = s.template().spec().containers();
      for (int i = 0; i < containers.size(); i++) {
        Container c = containers.get(i);
        FieldPath path = spec.child("template").child("spec").child("containers").index(i);
        if (c.name() == null || c.name().isEmpty()) {
          errors.add(FieldError.required(path.child("name"), ""));
        }
        if (c.image() == null || c.image().isEmpty()) {
          errors.add(FieldError.required(path.child("image"), ""));
        }
      }
    }
    if (s.selector() != null && s.template() != null && s.template().metadata() != null) {
      Map<String, String> labels = s.template().metadata().getLabels();
      if (!LabelSelectors.toSelector(s.selector()).matches(labels == null ? Map.of() : labels)) {
        errors.add(
            FieldError.invalid(
                spec.child("template").child("metadata").child("labels"),
                labels,
                "`selector` does not match template `labels`"));
      }
    }
    return errors;
  }

  /** The scale subresource of a Rollout: replicas in spec and status, the selector. */
  private static final class RolloutScale implements ScaleAccessor<Rollout> {
    @Override
    public Scale read(Rollout rollout) {
      Scale scale = new Scale();
      ScaleSpec spec = new ScaleSpec();
      spec.setReplicas(number(spec(rollout).replicas()));
      scale.setSpec(spec);
      ScaleStatus status = new ScaleStatus();
      status.setReplicas(number(status(rollout).replicas()));
      if (spec(rollout).selector() != null) {
        status.setSelector(LabelSelectors.toSelector(spec(rollout).selector()).toString());
      }
      scale.setStatus(status);
      return scale;
    }

    @Override
    public void write(Rollout rollout, Scale scale) {
      DeploymentSpec s = spec(rollout);
      int replicas = scale.getSpec() == null ? 0 : scale.getSpec().getReplicas();
      rollout.setSpec(
          new DeploymentSpec(
              replicas,
              s.selector(),
              s.template(),
              s.strategy(),
              s.minReadySeconds(),
              s.revisionHistoryLimit(),
              s.paused(),
              s.progressDeadlineSeconds()));
    }
  }

  /** The Deployment and Rollout samples: one template, two kinds. */
  private static final String HELLO_SPEC =
      "\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"hello\"},\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"In\",\"values\":[\"web\"]}]},"
          + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"hello\",\"tier\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"hello\",\"image\":\"nginx:1.27\","
          + "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"}}}]}},"
          + "\"strategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":\"25%\",\"maxUnavailable\":0}}}";

  /**
   * Loads the sample objects through the server's own create path: namespaces {@code default} and
   * {@code kube-system}; in {@code default}, a ConfigMap {@code greeting}, a Deployment {@code
   * hello} and a {@code demo.example.dev} Rollout {@code hello} of the same spec. One that exists
   * already (a server restarted on the same etcd) is left as it is.
   *
   * @param server the server
   */
  public static void loadSamples(ApiServer server) {
    post(
        server,
        "/api/v1/namespaces",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"default\"}}");
    post(
        server,
        "/api/v1/namespaces",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"kube-system\"}}");
    post(
        server,
        "/api/v1/namespaces/default/configmaps",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"greeting\",\"labels\":{\"app\":\"hello\"}},\"data\":{\"message\":\"hello, world\"}}");
    post(
        server,
        "/apis/apps/v1/namespaces/default/deployments",
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"hello\",\"labels\":{\"app\":\"hello\",\"tier\":\"web\"}},"
            + HELLO_SPEC
            + "}");
    post(
        server,
        "/apis/demo.example.dev/v1/namespaces/default/rollouts",
        "{\"apiVersion\":\"demo.example.dev/v1\",\"kind\":\"Rollout\",\"metadata\":{\"name\":\"hello\",\"labels\":{\"app\":\"hello\",\"tier\":\"web\"}},"
            + HELLO_SPEC
            + "}");
  }

  private static void post(ApiServer server, String path, String json) {
    InputStream body = new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8));
    ApiResponse response =
        server.handleAs(
            ApiServer.LOOPBACK_USER,
            new ApiRequest(
                "POST", path, Map.of(), Map.of("Content-Type", List.of("application/json")), body));
    if (response.status() != 201 && response.status() != 409) {
      throw new IllegalStateException(
          "loading a sample into "
              + path
              + " failed: "
              + new String(response.body(), StandardCharsets.UTF_8));
    }
  }

  /**
   * Serves a server over HTTP with the binding {@code --http-binding} names.
   *
   * @param server the server
   * @param address where to listen; port 0 picks a free one
   * @param httpBinding {@code jdk} ({@link ApiServer#serve(InetSocketAddress)}, the JDK's HTTP
   *     server) or {@code netty} ({@link NettyBinding}, with its default options)
   * @return the running binding
   * @throws IOException when the address cannot be bound
   * @throws IllegalArgumentException when the binding is neither
   */
  public static HttpBinding serve(ApiServer server, InetSocketAddress address, String httpBinding)
      throws IOException {
    return switch (httpBinding) {
      case "jdk" -> server.serve(address);
      case "netty" -> server.serve(address, NettyBinding.starter(NettyOptions.defaults()));
      default ->
          throw new IllegalArgumentException(
              "--http-binding: expected jdk or netty, got \"" + httpBinding + "\"");
    };
  }

  /**
   * Starts Kubernetes' controllers and the simulated nodes the flags choose ({@code --controllers},
   * {@code --nodes}, {@code --leader-elect}) against the server, each a client of its API in
   * process, authenticated as its own identity and going through the whole request path.
   *
   * @param server the server
   * @param flags the command line
   * @return the running controller manager; closing it stops them
   * @throws InterruptedException when interrupted while the informers fill their caches
   */
  public static ControllerManager startControllers(ApiServer server, SampleServerFlags flags)
      throws InterruptedException {
    return startControllers(server, flags, null);
  }

  /**
   * Starts the controllers, as {@link #startControllers(ApiServer, SampleServerFlags)}, publishing
   * a CA in every namespace's {@code kube-root-ca.crt} (kube-controller-manager's {@code
   * --root-ca-file}).
   *
   * @param server the server
   * @param flags the command line
   * @param rootCa the CA's PEM: the server's own when it serves HTTPS; {@code null} for one made at
   *     start (a server on plain HTTP has none)
   * @return the running controller manager; closing it stops them
   * @throws InterruptedException when interrupted while the informers fill their caches
   */
  public static ControllerManager startControllers(
      ApiServer server, SampleServerFlags flags, String rootCa) throws InterruptedException {
    String ca =
        rootCa != null
            ? rootCa
            : SelfSignedCertificates.generate(
                    "127.0.0.1", List.of(), List.of("localhost"), KeyAlgorithm.ECDSA_P256)
                .caPem();
    Scheme clients = KubernetesApi.addToScheme(Scheme.builder()).build();
    ControllerManager.Builder builder =
        ControllerManager.builder(
                (user, groups) -> {
                  List<String> all = new ArrayList<>(groups);
                  all.add("system:authenticated");
                  return Client.builder(
                          InProcessTransport.as(server::handleAs, UserInfo.of(user, all)))
                      .scheme(clients)
                      // In process: no rate limit (kube-controller-manager's --kube-api-qps and
                      // --kube-api-burst guard a network this path does not cross).
                      .rateLimiter(RateLimiter.unlimited())
                      .build();
                })
            .controllers(flags.controllers())
            .nodes(SimulatedNode.defaults(flags.nodes()))
            .rootCaCertificate(ca);
    if (flags.leaderElect()) {
      Duration lease = flags.leaderElectLeaseDuration();
      builder.leaderElection(
          "sample-server-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID(),
          lease,
          lease.multipliedBy(2).dividedBy(3),
          lease.dividedBy(7));
    }
    ControllerManager manager = builder.build();
    // The namespaces kube-apiserver makes at start that the controllers and kubelets write in
    // (nodes' heartbeat Leases in kube-node-lease); one that exists is left as it is.
    for (String namespace : List.of("kube-system", "kube-public", "kube-node-lease")) {
      post(
          server,
          "/api/v1/namespaces",
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
              + namespace
              + "\"}}");
    }
    try {
      manager.start();
    } catch (InterruptedException | RuntimeException e) {
      manager.close();
      throw e;
    }
    return manager;
  }

  /** The CA of a generated serving certificate, or {@code null}. */
  private static String rootCa(SelfSignedCertificates.CertDirectory certs) {
    return certs == null ? null : certs.certKey().caPem();
  }

  /**
   * Starts the sample server on localhost, loads the samples and prints its URL.
   *
   * @param args the flags ({@link SampleServerFlags}); a command line it cannot read ends the
   *     program with status 2 and a message naming the flag
   * @throws IOException when the port cannot be bound or a file cannot be read
   * @throws InterruptedException when interrupted while serving
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    SampleServerFlags flags;
    try {
      flags = SampleServerFlags.parse(args);
    } catch (SampleServerFlags.UsageException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    Storage storage;
    try {
      storage =
          flags.etcdServers().isEmpty()
              ? new MemoryStorage()
              : EtcdStorage.builder(flags.etcdServers().toArray(URI[]::new))
                  .prefix(flags.etcdPrefix())
                  // TLS to https members: --etcd-cafile, --etcd-certfile, --etcd-keyfile.
                  .tls(
                      flags.path("--etcd-cafile"),
                      flags.path("--etcd-certfile"),
                      flags.path("--etcd-keyfile"))
                  // As kube-apiserver talks to etcd: over its gRPC API (Netty is here already).
                  .grpc(true)
                  .build();
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(1);
      return;
    }
    ApiServer.Builder builder =
        builder(
            flags.enablement(),
            Duration.ofMinutes(1),
            flags.requestLog() ? JdkHttpBinding.slf4jRequestLog() : null,
            storage,
            ApiServer.DEFAULT_WATCH_CACHE_SIZE);
    Optional<SelfSignedCertificates.CertDirectory> selfSigned =
        configureSecurity(builder, flags.files(), flags.anonymousAuth(), flags.authorizationMode());
    builder
        .storageMediaType(flags.storageMediaType())
        .compactionInterval(flags.etcdCompactionInterval())
        .maxRequestsInFlight(flags.maxRequestsInFlight())
        .maxMutatingRequestsInFlight(flags.maxMutatingRequestsInFlight());
    boolean https = flags.file("--tls-cert-file").isPresent() || selfSigned.isPresent();
    AuditLogWriter auditLog =
        configureAudit(
            builder,
            flags.file("--audit-policy-file").orElse(null),
            flags.file("--audit-log-path").orElse(null),
            System.err);
    // kube-apiserver's default admission plugins, ServiceAccount's with the controller that makes
    // the accounts it needs.
    flags.admission().install(builder);
    // As in a cluster, the namespace controller deletes a namespace's content when it runs.
    builder.namespaceContentCleanup(
        !ControllerManager.chosenControllers(flags.controllers()).contains("namespace-controller"));
    Optional<String> encryption = flags.file("--encryption-provider-config");
    if (encryption.isPresent()) {
      try {
        configureEncryption(builder, encryption.get(), flags.etcdPrefix());
      } catch (dev.machinery.MachineryException e) {
        System.err.println("--encryption-provider-config: " + e.getMessage());
        System.exit(1);
        return;
      }
    }
    ApiServer server = builder.build();
    loadSamples(server);
    InetSocketAddress address =
        new InetSocketAddress(InetAddress.getLoopbackAddress(), flags.port());
    try (HttpBinding binding = serve(server, address, flags.httpBinding());
        ControllerManager controllers =
            startControllers(server, flags, rootCa(selfSigned.orElse(null)))) {
      String url = (https ? "https" : "http") + "://127.0.0.1:" + binding.port();
      System.out.println(
          "Serving on "
              + url
              + (https ? "" : " (plain HTTP, no TLS)")
              + " with the "
              + flags.httpBinding()
              + " HTTP binding");
      String trust = "";
      if (selfSigned.isPresent()) {
        SelfSignedCertificates.CertDirectory certs = selfSigned.get();
        System.out.println(
            (certs.generated() ? "Generated self-signed cert (" : "Using self-signed cert (")
                + certs.certFile()
                + ", "
                + certs.keyFile()
                + "); its CA is in "
                + certs.caFile());
        trust = " --certificate-authority " + certs.caFile();
      }
      System.out.println(
          "Controllers: "
              + (controllers.enabledControllers().isEmpty()
                  ? "none"
                  : String.join(",", controllers.enabledControllers()))
              + (flags.leaderElect()
                  ? " (leader election on kube-system/kube-controller-manager)"
                  : "")
              + "; simulated nodes: "
              + flags.nodes());
      System.out.println("In another terminal: kubectl --server " + url + trust + " get all");
      new CountDownLatch(1).await();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } finally {
      if (auditLog != null) {
        auditLog.close();
      }
    }
  }

  /**
   * Encrypts values at rest as kube-apiserver's {@code --encryption-provider-config} does: the
   * resources the file's {@code EncryptionConfiguration} names are written with its first provider
   * and read with whichever provider's prefix they carry, AES-GCM values bound to their keys under
   * the etcd prefix.
   *
   * @param builder the server's builder
   * @param file the configuration file
   * @param etcdPrefix the {@code --etcd-prefix}
   * @throws IOException when the file cannot be read
   * @throws dev.machinery.MachineryException when it is not a valid configuration (the message
   *     names the field)
   */
  static void configureEncryption(ApiServer.Builder builder, String file, String etcdPrefix)
      throws IOException {
    builder.encryption(EncryptionConfiguration.read(Path.of(file)).withKeyPrefix(etcdPrefix));
  }

  /**
   * Configures auditing from kube-apiserver's flags: with both a policy file and a log path, each
   * request the policy records is written to the log as {@code audit.k8s.io/v1} events, one JSON
   * object a line. As with kube-apiserver, one flag without the other audits nothing (a note says
   * so).
   *
   * @param builder the server's builder
   * @param policyFile {@code --audit-policy-file}, or {@code null}
   * @param logPath {@code --audit-log-path} ({@code -} for standard output), or {@code null}
   * @param notes where the note about a missing flag goes
   * @return the log writer, to close when the server stops; {@code null} when nothing is audited
   * @throws dev.machinery.apiserver.audit.AuditPolicyException when the policy file is not a valid
   *     policy (the message names the rule and field, or the line)
   */
  static AuditLogWriter configureAudit(
      ApiServer.Builder builder, String policyFile, String logPath, java.io.PrintStream notes) {
    if (policyFile == null || logPath == null) {
      if (policyFile != null || logPath != null) {
        notes.println(
            "no audit log: "
                + (policyFile == null ? "--audit-log-path" : "--audit-policy-file")
                + " is given without "
                + (policyFile == null ? "--audit-policy-file" : "--audit-log-path"));
      }
      return null;
    }
    AuditPolicy policy = AuditPolicy.read(Path.of(policyFile));
    AuditLogWriter writer = AuditLogWriter.forPath(logPath);
    builder.audit(policy, writer);
    return writer;
  }

  /**
   * Reads one {@code --tls-sni-cert-key} as kube-apiserver parses it: {@code CERT,KEY}, optionally
   * followed by {@code :NAME,NAME...}, the server names it is chosen for.
   *
   * @param value the flag's value
   * @return the certificate
   * @throws IOException when a file cannot be read
   * @throws IllegalArgumentException when the value is not of that form
   */
  static TlsConfig.SniCertificate sniCertificate(String value) throws IOException {
    int colon = value.indexOf(':');
    List<String> names = List.of();
    String files = value;
    if (colon >= 0) {
      files = value.substring(0, colon).strip();
      String list = value.substring(colon + 1).strip();
      if (list.isEmpty()) {
        throw new IllegalArgumentException(
            "--tls-sni-cert-key \"" + value + "\": empty names list is not allowed");
      }
      names = List.of(list.split(",")).stream().map(String::strip).toList();
    }
    String[] pair = files.split(",", -1);
    if (pair.length != 2) {
      throw new IllegalArgumentException(
          "--tls-sni-cert-key \""
              + value
              + "\": expected comma separated certificate and key file paths");
    }
    return TlsConfig.SniCertificate.fromPemFiles(
        Path.of(pair[0].strip()), Path.of(pair[1].strip()), names);
  }

  /**
   * Configures TLS and authentication from kube-apiserver's flags.
   *
   * @param builder the server's builder
   * @param files the file flags given ({@code --tls-cert-file}, {@code --tls-private-key-file},
   *     {@code --client-ca-file}, {@code --token-auth-file}, {@code --cert-dir}, and {@code
   *     --tls-sni-cert-key}, its values one a line), by flag
   * @return the self-signed certificate's files, as the other overload returns them
   * @param anonymous whether requests without credentials are let in ({@code --anonymous-auth})
   * @throws IOException when a file cannot be read or is not valid
   */
  static Optional<SelfSignedCertificates.CertDirectory> configureSecurity(
      ApiServer.Builder builder, Map<String, String> files, boolean anonymous) throws IOException {
    return configureSecurity(builder, files, anonymous, "AlwaysAllow");
  }

  /**
   * Configures TLS, authentication and authorization from kube-apiserver's flags.
   *
   * @param builder the server's builder
   * @param files the file flags given, by flag (see the other overload)
   * @param anonymous whether requests without credentials are let in ({@code --anonymous-auth})
   * @param authorizationMode {@code --authorization-mode}: {@code AlwaysAllow}, {@code AlwaysDeny}
   *     and {@code RBAC}, comma-separated, asked in that order
   * @return the self-signed certificate's files when {@code --cert-dir} was given without {@code
   *     --tls-cert-file}: generated there, or found there from an earlier start
   * @throws IOException when a file cannot be read or is not valid
   * @throws IllegalArgumentException for an unknown or repeated mode, or {@code AlwaysAllow} beside
   *     another
   */
  static Optional<SelfSignedCertificates.CertDirectory> configureSecurity(
      ApiServer.Builder builder,
      Map<String, String> files,
      boolean anonymous,
      String authorizationMode)
      throws IOException {
    List<String> modes = List.of(authorizationMode.split(",", -1));
    if (modes.size() != new java.util.HashSet<>(modes).size()) {
      throw new IllegalArgumentException(
          "--authorization-mode names a mode twice: \"" + authorizationMode + "\"");
    }
    for (String mode : modes) {
      switch (mode) {
        case "AlwaysAllow" -> {
          if (modes.size() > 1) {
            throw new IllegalArgumentException(
                "--authorization-mode AlwaysAllow stands alone, got \"" + authorizationMode + "\"");
          }
        }
        case "AlwaysDeny" -> builder.authorizer(Authorizer.alwaysDeny());
        case "RBAC" -> builder.rbac();
        default ->
            throw new IllegalArgumentException(
                "--authorization-mode: unknown mode \""
                    + mode
                    + "\"; this server knows AlwaysAllow, AlwaysDeny and RBAC");
      }
    }
    String cert = files.get("--tls-cert-file");
    String key = files.get("--tls-private-key-file");
    String clientCa = files.get("--client-ca-file");
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException("--tls-cert-file and --tls-private-key-file go together");
    }
    String certDir = files.get("--cert-dir");
    if (clientCa != null && cert == null && certDir == null) {
      throw new IllegalArgumentException("--client-ca-file needs --tls-cert-file or --cert-dir");
    }
    List<Authenticator> authenticators = new ArrayList<>();
    Optional<SelfSignedCertificates.CertDirectory> selfSigned = Optional.empty();
    TlsConfig tls = null;
    if (cert != null) {
      // Read again when the files change, as kube-apiserver reloads them.
      tls =
          TlsConfig.fromPemFilesReloading(
              Path.of(cert),
              Path.of(key),
              clientCa == null ? null : Path.of(clientCa),
              Duration.ofSeconds(10));
    } else if (certDir != null) {
      // kube-apiserver's secure serving without --tls-cert-file: apiserver.crt and apiserver.key
      // in --cert-dir, generated for the bind address the first time.
      SelfSignedCertificates.CertDirectory made;
      try {
        made =
            SelfSignedCertificates.ensure(
                Path.of(certDir), "127.0.0.1", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
      } catch (IOException e) {
        throw new IOException(
            "--cert-dir " + certDir + ": " + e + " (give a directory this user can write)", e);
      }
      selfSigned = Optional.of(made);
      tls =
          new TlsConfig(
              made.certKey().chain(),
              made.certKey().privateKey(),
              clientCa == null ? List.of() : TlsConfig.readCertificates(Path.of(clientCa)));
    }
    String sni = files.get("--tls-sni-cert-key");
    if (sni != null) {
      if (tls == null) {
        throw new IllegalArgumentException(
            "--tls-sni-cert-key needs --tls-cert-file, --cert-dir or --secure-port");
      }
      List<TlsConfig.SniCertificate> named = new ArrayList<>();
      for (String one : sni.split("\n")) {
        named.add(sniCertificate(one));
      }
      tls = tls.withSniCertificates(named);
    }
    if (tls != null) {
      builder.tls(tls);
      if (!tls.clientCAs().isEmpty()) {
        authenticators.add(new X509Authenticator(tls.clientCAs()));
      }
    }
    String tokens = files.get("--token-auth-file");
    if (tokens != null) {
      authenticators.add(TokenFileAuthenticator.load(Path.of(tokens)));
    }
    builder.authenticator(Authenticator.chain(authenticators, anonymous));
    return selfSigned;
  }
}
