package dev.machinery.examples.server;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.ResourceList;
import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.ApiextensionsV1;
import dev.machinery.apiserver.audit.AuditLogWriter;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.authentication.Authenticator;
import dev.machinery.apiserver.authentication.TokenFileAuthenticator;
import dev.machinery.apiserver.authentication.X509Authenticator;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
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
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.builtins.BuiltinKinds;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.examples.apps.AppsV1;
import dev.machinery.examples.apps.Container;
import dev.machinery.examples.apps.Deployment;
import dev.machinery.examples.apps.DeploymentSpec;
import dev.machinery.examples.apps.DeploymentStatus;
import dev.machinery.examples.core.ConfigMap;
import dev.machinery.examples.core.CoreV1;
import dev.machinery.examples.core.Event;
import dev.machinery.examples.core.Namespace;
import dev.machinery.examples.core.NamespaceStatus;
import dev.machinery.examples.core.ObjectReference;
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
import dev.machinery.unversioned.validation.Validation;
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
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The sample API server: core {@code v1} Namespace, ConfigMap and Event, and {@code apps}
 * Deployment served in {@code v1beta1} and {@code v1} (stored as {@code v1}) with {@code status}
 * and {@code scale} subresources, the short name {@code deploy} and the {@code all} category, with
 * kubectl's columns for each; the custom kinds {@code frobbers.example.dev} Frobber and {@code
 * sites.example.dev/v1} Site (with a {@code status} subresource). Run it with {@code mvn -q -pl
 * machinery-examples exec:java -Dexec.mainClass=dev.machinery.examples.server.SampleServer}; flags
 * {@code --port}, {@code --runtime-config}, {@code --request-log} (one line a request, through
 * SLF4J), {@code --etcd-servers} (objects kept in etcd, as kube-apiserver's flag), and
 * kube-apiserver's {@code --secure-port}, {@code --cert-dir} (a self-signed serving certificate
 * generated there, as kube-apiserver's, when no {@code --tls-cert-file} is given), {@code
 * --tls-sni-cert-key}, {@code --tls-cert-file}, {@code --tls-private-key-file}, {@code
 * --client-ca-file}, {@code --token-auth-file}, {@code --anonymous-auth}, {@code
 * --authorization-mode}, {@code --max-requests-inflight}, {@code --max-mutating-requests-inflight},
 * {@code --audit-policy-file} and {@code --audit-log-path}, and {@code --http-binding=netty|jdk}
 * (the HTTP server: Netty's, the default, or the JDK's).
 *
 * <p>Thread-safe once built, as {@link ApiServer} is.
 */
public final class SampleServer {
  /** kube-apiserver's default {@code --cert-dir}, used by {@code --secure-port} without one. */
  static final String DEFAULT_CERT_DIR = "/var/run/kubernetes";

  /** The group version {@code apps/v1beta1}. */
  public static final GroupVersion APPS_V1BETA1 = GroupVersion.of("apps", "v1beta1");

  /** The group version {@code apps/v1}. */
  public static final GroupVersion APPS_V1 = GroupVersion.of("apps", "v1");

  private SampleServer() {}

  /**
   * Returns the sample's Scheme: the kinds, their list kinds, {@code meta.k8s.io/v1} and {@code
   * apiextensions.k8s.io/v1}.
   *
   * @return the scheme
   */
  public static Scheme scheme() {
    Scheme.Builder builder = MetaV1.addToScheme(Scheme.builder());
    builder.addKnownTypes(CoreV1.CORE_V1, Namespace.class, ConfigMap.class, Event.class);
    builder.addKnownTypes(APPS_V1, Deployment.class);
    builder.addKnownTypes(APPS_V1BETA1, dev.machinery.examples.apps.v1beta1.Deployment.class);
    builder.setVersionPriority(APPS_V1, APPS_V1BETA1);
    builder.addInternalTypes("apps", dev.machinery.examples.apps.internal.Deployment.class);
    for (Class<?> external :
        List.of(Deployment.class, dev.machinery.examples.apps.v1beta1.Deployment.class)) {
      builder.addGenericConversion(external, dev.machinery.examples.apps.internal.Deployment.class);
      builder.addGenericConversion(dev.machinery.examples.apps.internal.Deployment.class, external);
    }
    ResourceList.addToScheme(builder, "Namespace", CoreV1.CORE_V1);
    ResourceList.addToScheme(builder, "ConfigMap", CoreV1.CORE_V1);
    ResourceList.addToScheme(builder, "Event", CoreV1.CORE_V1);
    ResourceList.addToScheme(builder, "Deployment", APPS_V1, APPS_V1BETA1);
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
            // On memory nothing a read does waits: its authenticators and audit log never block.
            .readsWithoutWaiting(storage.answersFromMemory())
            .watchCacheSize(watchCacheSize)
            .enablement(enablement)
            .bookmarkInterval(bookmarkInterval)
            .requestLog(requestLog)
            .customResourceDefinitions(celValidationRules())
            .addResource(
                ResourceDefinition.builder(GroupKind.of("", "Namespace"), false)
                    .shortNames("ns")
                    .returnDeletedObject()
                    .names(Validation::nameIsDNSLabel)
                    .prepareForCreate(
                        object -> {
                          Namespace namespace = (Namespace) object;
                          namespace.setStatus(new NamespaceStatus("Active"));
                          return namespace;
                        })
                    .table(
                        Columns.of(Namespace.class::cast)
                            .add(
                                "Name",
                                "string",
                                0,
                                "Name must be unique.",
                                n -> n.getMetadata().getName())
                            .add(
                                "Status",
                                "string",
                                0,
                                "The status of the namespace",
                                n -> n.getStatus() == null ? "Active" : n.getStatus().phase())
                            .add(
                                "Age",
                                "string",
                                0,
                                "Time since creation.",
                                n -> Ages.since(n.getMetadata().getCreationTimestamp())))
                    .build())
            .addResource(
                ResourceDefinition.builder(GroupKind.of("", "ConfigMap"), true)
                    .shortNames("cm")
                    .table(
                        Columns.of(ConfigMap.class::cast)
                            .add(
                                "Name",
                                "string",
                                0,
                                "Name must be unique within a namespace.",
                                c -> c.getMetadata().getName())
                            .add(
                                "Data",
                                "integer",
                                0,
                                "Number of keys.",
                                c -> size(c.getData()) + size(c.getBinaryData()))
                            .add(
                                "Age",
                                "string",
                                0,
                                "Time since creation.",
                                c -> Ages.since(c.getMetadata().getCreationTimestamp())))
                    .build())
            .addResource(
                ResourceDefinition.builder(GroupKind.of("", "Event"), true)
                    .shortNames("ev")
                    .fieldLabel(
                        "involvedObject.kind", e -> involved((Event) e, ObjectReference::kind))
                    .fieldLabel(
                        "involvedObject.namespace",
                        e -> involved((Event) e, ObjectReference::namespace))
                    .fieldLabel(
                        "involvedObject.name", e -> involved((Event) e, ObjectReference::name))
                    .fieldLabel(
                        "involvedObject.uid", e -> involved((Event) e, ObjectReference::uid))
                    .fieldLabel(
                        "involvedObject.apiVersion",
                        e -> involved((Event) e, ObjectReference::apiVersion))
                    .fieldLabel(
                        "involvedObject.resourceVersion",
                        e -> involved((Event) e, ObjectReference::resourceVersion))
                    .fieldLabel(
                        "involvedObject.fieldPath",
                        e -> involved((Event) e, ObjectReference::fieldPath))
                    .fieldLabel("reason", e -> ((Event) e).getReason())
                    .fieldLabel("type", e -> ((Event) e).getType())
                    .table(
                        Columns.of(Event.class::cast)
                            .add(
                                "Last Seen",
                                "string",
                                0,
                                "Time since the last occurrence.",
                                e ->
                                    Ages.since(
                                        e.getLastTimestamp() == null
                                            ? e.getMetadata().getCreationTimestamp()
                                            : e.getLastTimestamp().instant()))
                            .add("Type", "string", 0, "Normal or Warning.", Event::getType)
                            .add("Reason", "string", 0, "Why it happened.", Event::getReason)
                            .add(
                                "Object",
                                "string",
                                0,
                                "The object it is about.",
                                e ->
                                    e.getInvolvedObject() == null
                                        ? ""
                                        : e.getInvolvedObject()
                                                .kind()
                                                .toLowerCase(java.util.Locale.ROOT)
                                            + "/"
                                            + e.getInvolvedObject().name())
                            .add("Message", "string", 0, "What happened.", Event::getMessage))
                    .build())
            .addResource(
                ResourceDefinition.builder(GroupKind.of("apps", "Deployment"), true)
                    // What kube-apiserver defaults and the apply key of a port names: its protocol.
                    .normalizer(
                        object -> {
                          if (object.getClass() == Deployment.class) {
                            AppsV1.setDefaults((Deployment) object);
                          }
                          return List.of();
                        })
                    .shortNames("deploy")
                    .categories("all")
                    .storageVersion(APPS_V1)
                    .statusSubresource()
                    .tracksGeneration()
                    .scaleSubresource(Deployment.class, new DeploymentScale())
                    .validator(SampleServer::validateDeployment)
                    .table(deploymentColumns(scheme))
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
    // Every other kind of Kubernetes 1.33, from Kubernetes' own description.
    return BuiltinKinds.kubernetes().install(builder);
  }

  private static Columns<Deployment> deploymentColumns(Scheme scheme) {
    return Columns.of(
            (Object o) ->
                Deployment.class.isInstance(o)
                    ? Deployment.class.cast(o)
                    : scheme.convert(o, Deployment.class))
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
            "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
            d -> number(status(d).updatedReplicas()))
        .add(
            "Available",
            "integer",
            0,
            "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
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

  private static DeploymentSpec spec(Deployment d) {
    return d.getSpec() == null
        ? new DeploymentSpec(null, null, null, null, null, null, null, null)
        : d.getSpec();
  }

  private static DeploymentStatus status(Deployment d) {
    return d.getStatus() == null
        ? new DeploymentStatus(null, null, null, null, null, null, null)
        : d.getStatus();
  }

  private static List<Container> containers(Deployment d) {
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

  private static int size(Map<String, ?> map) {
    return map == null ? 0 : map.size();
  }

  private static String involved(
      Event event, java.util.function.Function<ObjectReference, String> field) {
    return event.getInvolvedObject() == null
        ? ""
        : Objects.toString(field.apply(event.getInvolvedObject()), "");
  }

  private static List<FieldError> validateDeployment(Object object, Object old) {
    Deployment deployment = (Deployment) object;
    List<FieldError> errors = new ArrayList<>();
    FieldPath spec = FieldPath.of("spec");
    DeploymentSpec s = deployment.getSpec();
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

  /** The scale subresource of a Deployment: replicas in spec and status, the selector. */
  private static final class DeploymentScale implements ScaleAccessor<Deployment> {
    @Override
    public Scale read(Deployment deployment) {
      Scale scale = new Scale();
      ScaleSpec spec = new ScaleSpec();
      spec.setReplicas(number(spec(deployment).replicas()));
      scale.setSpec(spec);
      ScaleStatus status = new ScaleStatus();
      status.setReplicas(number(status(deployment).replicas()));
      if (spec(deployment).selector() != null) {
        status.setSelector(LabelSelectors.toSelector(spec(deployment).selector()).toString());
      }
      scale.setStatus(status);
      return scale;
    }

    @Override
    public void write(Deployment deployment, Scale scale) {
      DeploymentSpec s = spec(deployment);
      int replicas = scale.getSpec() == null ? 0 : scale.getSpec().getReplicas();
      deployment.setSpec(
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

  /**
   * Loads the sample objects: namespaces {@code default} and {@code kube-system}, a ConfigMap and a
   * Deployment in {@code default}, through the server's own create path. One that exists already (a
   * server restarted on the same etcd) is left as it is.
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
            + "\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"app\":\"hello\"},\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"In\",\"values\":[\"web\"]}]},"
            + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"hello\",\"tier\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"hello\",\"image\":\"nginx:1.27\","
            + "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"}}}]}},"
            + "\"strategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":\"25%\",\"maxUnavailable\":0}}}}");
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

  /** The values of {@code --http-binding}. */
  public static final List<String> HTTP_BINDINGS = List.of("jdk", "netty");

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
   * Starts the sample server on localhost and prints its URL.
   *
   * @param args {@code --port N} (default 8080; 0 picks a free port), {@code --runtime-config
   *     RULES} (such as {@code apps/v1beta1=false}), {@code --request-log}, and {@code
   *     --etcd-servers URL,URL...} with {@code --etcd-prefix PREFIX} (default {@code /registry/})
   *     to keep the objects in etcd instead of memory; {@code --tls-cert-file FILE} with {@code
   *     --tls-private-key-file FILE} to serve HTTPS, or {@code --cert-dir DIR} without them to
   *     serve HTTPS with a self-signed certificate generated in (or found from an earlier start in)
   *     DIR, {@code --secure-port N} to serve HTTPS on port N (instead of {@code --port}; with a
   *     self-signed certificate in {@code --cert-dir}, by default kube-apiserver's {@code
   *     /var/run/kubernetes}, unless certificate files are given), {@code --tls-sni-cert-key
   *     CERT,KEY[:NAME,...]} (repeatable) for certificates chosen by the server name a client asks
   *     for, {@code --client-ca-file FILE} to authenticate client certificates, {@code
   *     --token-auth-file FILE} to authenticate bearer tokens, {@code --anonymous-auth=false} to
   *     refuse requests without credentials, {@code --authorization-mode MODES} ({@code
   *     AlwaysAllow}, the default, {@code AlwaysDeny} or {@code RBAC}, comma-separated), {@code
   *     --max-requests-inflight=N} (400 by default) and {@code --max-mutating-requests-inflight=N}
   *     (200 by default; 0 for no limit), {@code --audit-policy-file FILE} with {@code
   *     --audit-log-path FILE} ({@code -} for standard output) to write an audit log (flags as
   *     kube-apiserver's), and {@code --http-binding=netty|jdk} (the HTTP server, {@code netty} by
   *     default)
   * @throws IOException when the port cannot be bound or a file cannot be read
   * @throws InterruptedException when interrupted while serving
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    int port = 8080;
    Enablement enablement = Enablement.all();
    boolean requestLog = false;
    List<URI> etcdServers = new ArrayList<>();
    String etcdPrefix = "/registry/";
    Map<String, String> files = new java.util.HashMap<>();
    List<String> fileFlags =
        List.of(
            "--tls-cert-file",
            "--tls-private-key-file",
            "--client-ca-file",
            "--token-auth-file",
            "--audit-policy-file",
            "--audit-log-path",
            "--cert-dir");
    Integer securePort = null;
    boolean anonymous = true;
    String authorizationMode = "AlwaysAllow";
    int maxRequestsInFlight = 400;
    int maxMutatingRequestsInFlight = 200;
    String httpBinding = "netty";
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String value = i + 1 < args.length ? args[i + 1] : null;
      String flag = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      if (flag.equals("--tls-sni-cert-key") && (arg.contains("=") || value != null)) {
        // Repeatable: the values, one a line.
        files.merge(
            flag,
            arg.contains("=") ? arg.substring(flag.length() + 1) : value,
            (a, b) -> a + "\n" + b);
        if (!arg.contains("=")) {
          i++;
        }
      } else if (fileFlags.contains(flag) && (arg.contains("=") || value != null)) {
        files.put(flag, arg.contains("=") ? arg.substring(flag.length() + 1) : value);
        if (!arg.contains("=")) {
          i++;
        }
      } else if (arg.startsWith("--http-binding=")
          || arg.equals("--http-binding") && value != null) {
        httpBinding =
            arg.equals("--http-binding") ? value : arg.substring("--http-binding=".length());
        if (arg.equals("--http-binding")) {
          i++;
        }
        if (!HTTP_BINDINGS.contains(httpBinding)) {
          System.err.println("--http-binding: expected jdk or netty, got \"" + httpBinding + "\"");
          System.exit(2);
        }
      } else if (arg.startsWith("--max-requests-inflight=")) {
        maxRequestsInFlight = Integer.parseInt(arg.substring("--max-requests-inflight=".length()));
      } else if (arg.startsWith("--max-mutating-requests-inflight=")) {
        maxMutatingRequestsInFlight =
            Integer.parseInt(arg.substring("--max-mutating-requests-inflight=".length()));
      } else if (arg.startsWith("--authorization-mode=")) {
        authorizationMode = arg.substring("--authorization-mode=".length());
      } else if (arg.equals("--authorization-mode") && value != null) {
        authorizationMode = value;
        i++;
      } else if (arg.equals("--anonymous-auth") || arg.equals("--anonymous-auth=true")) {
        anonymous = true;
      } else if (arg.equals("--anonymous-auth=false")) {
        anonymous = false;
      } else if (arg.startsWith("--secure-port=")) {
        securePort = Integer.parseInt(arg.substring("--secure-port=".length()));
      } else if (arg.equals("--secure-port") && value != null) {
        securePort = Integer.parseInt(value);
        i++;
      } else if (arg.startsWith("--port=")) {
        port = Integer.parseInt(arg.substring("--port=".length()));
      } else if (arg.equals("--port") && value != null) {
        port = Integer.parseInt(value);
        i++;
      } else if (arg.startsWith("--runtime-config=")) {
        enablement = Enablement.parse(arg.substring("--runtime-config=".length()));
      } else if (arg.equals("--runtime-config") && value != null) {
        enablement = Enablement.parse(value);
        i++;
      } else if (arg.equals("--request-log")) {
        requestLog = true;
      } else if (arg.startsWith("--etcd-servers=")
          || arg.equals("--etcd-servers") && value != null) {
        String list =
            arg.equals("--etcd-servers") ? value : arg.substring("--etcd-servers=".length());
        if (arg.equals("--etcd-servers")) {
          i++;
        }
        for (String server : list.split(",")) {
          etcdServers.add(URI.create(server.strip()));
        }
      } else if (arg.startsWith("--etcd-prefix=") || arg.equals("--etcd-prefix") && value != null) {
        etcdPrefix = arg.equals("--etcd-prefix") ? value : arg.substring("--etcd-prefix=".length());
        if (arg.equals("--etcd-prefix")) {
          i++;
        }
      } else {
        System.err.println(
            "usage: SampleServer [--port N] [--runtime-config RULES] [--request-log]"
                + " [--etcd-servers URL,URL...] [--etcd-prefix PREFIX]"
                + " [--secure-port N] [--cert-dir DIR]"
                + " [--tls-cert-file FILE --tls-private-key-file FILE]"
                + " [--tls-sni-cert-key CERT,KEY[:NAME,...]]... [--client-ca-file FILE]"
                + " [--token-auth-file FILE] [--anonymous-auth=false]"
                + " [--authorization-mode AlwaysAllow|AlwaysDeny|RBAC]"
                + " [--max-requests-inflight=N] [--max-mutating-requests-inflight=N]"
                + " [--audit-policy-file FILE --audit-log-path FILE|-]"
                + " [--http-binding=netty|jdk]");
        System.exit(2);
      }
    }
    if (securePort != null) {
      port = securePort;
      if (!files.containsKey("--tls-cert-file")) {
        files.putIfAbsent("--cert-dir", DEFAULT_CERT_DIR);
      }
    }
    Storage storage =
        etcdServers.isEmpty()
            ? new MemoryStorage()
            : EtcdStorage.builder(etcdServers.toArray(URI[]::new)).prefix(etcdPrefix).build();
    ApiServer.Builder builder =
        builder(
            enablement,
            Duration.ofMinutes(1),
            requestLog ? JdkHttpBinding.slf4jRequestLog() : null,
            storage,
            ApiServer.DEFAULT_WATCH_CACHE_SIZE);
    Optional<SelfSignedCertificates.CertDirectory> selfSigned =
        configureSecurity(builder, files, anonymous, authorizationMode);
    builder
        .maxRequestsInFlight(maxRequestsInFlight)
        .maxMutatingRequestsInFlight(maxMutatingRequestsInFlight);
    boolean https = files.containsKey("--tls-cert-file") || selfSigned.isPresent();
    AuditLogWriter auditLog =
        configureAudit(
            builder, files.get("--audit-policy-file"), files.get("--audit-log-path"), System.err);
    ApiServer server = builder.build();
    loadSamples(server);
    try (HttpBinding binding =
        serve(server, new InetSocketAddress(InetAddress.getLoopbackAddress(), port), httpBinding)) {
      String url = (https ? "https" : "http") + "://127.0.0.1:" + binding.port();
      System.out.println(
          "Serving on "
              + url
              + (https ? "" : " (plain HTTP, no TLS)")
              + " with the "
              + httpBinding
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
