package dev.machinery.apiserver.filters;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.apiserver.audit.AuditEvent;
import dev.machinery.apiserver.audit.AuditEvent.ObjectReference;
import dev.machinery.apiserver.audit.AuditEvent.ResponseStatus;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.audit.AuditSink;
import dev.machinery.apiserver.audit.Level;
import dev.machinery.apiserver.audit.RequestAuditConfig;
import dev.machinery.apiserver.audit.Stage;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.negotiation.ProtobufBodies;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.core.codec.Codec;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * kube-apiserver's audit filter: for each request the policy's level, an audit ID (the client's
 * {@code Audit-ID}, else a new UUID, echoed in the response's {@code Audit-ID} header), and the
 * events of its stages handed to the sink. A {@link Request} holds one request's event as it grows;
 * it is the {@link RequestContext.AuditRecorder} of the context handed on, through which the later
 * steps add the user impersonated and the authorization decision. A request refused by
 * authentication is recorded by {@link #failedAuthentication}. Immutable; thread-safe (each {@link
 * Request} is confined to its request, and then to the thread that writes its streamed response).
 */
public final class AuditFilter implements Filter {
  private static final Logger LOG = LoggerFactory.getLogger(AuditFilter.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final YAMLMapper YAML;
  private static final int MAX_USER_AGENT = 1024;

  static {
    LoaderOptions limits = new LoaderOptions();
    limits.setMaxAliasesForCollections(50);
    limits.setNestingDepthLimit(100);
    YAML = new YAMLMapper(YAMLFactory.builder().loaderOptions(limits).build());
  }

  private final AuditPolicy policy;
  private final AuditSink sink;
  private final long maxBodyBytes;
  private final Codec json;
  private final ProtobufBodies protobuf;

  private final Failures failures;

  /**
   * Creates the filter.
   *
   * @param policy which requests are recorded, and at which level
   * @param sink where the events go
   * @param maxBodyBytes the most bytes of a request body read for its event
   * @param json the JSON codec, for the objects of requests and responses
   * @param protobuf the protobuf bodies, for the objects of requests and responses
   * @param failures how a failure is written
   */
  public AuditFilter(
      AuditPolicy policy,
      AuditSink sink,
      long maxBodyBytes,
      Codec json,
      ProtobufBodies protobuf,
      Failures failures) {
    this.failures = java.util.Objects.requireNonNull(failures, "failures");
    this.policy = policy;
    this.sink = sink;
    this.maxBodyBytes = maxBodyBytes;
    this.json = json;
    this.protobuf = protobuf;
  }

  /**
   * Records a request refused by authentication, as kube-apiserver does: one event at {@link
   * Stage#RESPONSE_STARTED}, with no user, evaluated by the rules that name no user.
   */
  private ApiResponse unauthenticated(RequestContext context, ApiResponse refused) {
    UserInfo nobody = new UserInfo("", "", List.of(), Map.of());
    ApiRequest request = context.request();
    Attributes attributes = context.withUser(nobody).attributes();
    Request audit =
        new Request(
            request,
            attributes,
            nobody,
            policy.evaluateUnauthenticated(attributes),
            context.received());
    audit.status = new ResponseStatus(refused.status(), "", "", authMethods(request), null);
    audit.emit(Stage.RESPONSE_STARTED, Instant.now());
    return refused.withHeader(AuditEvent.AUDIT_ID_HEADER, audit.auditId);
  }

  /**
   * Wraps the handler of failed authentication, so that a refused request is recorded too.
   *
   * @param refusal answers a request whose credentials name no one
   * @return the handler that answers and records it
   */
  public Handler failedAuthentication(Handler refusal) {
    return request -> unauthenticated(request, refusal.handle(request));
  }

  /**
   * Audits an authenticated request: evaluates the policy, records {@link Stage#REQUEST_RECEIVED},
   * hands the request on with its event as the context's recorder, and records the response, or
   * what the later steps threw (answered with its Status).
   */
  @Override
  public ApiResponse filter(RequestContext context, Handler next) {
    Attributes attributes = context.attributes();
    Request audit =
        new Request(
            context.request(),
            attributes,
            context.user(),
            policy.evaluate(attributes),
            context.received());
    audit.emit(Stage.REQUEST_RECEIVED, context.received());
    try {
      return audit.complete(next.handle(context.withRequest(audit.request()).withAudit(audit)));
    } catch (RuntimeException | StackOverflowError e) {
      return audit.failed(e, failures.response(context, e));
    }
  }

  /** kube-apiserver's words for the credentials a refused request tried. */
  private static String authMethods(ApiRequest request) {
    List<String> methods = new ArrayList<>();
    String authorization = request.header("Authorization");
    if (authorization != null) {
      String[] parts = authorization.strip().split(" ");
      if (parts.length > 1 && parts[0].equalsIgnoreCase("basic")) {
        methods.add("basic");
      }
      if (parts.length > 1 && parts[0].equalsIgnoreCase("bearer")) {
        methods.add("bearer");
      }
    }
    String token = request.parameter("access_token");
    if (token != null && !token.isBlank()) {
      methods.add("access_token");
    }
    if (!request.peerCertificates().isEmpty()) {
      methods.add("x509");
    }
    return methods.isEmpty()
        ? "Authentication failed, no credentials provided"
        : "Authentication failed, attempted: " + String.join(", ", methods);
  }

  /** One request's event as it grows, and the stages it has reached. */
  private final class Request implements RequestContext.AuditRecorder {
    private final ApiRequest original;
    private final Attributes attributes;
    private final UserInfo user;
    private final RequestAuditConfig config;
    private final Instant received;
    private final String auditId;
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private ApiRequest request;
    private byte[] body;
    private UserInfo impersonatedUser;
    private boolean allowed;
    private ResponseStatus status;
    private JsonNode requestObject;
    private JsonNode responseObject;
    private ObjectReference objectRef;

    private Request(
        ApiRequest request,
        Attributes attributes,
        UserInfo user,
        RequestAuditConfig config,
        Instant received) {
      this.original = request;
      this.request = request;
      this.attributes = attributes;
      this.user = user;
      this.config = config;
      this.received = received;
      String given = request.header(AuditEvent.AUDIT_ID_HEADER);
      this.auditId = given == null || given.isEmpty() ? UUID.randomUUID().toString() : given;
      this.objectRef =
          attributes.resourceRequest()
              ? new ObjectReference(
                  attributes.resource(),
                  attributes.namespace(),
                  attributes.name(),
                  "",
                  attributes.apiGroup(),
                  attributes.apiVersion(),
                  "",
                  attributes.subresource())
              : null;
    }

    /**
     * Returns the request to answer: the original, or, for a write recorded at any level, one whose
     * body has been read (up to the server's limit) for the event.
     */
    ApiRequest request() {
      readBody();
      return request;
    }

    @Override
    public void impersonated(UserInfo user) {
      impersonatedUser = user;
    }

    @Override
    public void annotate(String key, String value) {
      annotations.putIfAbsent(key, value);
    }

    @Override
    public void authorized(Authorization decision) {
      allowed = decision.allowed();
      annotations.put("authorization.k8s.io/decision", decision.allowed() ? "allow" : "forbid");
      annotations.put("authorization.k8s.io/reason", decision.reason());
    }

    private boolean recorded() {
      return config.level() != Level.NONE;
    }

    /** Reads the body of a write, up to the server's limit, for the request's object. */
    private void readBody() {
      if (request != original) {
        return;
      }
      String method = original.method();
      boolean write = method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
      if (!recorded() || !write || !attributes.resourceRequest()) {
        return;
      }
      try {
        InputStream in = original.body();
        byte[] read = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
        if (read.length > maxBodyBytes) {
          request = original.withBody(new SequenceInputStream(new ByteArrayInputStream(read), in));
        } else {
          body = read;
          request = original.withBody(new ByteArrayInputStream(read));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Records a response: at once, or for a streamed one when it starts and when it ends. */
    ApiResponse complete(ApiResponse response) {
      if (!recorded()) {
        return response.withHeader(AuditEvent.AUDIT_ID_HEADER, auditId);
      }
      recordRequestObject();
      if (response.isStreaming()) {
        status = ResponseStatus.of(response.status());
        ApiResponse streamed =
            ApiResponse.streaming(
                response.status(),
                response.header("Content-Type"),
                out -> {
                  emit(Stage.RESPONSE_STARTED, Instant.now());
                  try {
                    response.writeBody(out);
                  } finally {
                    emit(Stage.RESPONSE_COMPLETE, Instant.now());
                  }
                });
        for (Map.Entry<String, List<String>> header : response.headers().entrySet()) {
          if (!header.getKey().equalsIgnoreCase("Content-Type")
              && !header.getKey().equalsIgnoreCase("Cache-Control")) {
            for (String value : header.getValue()) {
              streamed = streamed.withHeader(header.getKey(), value);
            }
          }
        }
        return streamed.withHeader(AuditEvent.AUDIT_ID_HEADER, auditId);
      }
      recordResponse(response);
      Instant now = Instant.now();
      if (attributes.verb().equals("watch")) {
        // A watch is long-running whatever its answer: a refused one starts its response too.
        emit(Stage.RESPONSE_STARTED, now);
      }
      emit(Stage.RESPONSE_COMPLETE, now);
      return response.withHeader(AuditEvent.AUDIT_ID_HEADER, auditId);
    }

    /**
     * Records a request whose handling threw: a failure the server words ({@code StatusException},
     * 4xx) completes as any response; anything else is kube-apiserver's panic.
     */
    ApiResponse failed(Throwable thrown, ApiResponse response) {
      if (!recorded()) {
        return response.withHeader(AuditEvent.AUDIT_ID_HEADER, auditId);
      }
      if (thrown instanceof StatusException || response.status() < 500) {
        return complete(response);
      }
      status =
          new ResponseStatus(500, "Failure", "InternalError", "APIServer panic'd: " + thrown, null);
      emit(Stage.PANIC, Instant.now());
      return response.withHeader(AuditEvent.AUDIT_ID_HEADER, auditId);
    }

    private void recordRequestObject() {
      if (body == null || !allowed || body.length == 0) {
        return;
      }
      JsonNode tree = parse(request.header("Content-Type"), body);
      if (tree == null) {
        return;
      }
      if (!original.method().equals("PATCH") && tree.isObject()) {
        JsonNode metadata = tree.path("metadata");
        objectRef =
            new ObjectReference(
                objectRef.resource(),
                orElse(objectRef.namespace(), metadata.path("namespace").asText("")),
                orElse(objectRef.name(), metadata.path("name").asText("")),
                metadata.path("uid").asText(""),
                objectRef.apiGroup(),
                objectRef.apiVersion(),
                metadata.path("resourceVersion").asText(""),
                objectRef.subresource());
      }
      if (config.level().atLeast(Level.REQUEST)) {
        requestObject = config.omitManagedFields() ? withoutManagedFields(tree) : tree;
      }
    }

    private void recordResponse(ApiResponse response) {
      status = ResponseStatus.of(response.status());
      byte[] bytes = response.body();
      boolean full = config.level().atLeast(Level.REQUEST_RESPONSE);
      if (bytes == null || bytes.length == 0 || !(full || response.status() >= 300)) {
        return;
      }
      JsonNode tree = parse(response.header("Content-Type"), bytes);
      if (tree == null || !tree.isObject()) {
        return;
      }
      if (tree.path("kind").asText("").equals("Status")
          && tree.path("apiVersion").asText("").equals("v1")) {
        JsonNode details = tree.get("details");
        status =
            new ResponseStatus(
                tree.path("code").asInt(response.status()),
                tree.path("status").asText(""),
                tree.path("reason").asText(""),
                tree.path("message").asText(""),
                details == null || details.isNull() ? null : details);
      }
      if (full) {
        responseObject = config.omitManagedFields() ? withoutManagedFields(tree) : tree;
      }
    }

    /** Makes the event of a stage and hands it to the sink, unless the policy omits the stage. */
    void emit(Stage stage, Instant at) {
      if (!recorded() || config.omitStages().contains(stage)) {
        return;
      }
      boolean later = stage != Stage.REQUEST_RECEIVED;
      AuditEvent event =
          new AuditEvent(
              config.level(),
              auditId,
              stage,
              requestUri(original),
              attributes.verb(),
              user,
              later ? impersonatedUser : null,
              sourceIps(original),
              userAgent(original),
              objectRef,
              later ? status : null,
              later ? requestObject : null,
              later && stage != Stage.RESPONSE_STARTED ? responseObject : null,
              received,
              at,
              later ? annotations : Map.of());
      try {
        sink.process(event);
      } catch (RuntimeException e) {
        LOG.warn(
            "the audit sink failed on the event of {} {}", original.method(), original.path(), e);
      }
    }
  }

  private static String orElse(String value, String other) {
    return value.isEmpty() ? other : value;
  }

  /**
   * The body as a tree, when it is JSON or YAML that parses, or Kubernetes' protobuf of a kind the
   * server knows (written as JSON, as kube-apiserver records objects); else null.
   */
  private JsonNode parse(String contentType, byte[] bytes) {
    String type =
        contentType == null
            ? "application/json"
            : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    try {
      if (type.equals("application/json") || type.endsWith("+json")) {
        return JSON.readTree(bytes);
      }
      if (type.equals("application/yaml") || type.endsWith("+yaml")) {
        return YAML.readTree(bytes);
      }
      if (type.equals(ProtobufCodec.MEDIA_TYPE)) {
        return JSON.readTree(protobuf.toJson(bytes));
      }
    } catch (RuntimeException e) {
      LOG.debug("the audit event leaves out a body it cannot read as {}", type, e);
      return null;
    } catch (JacksonException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return null;
  }

  /**
   * Leaves out {@code metadata.managedFields}: of the object, of each of a list's items, and of
   * each of a Table's rows' objects, as kube-apiserver does.
   */
  static JsonNode withoutManagedFields(JsonNode tree) {
    if (tree instanceof ObjectNode object) {
      if (object.get("metadata") instanceof ObjectNode metadata) {
        metadata.remove("managedFields");
      }
      if (object.get("items") != null && object.get("items").isArray()) {
        object.get("items").forEach(AuditFilter::withoutManagedFields);
      }
      if (object.get("rows") != null && object.get("rows").isArray()) {
        object.get("rows").forEach(row -> withoutManagedFields(row.path("object")));
      }
    }
    return tree;
  }

  private static String requestUri(ApiRequest request) {
    if (!request.requestUri().isEmpty()) {
      return request.requestUri();
    }
    StringBuilder uri = new StringBuilder(request.path());
    char separator = '?';
    for (Map.Entry<String, List<String>> each :
        new java.util.TreeMap<>(request.query()).entrySet()) {
      for (String value : each.getValue()) {
        uri.append(separator)
            .append(URLEncoder.encode(each.getKey(), StandardCharsets.UTF_8))
            .append('=')
            .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        separator = '&';
      }
    }
    return uri.toString();
  }

  /** The X-Forwarded-For addresses, then X-Real-Ip, then the peer's, each once. */
  private static List<String> sourceIps(ApiRequest request) {
    List<String> ips = new ArrayList<>();
    String forwarded = request.header("X-Forwarded-For");
    if (forwarded != null) {
      for (String each : forwarded.split(",")) {
        String ip = each.strip();
        if (isIp(ip)) {
          ips.add(ip);
        }
      }
    }
    String real = request.header("X-Real-Ip");
    if (real != null && isIp(real.strip()) && !ips.contains(real.strip())) {
      ips.add(real.strip());
    }
    String peer = request.remoteAddress();
    if (!peer.isEmpty() && !ips.contains(peer)) {
      ips.add(peer);
    }
    return ips;
  }

  /** Whether text looks like an IPv4 or IPv6 literal (never resolved). */
  private static boolean isIp(String text) {
    if (text.isEmpty() || text.length() > 45) {
      return false;
    }
    boolean colon = text.indexOf(':') >= 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean ok =
          (c >= '0' && c <= '9')
              || c == '.'
              || (colon && (c == ':' || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
      if (!ok) {
        return false;
      }
    }
    return colon || text.chars().filter(c -> c == '.').count() == 3;
  }

  private static String userAgent(ApiRequest request) {
    String agent = request.header("User-Agent");
    if (agent == null) {
      return "";
    }
    return agent.length() > MAX_USER_AGENT
        ? agent.substring(0, MAX_USER_AGENT) + "...TRUNCATED"
        : agent;
  }
}
