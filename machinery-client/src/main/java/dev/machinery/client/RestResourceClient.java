package dev.machinery.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.machinery.client.transport.TransportRequest;
import dev.machinery.client.transport.TransportResponse;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.restmapper.RESTMapping;
import dev.machinery.restmapper.Scope;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.CreateOptions;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.GetOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import dev.machinery.unversioned.protobuf.ProtobufEncoding;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The {@link ResourceClient} over REST: paths as kube-apiserver serves them, options as query
 * parameters, bodies through the client's codecs. Immutable; thread-safe.
 *
 * @param <T> the objects' class
 */
final class RestResourceClient<T> implements ResourceClient<T> {
  private static final String JSON = Codecs.JSON;
  private static final String PROTOBUF_OR_JSON = ProtobufCodec.MEDIA_TYPE + ", " + JSON;

  private final Function<GroupVersionKind, RESTMapping> mapper;
  private final GroupVersionKind kind;
  private final ObjectKind<T> objects;
  private final Requests requests;
  private final Codecs codecs;
  private final String namespace;

  RestResourceClient(
      Function<GroupVersionKind, RESTMapping> mapper,
      GroupVersionKind kind,
      ObjectKind<T> objects,
      Requests requests,
      Codecs codecs,
      String namespace) {
    this.mapper = mapper;
    this.kind = kind;
    this.objects = objects;
    this.requests = requests;
    this.codecs = codecs;
    this.namespace = namespace;
  }

  @Override
  public ResourceClient<T> inNamespace(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    if (namespace.contains("/")) {
      throw new IllegalArgumentException("namespace \"" + namespace + "\" must not contain /");
    }
    return new RestResourceClient<>(mapper, kind, objects, requests, codecs, namespace);
  }

  @Override
  public String namespace() {
    return namespace;
  }

  @Override
  public RESTMapping mapping() {
    return mapper.apply(kind);
  }

  // ------------------------------------------------------------------------------------- paths

  private String collection(RESTMapping mapping, String ns, boolean needsNamespace) {
    GroupVersionResource r = mapping.resource();
    StringBuilder path = new StringBuilder();
    if (r.group().isEmpty()) {
      path.append("/api/").append(r.version());
    } else {
      path.append("/apis/").append(r.group()).append('/').append(r.version());
    }
    if (mapping.scope() == Scope.NAMESPACE) {
      if (!ns.isEmpty()) {
        path.append("/namespaces/").append(ns);
      } else if (needsNamespace) {
        throw new IllegalArgumentException(
            "namespace: "
                + r.groupResource()
                + " are namespaced: give the client a namespace (inNamespace) or the object one"
                + " (metadata.namespace)");
      }
    }
    return path.append('/').append(r.resource()).toString();
  }

  private static String checkName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("name: resource name may not be empty");
    }
    if (name.equals(".") || name.equals("..") || name.contains("/") || name.contains("%")) {
      throw new IllegalArgumentException(
          "name: \"" + name + "\" may not be '.', '..' or contain '/' or '%'");
    }
    return name;
  }

  private String object(RESTMapping mapping, String ns, String name, String... subresource) {
    StringBuilder path =
        new StringBuilder(collection(mapping, ns, true)).append('/').append(checkName(name));
    for (String sub : subresource) {
      if (sub == null || sub.isEmpty() || sub.contains("/")) {
        throw new IllegalArgumentException("subresource: \"" + sub + "\" is not a subresource");
      }
      path.append('/').append(sub);
    }
    return path.toString();
  }

  private String namespaceOf(Object object) {
    if (!namespace.isEmpty()) {
      return namespace;
    }
    String own = Accessor.of(object).getNamespace();
    return own == null ? "" : own;
  }

  private static String nameOf(Object object) {
    MetaObject meta = Accessor.of(object);
    return checkName(meta.getName());
  }

  private Requests.Target target(RESTMapping mapping, String name) {
    return new Requests.Target(mapping.resource().groupResource(), name == null ? "" : name);
  }

  // ------------------------------------------------------------------------------------ bodies

  private record Body(byte[] bytes, String contentType) {}

  private Body encode(Object object) {
    Optional<ProtobufEncoding> protobuf = objects.protobuf();
    if (protobuf.isPresent()) {
      return new Body(protobuf.get().encode(object), ProtobufCodec.MEDIA_TYPE);
    }
    return new Body(objects.encodeJson(object), JSON);
  }

  private String accept() {
    return objects.protobuf().isPresent() ? PROTOBUF_OR_JSON : JSON;
  }

  private static Map<String, List<String>> headers(String accept, String contentType) {
    Map<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    h.put("Accept", List.of(accept));
    if (contentType != null) {
      h.put("Content-Type", List.of(contentType));
    }
    return h;
  }

  private static byte[] read(TransportResponse response, TransportRequest request) {
    try {
      return response.readBody();
    } catch (IOException e) {
      throw new TransportException(
          request.method()
              + " "
              + request.encodedPathAndQuery()
              + ": reading the response failed: "
              + e.getMessage(),
          e);
    }
  }

  private T decode(TransportResponse response, TransportRequest request) {
    byte[] body = read(response, request);
    String media = ResponseErrors.mediaType(response.header("Content-Type"));
    Optional<ProtobufEncoding> protobuf = objects.protobuf();
    if (media.equals(ProtobufCodec.MEDIA_TYPE) && protobuf.isPresent()) {
      return protobuf.get().decode(body, objects.type).object();
    }
    return objects.decodeJson(body);
  }

  private T exchange(
      String method,
      String path,
      Map<String, List<String>> query,
      Body body,
      RESTMapping mapping,
      String name) {
    TransportRequest request =
        new TransportRequest(
            method,
            path,
            query,
            headers(accept(), body == null ? null : body.contentType()),
            body == null ? null : body.bytes(),
            false);
    try (TransportResponse response = requests.send(request, target(mapping, name))) {
      return decode(response, request);
    }
  }

  // ------------------------------------------------------------------------------------- verbs

  @Override
  public T get(String name, GetOptions options) {
    RESTMapping mapping = mapping();
    return exchange(
        "GET", object(mapping, namespace, name), QueryParameters.get(options), null, mapping, name);
  }

  @Override
  public ListPage<T> list(ListOptions options) {
    RESTMapping mapping = mapping();
    TransportRequest request = collectionRead(mapping, options, false);
    byte[] body;
    try (TransportResponse response = requests.send(request, target(mapping, null))) {
      body = read(response, request);
    }
    return parseList(body, mapping);
  }

  /**
   * Reads a list in one streaming pass: its type and metadata as values, and each item as the span
   * of the body it stands in, decoded from those bytes by the item codec. An item is never built as
   * a JSON tree and written out again; a list of 1,000 typed objects decodes in about three
   * quarters of the time that took (docs/performance.md, {@code ClientLoad}).
   */
  private ListPage<T> parseList(byte[] body, RESTMapping mapping) {
    String listKind = "";
    String apiVersion = "";
    JsonNode meta = MissingNode.getInstance();
    List<byte[]> items = new ArrayList<>();
    try (JsonParser p = Codecs.TREES.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new DecodeException("the list is not a JSON object", "");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        switch (name) {
          case "kind" -> listKind = scalarText(p, value);
          case "apiVersion" -> apiVersion = scalarText(p, value);
          case "metadata" -> {
            JsonNode read = p.readValueAsTree();
            meta = read == null ? MissingNode.getInstance() : read;
          }
          case "items" -> {
            items.clear();
            if (value == JsonToken.START_ARRAY) {
              while (p.nextToken() != JsonToken.END_ARRAY) {
                items.add(itemBytes(p, body));
              }
            } else if (value != JsonToken.VALUE_NULL) {
              throw new DecodeException("items: the list's items are not an array", "items");
            }
          }
          default -> p.skipChildren();
        }
      }
    } catch (IOException e) {
      throw new DecodeException("the list is not JSON: " + e.getMessage(), "");
    }
    GroupVersionKind itemKind = mapping.groupVersionKind();
    if (listKind.endsWith("List") && listKind.length() > 4 && !apiVersion.isEmpty()) {
      itemKind =
          GroupVersionKind.fromApiVersionAndKind(
              apiVersion, listKind.substring(0, listKind.length() - 4));
    }
    List<T> decoded = new ArrayList<>(items.size());
    Function<byte[], T> decoder = objects.itemBytesDecoder(itemKind);
    for (byte[] item : items) {
      decoded.add(decoder.apply(item));
    }
    JsonNode remaining = meta.path("remainingItemCount");
    return new ListPage<>(
        decoded,
        meta.path("continue").asText(""),
        meta.path("resourceVersion").asText(""),
        remaining.isIntegralNumber() ? remaining.asLong() : null);
  }

  /** A top-level string of the list as {@code JsonNode.asText("")} reads it: "" for an object. */
  private static String scalarText(JsonParser p, JsonToken value) throws IOException {
    if (value.isStructStart()) {
      p.skipChildren();
      return "";
    }
    return p.getValueAsString("");
  }

  /**
   * The bytes of the item the parser stands at: an object's own span of the body; anything else (an
   * item the codec will refuse) written out from its tree.
   */
  private static byte[] itemBytes(JsonParser p, byte[] body) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      return ObjectKind.bytes(p.readValueAsTree());
    }
    long start = p.currentTokenLocation().getByteOffset();
    p.skipChildren();
    long end = p.currentLocation().getByteOffset();
    if (start < 0 || end > body.length || end <= start) {
      throw new IllegalStateException("the parser gave no byte offsets for a list item");
    }
    return Arrays.copyOfRange(body, (int) start, (int) end);
  }

  @Override
  public List<T> listAll(ListOptions options) {
    ListOptions page = copy(options);
    List<T> all = new ArrayList<>();
    while (true) {
      ListPage<T> result = list(page);
      all.addAll(result.items());
      if (!result.hasNext()) {
        return all;
      }
      page.setContinue(result.continueToken());
      // a continued list is read at the first page's version; the token carries it
      page.setResourceVersion(null);
      page.setResourceVersionMatch(null);
    }
  }

  /** A GET of the collection: a list, or (streaming) a watch, with the options as its query. */
  private TransportRequest collectionRead(RESTMapping mapping, ListOptions options, boolean watch) {
    ListOptions copy = copy(options);
    copy.setWatch(watch);
    return new TransportRequest(
        "GET",
        collection(mapping, namespace, false),
        QueryParameters.list(copy),
        headers(JSON, null),
        null,
        watch);
  }

  @Override
  public Watch<T> watch(ListOptions options) {
    RESTMapping mapping = mapping();
    TransportRequest request = collectionRead(mapping, options, true);
    TransportResponse response = requests.send(request, target(mapping, null));
    return new StreamWatch<>(
        response,
        objects,
        mapping.groupVersionKind(),
        codecs,
        Objects.requireNonNullElse(options.getResourceVersion(), ""));
  }

  @Override
  public T create(T object, CreateOptions options) {
    RESTMapping mapping = mapping();
    return exchange(
        "POST",
        collection(mapping, namespaceOf(object), true),
        QueryParameters.create(options),
        encode(object),
        mapping,
        Accessor.of(object).getName());
  }

  @Override
  public T update(T object, UpdateOptions options) {
    RESTMapping mapping = mapping();
    String name = nameOf(object);
    return exchange(
        "PUT",
        object(mapping, namespaceOf(object), name),
        QueryParameters.update(options),
        encode(object),
        mapping,
        name);
  }

  @Override
  public T updateStatus(T object, UpdateOptions options) {
    RESTMapping mapping = mapping();
    String name = nameOf(object);
    return exchange(
        "PUT",
        object(mapping, namespaceOf(object), name, "status"),
        QueryParameters.update(options),
        encode(object),
        mapping,
        name);
  }

  @Override
  public T patch(
      String name, PatchType type, String body, PatchOptions options, String... subresource) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(body, "body");
    RESTMapping mapping = mapping();
    return exchange(
        "PATCH",
        object(mapping, namespace, name, subresource),
        QueryParameters.patch(options),
        new Body(body.getBytes(StandardCharsets.UTF_8), type.contentType()),
        mapping,
        name);
  }

  @Override
  public T apply(T object, String fieldManager, boolean force) {
    if (fieldManager == null || fieldManager.isEmpty()) {
      throw new IllegalArgumentException("fieldManager: is required for apply requests");
    }
    RESTMapping mapping = mapping();
    String name = nameOf(object);
    PatchOptions options = new PatchOptions();
    options.setFieldManager(fieldManager);
    if (force) {
      options.setForce(true);
    }
    return exchange(
        "PATCH",
        object(mapping, namespaceOf(object), name),
        QueryParameters.patch(options),
        new Body(objects.encodeJson(object), PatchType.APPLY.contentType()),
        mapping,
        name);
  }

  private byte[] deleteBody(DeleteOptions options) {
    return codecs.metaJson.encode(typed(options));
  }

  private static DeleteOptions typed(DeleteOptions options) {
    options.setApiVersion("meta.k8s.io/v1");
    options.setKind("DeleteOptions");
    return options;
  }

  @Override
  public Optional<T> delete(String name, DeleteOptions options) {
    RESTMapping mapping = mapping();
    TransportRequest request =
        new TransportRequest(
            "DELETE",
            object(mapping, namespace, name),
            Map.of(),
            headers(accept(), JSON),
            deleteBody(copy(options)),
            false);
    try (TransportResponse response = requests.send(request, target(mapping, name))) {
      byte[] body = read(response, request);
      String media = ResponseErrors.mediaType(response.header("Content-Type"));
      if (media.equals(ProtobufCodec.MEDIA_TYPE) && objects.protobuf().isPresent()) {
        Object decoded = objects.protobuf().get().decode(body).object();
        return objects.type.equals(decoded.getClass())
            ? Optional.of(objects.type.cast(decoded))
            : Optional.empty();
      }
      if (isStatus(body)) {
        return Optional.empty();
      }
      return Optional.of(objects.decodeJson(body));
    }
  }

  private static boolean isStatus(byte[] body) {
    if (body.length == 0) {
      return true;
    }
    try {
      JsonNode tree = Codecs.TREES.readTree(body);
      return tree != null
          && tree.path("kind").asText("").equals("Status")
          && tree.path("apiVersion").asText("").equals("v1");
    } catch (IOException e) {
      throw new DecodeException("the delete's answer is not JSON: " + e.getMessage(), "");
    }
  }

  @Override
  public void deleteCollection(DeleteOptions options, ListOptions listOptions) {
    RESTMapping mapping = mapping();
    ListOptions list = copy(listOptions);
    list.setWatch(false);
    TransportRequest request =
        new TransportRequest(
            "DELETE",
            collection(mapping, namespace, false),
            QueryParameters.list(list),
            headers(JSON, JSON),
            deleteBody(copy(options)),
            false);
    try (TransportResponse response = requests.send(request, target(mapping, null))) {
      read(response, request);
    }
  }

  @Override
  public Scale getScale(String name) {
    return getSubresource(name, "scale", Scale.class);
  }

  @Override
  public Scale updateScale(String name, Scale scale, UpdateOptions options) {
    Scale body = new Scale();
    body.setApiVersion(scale.getApiVersion());
    body.setKind(scale.getKind());
    body.setMetadata(scale.getMetadata());
    body.setSpec(scale.getSpec());
    body.setStatus(scale.getStatus());
    return updateSubresource(name, "scale", scaleTyped(body), Scale.class, options);
  }

  private static Scale scaleTyped(Scale scale) {
    if (scale.getApiVersion() == null || scale.getApiVersion().isEmpty()) {
      scale.setApiVersion("autoscaling/v1");
    }
    if (scale.getKind() == null || scale.getKind().isEmpty()) {
      scale.setKind("Scale");
    }
    return scale;
  }

  @Override
  public <S> S getSubresource(String name, String subresource, Class<S> type) {
    Objects.requireNonNull(type, "type");
    RESTMapping mapping = mapping();
    TransportRequest request =
        new TransportRequest(
            "GET",
            object(mapping, namespace, name, subresource),
            Map.of(),
            headers(JSON, null),
            null,
            false);
    try (TransportResponse response = requests.send(request, target(mapping, name))) {
      return codecs.jsonFor(type).decode(read(response, request), type).object();
    }
  }

  @Override
  public <S> S updateSubresource(
      String name, String subresource, Object body, Class<S> type, UpdateOptions options) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(type, "type");
    RESTMapping mapping = mapping();
    TransportRequest request =
        new TransportRequest(
            "PUT",
            object(mapping, namespace, name, subresource),
            QueryParameters.update(options),
            headers(JSON, JSON),
            codecs.jsonFor(body.getClass()).encode(body),
            false);
    try (TransportResponse response = requests.send(request, target(mapping, name))) {
      return codecs.jsonFor(type).decode(read(response, request), type).object();
    }
  }

  @Override
  public <S> S createSubresource(
      String name, String subresource, Object body, Class<S> type, CreateOptions options) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(type, "type");
    RESTMapping mapping = mapping();
    TransportRequest request =
        new TransportRequest(
            "POST",
            object(mapping, namespace, name, subresource),
            QueryParameters.create(options),
            headers(JSON, JSON),
            codecs.jsonFor(body.getClass()).encode(body),
            false);
    try (TransportResponse response = requests.send(request, target(mapping, name))) {
      return codecs.jsonFor(type).decode(read(response, request), type).object();
    }
  }

  private ListOptions copy(ListOptions options) {
    Objects.requireNonNull(options, "options");
    ListOptions copy = new ListOptions();
    copy.setLabelSelector(options.getLabelSelector());
    copy.setFieldSelector(options.getFieldSelector());
    copy.setWatch(options.isWatch());
    copy.setAllowWatchBookmarks(options.isAllowWatchBookmarks());
    copy.setResourceVersion(options.getResourceVersion());
    copy.setResourceVersionMatch(options.getResourceVersionMatch());
    copy.setTimeoutSeconds(options.getTimeoutSeconds());
    copy.setLimit(options.getLimit());
    copy.setContinue(options.getContinue());
    copy.setSendInitialEvents(options.getSendInitialEvents());
    return copy;
  }

  private DeleteOptions copy(DeleteOptions options) {
    Objects.requireNonNull(options, "options");
    DeleteOptions copy = new DeleteOptions();
    copy.setGracePeriodSeconds(options.getGracePeriodSeconds());
    copy.setPreconditions(options.getPreconditions());
    copy.setOrphanDependents(options.getOrphanDependents());
    copy.setPropagationPolicy(options.getPropagationPolicy());
    copy.setDryRun(options.getDryRun());
    copy.setIgnoreStoreReadErrorWithClusterBreakingPotential(
        options.getIgnoreStoreReadErrorWithClusterBreakingPotential());
    return copy;
  }

  @Override
  public String toString() {
    return "ResourceClient("
        + (kind == null ? "by resource" : kind.toString())
        + (namespace.isEmpty() ? "" : ", namespace " + namespace)
        + ")";
  }
}
