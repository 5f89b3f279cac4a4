package dev.machinery.apiserver.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.ResourceList;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.negotiation.Endpoint;
import dev.machinery.apiserver.negotiation.MediaType;
import dev.machinery.apiserver.negotiation.Negotiation;
import dev.machinery.apiserver.negotiation.Negotiator;
import dev.machinery.apiserver.negotiation.Response;
import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.FieldProblem;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.codec.MissingKindException;
import dev.machinery.core.codec.MissingVersionException;
import dev.machinery.core.patch.PatchType;
import dev.machinery.core.patch.Patches;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.fields.FieldSelector;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusDetails;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Serves the resource endpoints: get, list, watch, create, update, patch, delete and
 * deletecollection, and the {@code status} and {@code scale} subresources. Decodes bodies in JSON,
 * YAML or Kubernetes' protobuf (strict, warn or ignore unknown fields), converts between the
 * request's version and the storage version, and answers in the negotiated representation.
 *
 * <p>Thread-safe: immutable after construction.
 */
public final class ResourceHandler {
  private static final String SCALE_API_VERSION = "autoscaling/v1";

  private final Scheme scheme;
  private final Map<String, Served> served;
  private final Negotiator negotiator;
  private final Codec json;
  private final Codec yaml;
  private final ProtobufCodec protobuf;
  private final long maxBodyBytes;
  private final WatchStreams watches;
  private final ResourceStore namespaces;
  private final List<ResourceStore> namespacedStores;

  /**
   * Creates the handler.
   *
   * @param scheme the scheme
   * @param served the served resources by {@code group/version/resource}
   * @param negotiator the response negotiator
   * @param codecs the codecs
   * @param protobuf the protobuf codec
   * @param maxBodyBytes the request body limit
   * @param watches the watch streams
   * @param namespaces the store of namespaces, or {@code null} when the server serves none
   */
  public ResourceHandler(
      Scheme scheme,
      Map<String, Served> served,
      Negotiator negotiator,
      CodecFactory codecs,
      ProtobufCodec protobuf,
      long maxBodyBytes,
      WatchStreams watches,
      ResourceStore namespaces) {
    this.scheme = scheme;
    this.served = Map.copyOf(served);
    this.negotiator = negotiator;
    this.json = codecs.json();
    this.yaml = codecs.yaml();
    this.protobuf = protobuf;
    this.maxBodyBytes = maxBodyBytes;
    this.watches = watches;
    this.namespaces = namespaces;
    Map<String, ResourceStore> stores = new HashMap<>();
    for (Served s : served.values()) {
      if (s.store().definition().namespaced()) {
        stores.put(s.store().prefix(null), s.store());
      }
    }
    this.namespacedStores = List.copyOf(stores.values());
  }

  /**
   * Answers a resource request.
   *
   * @param request the request
   * @param info what its path names
   * @return the response
   */
  public ApiResponse handle(ApiRequest request, RequestInfo info) {
    Served target = served.get(info.group() + "/" + info.version() + "/" + info.resource());
    if (target == null) {
      throw notFound();
    }
    ResourceStore store = target.store();
    boolean namespaced = store.definition().namespaced();
    if (!namespaced) {
      boolean self =
          info.resource().equals("namespaces") && Objects.equals(info.namespace(), info.name());
      if (info.namespace() != null && !self) {
        throw notFound();
      }
      info = info.withoutNamespace();
    } else if (info.namespace() == null
        && !request.method().equals("GET")
        && !request.method().equals("HEAD")) {
      throw notFound();
    }
    String verb = info.verb(request.method(), request.parameter("watch"));
    String sub = info.subresource();
    if (sub != null
        && (info.name() == null
            || !(sub.equals("status") && store.definition().hasStatus())
                && !(sub.equals("scale") && store.definition().scale().isPresent()))) {
      throw notFound();
    }
    if (namespaced && info.namespace() == null && info.name() != null) {
      throw notFound();
    }
    switch (verb) {
      case "list":
        return list(request, info, target);
      case "watch":
        if (sub != null) {
          throw notFound();
        }
        return watch(request, info, target);
      case "get":
        return get(request, info, target);
      case "create":
        if (info.name() != null) {
          throw ApiErrors.newMethodNotSupported(store.groupResource(), request.method());
        }
        return create(request, info, target);
      case "update":
        return requireName(info, store, request) ? update(request, info, target) : null;
      case "patch":
        return requireName(info, store, request) ? patch(request, info, target) : null;
      case "delete":
        if (sub != null) {
          throw ApiErrors.newMethodNotSupported(store.groupResource(), request.method());
        }
        return delete(request, info, target);
      case "deletecollection":
        return deleteCollection(request, info, target);
      default:
        throw ApiErrors.newMethodNotSupported(store.groupResource(), request.method());
    }
  }

  private static boolean requireName(RequestInfo info, ResourceStore store, ApiRequest request) {
    if (info.name() == null) {
      throw ApiErrors.newMethodNotSupported(store.groupResource(), request.method());
    }
    return true;
  }

  static RuntimeException notFound() {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    status.setMessage("the server could not find the requested resource");
    status.setReason("NotFound");
    status.setDetails(new StatusDetails());
    status.setCode(404);
    return new dev.machinery.unversioned.errors.StatusException(status);
  }

  // ---- reads

  private ApiResponse get(ApiRequest request, RequestInfo info, Served target) {
    Object stored = target.store().get(info.namespace(), info.name());
    if ("scale".equals(info.subresource())) {
      return respondScale(request, target, stored, 200);
    }
    return respond(request, target, toServed(stored, target), 200, false);
  }

  private ApiResponse list(ApiRequest request, RequestInfo info, Served target) {
    Predicate<Object> filter = filter(request, target.store());
    int limit = limit(request.parameter("limit"));
    ResourceStore.Page page =
        target
            .store()
            .list(
                info.namespace(),
                filter,
                limit,
                request.parameter("continue"),
                request.parameter("resourceVersion"));
    List<Object> items = new ArrayList<>(page.items().size());
    for (Object item : page.items()) {
      items.add(toServed(item, target));
    }
    ListMeta meta = new ListMeta();
    meta.setResourceVersion(Long.toString(page.revision()));
    meta.setContinue(page.continueToken());
    ResourceList list =
        ResourceList.of(
            target.kind().groupVersion().withKind(target.kind().kind() + "List"), meta, items);
    return respond(request, target, list, 200, true);
  }

  private ApiResponse watch(ApiRequest request, RequestInfo info, Served target) {
    String upgrade = request.header("Upgrade");
    if (upgrade != null && upgrade.toLowerCase(java.util.Locale.ROOT).contains("websocket")) {
      // No WebSocket here: the answer is an HTTP watch that ends at once, with a warning. A client
      // that tried a WebSocket first (fabric8's) takes the 200 as "watch over HTTP instead".
      return ApiResponse.of(200, "application/json", new byte[0])
          .withHeader(
              "Warning",
              "299 - \"watches are not served over WebSocket here; watch with a streamed HTTP"
                  + " response (the same request without Upgrade)\"");
    }
    Negotiation negotiation = negotiate(request, target, false);
    return watches.stream(
        request,
        target,
        info.namespace(),
        filter(request, target.store()),
        negotiation,
        object -> toServed(object, target),
        name -> info.name() == null || info.name().equals(name));
  }

  // ---- writes

  private ApiResponse create(ApiRequest request, RequestInfo info, Served target) {
    boolean dryRun = dryRun(request);
    FieldValidation validation = fieldValidation(request);
    Decoded<Object> decoded = decodeBody(request, target, validation);
    Object object = toStorage(decoded.object(), target);
    MetaObject meta = Accessor.of(object);
    if (target.store().definition().namespaced()) {
      if (meta.getNamespace() == null || meta.getNamespace().isEmpty()) {
        meta.setNamespace(info.namespace());
      } else if (!meta.getNamespace().equals(info.namespace())) {
        throw ApiErrors.newBadRequest(
            "the namespace of the provided object does not match the namespace sent on the"
                + " request");
      }
      requireNamespace(info.namespace());
    }
    Object created = target.store().create(object, dryRun);
    return warn(respond(request, target, toServed(created, target), 201, false), decoded);
  }

  private ApiResponse update(ApiRequest request, RequestInfo info, Served target) {
    boolean dryRun = dryRun(request);
    FieldValidation validation = fieldValidation(request);
    if ("scale".equals(info.subresource())) {
      byte[] body = Bodies.read(request, maxBodyBytes);
      Scale scale =
          codecFor(request).withFieldValidation(validation).decode(body, Scale.class).object();
      return writeScale(request, info, target, scale, dryRun);
    }
    Decoded<Object> decoded = decodeBody(request, target, validation);
    Object object = toStorage(decoded.object(), target);
    MetaObject meta = Accessor.of(object);
    if (meta.getName() != null && !meta.getName().equals(info.name())) {
      throw ApiErrors.newBadRequest(
          "the name of the object ("
              + meta.getName()
              + ") does not match the name on the URL ("
              + info.name()
              + ")");
    }
    if (target.store().definition().namespaced()
        && meta.getNamespace() != null
        && !meta.getNamespace().isEmpty()
        && !meta.getNamespace().equals(info.namespace())) {
      throw ApiErrors.newBadRequest(
          "the namespace of the provided object does not match the namespace sent on the"
              + " request");
    }
    Object updated =
        target
            .store()
            .update(
                info.namespace(),
                info.name(),
                old -> object,
                "status".equals(info.subresource()),
                dryRun);
    return warn(respond(request, target, toServed(updated, target), 200, false), decoded);
  }

  private ApiResponse patch(ApiRequest request, RequestInfo info, Served target) {
    boolean dryRun = dryRun(request);
    FieldValidation validation = fieldValidation(request);
    String contentType = request.header("Content-Type");
    PatchType type =
        contentType == null
            ? null
            : PatchType.fromContentType(contentType)
                .filter(t -> t != PatchType.APPLY_PATCH)
                .orElse(null);
    if (type == null) {
      throw ApiErrors.newUnsupportedMediaType(
          "the body of the request was in an unknown format - accepted media types include:"
              + " application/json-patch+json, application/merge-patch+json,"
              + " application/strategic-merge-patch+json");
    }
    byte[] patch = Bodies.read(request, maxBodyBytes);
    Codec codec = json.withFieldValidation(validation);
    if ("scale".equals(info.subresource())) {
      Object stored = target.store().get(info.namespace(), info.name());
      Scale current = scaleOf(target, stored);
      Scale patched = Patches.apply(codec, current, patch, type);
      return writeScale(request, info, target, patched, dryRun);
    }
    List<FieldProblem> warnings = new ArrayList<>();
    Object updated =
        target
            .store()
            .update(
                info.namespace(),
                info.name(),
                old -> {
                  Object current = toServed(old, target);
                  Object patched = applyPatch(codec, current, patch, type, warnings);
                  scheme.applyDefaults(patched);
                  return toStorage(patched, target);
                },
                "status".equals(info.subresource()),
                dryRun);
    ApiResponse response = respond(request, target, toServed(updated, target), 200, false);
    for (FieldProblem warning : warnings) {
      response = response.withHeader("Warning", warning(warning));
    }
    return response;
  }

  private Object applyPatch(
      Codec codec, Object current, byte[] patch, PatchType type, List<FieldProblem> warnings) {
    if (codec.fieldValidation() != FieldValidation.WARN) {
      return Patches.apply(codec, current, patch, type);
    }
    Object lenient =
        Patches.apply(codec.withFieldValidation(FieldValidation.IGNORE), current, patch, type);
    Decoded<?> checked = codec.decode(codec.encode(lenient), current.getClass());
    warnings.addAll(checked.warnings());
    return lenient;
  }

  private ApiResponse delete(ApiRequest request, RequestInfo info, Served target) {
    DeleteOptions options = deleteOptions(request);
    boolean dryRun =
        dryRun(request) || options.getDryRun() != null && options.getDryRun().contains("All");
    ResourceStore.Deletion deletion =
        target.store().delete(info.namespace(), info.name(), options.getPreconditions(), dryRun);
    if (deletion.gone() && !dryRun) {
      cascade(target.store(), info.name());
    }
    if (!deletion.gone()) {
      return respond(request, target, toServed(deletion.object(), target), 202, false);
    }
    return respond(request, target, toServed(deletion.object(), target), 200, false);
  }

  private ApiResponse deleteCollection(ApiRequest request, RequestInfo info, Served target) {
    DeleteOptions options = deleteOptions(request);
    boolean dryRun =
        dryRun(request) || options.getDryRun() != null && options.getDryRun().contains("All");
    Predicate<Object> filter = filter(request, target.store());
    ResourceStore.Page page = target.store().list(info.namespace(), filter, 0, null, null);
    List<Object> items = new ArrayList<>();
    for (Object object : page.items()) {
      MetaObject meta = Accessor.of(object);
      try {
        ResourceStore.Deletion deletion =
            target.store().delete(meta.getNamespace(), meta.getName(), null, dryRun);
        if (deletion.gone() && !dryRun) {
          cascade(target.store(), meta.getName());
        }
        items.add(toServed(deletion.object(), target));
      } catch (RuntimeException e) {
        if (!ApiErrors.isNotFound(e)) {
          throw e;
        }
      }
    }
    ListMeta meta = new ListMeta();
    meta.setResourceVersion(Long.toString(target.store().currentRevision()));
    return respond(
        request,
        target,
        ResourceList.of(
            target.kind().groupVersion().withKind(target.kind().kind() + "List"), meta, items),
        200,
        true);
  }

  /** Deleting a namespace deletes what is in it. */
  private void cascade(ResourceStore store, String name) {
    if (store != namespaces) {
      return;
    }
    for (ResourceStore inner : namespacedStores) {
      for (Object object : inner.list(name, o -> true, 0, null, null).items()) {
        MetaObject meta = Accessor.of(object);
        try {
          inner.delete(meta.getNamespace(), meta.getName(), null, false);
        } catch (RuntimeException e) {
          if (!ApiErrors.isNotFound(e)) {
            throw e;
          }
        }
      }
    }
  }

  private void requireNamespace(String namespace) {
    if (namespaces == null) {
      return;
    }
    try {
      namespaces.get(null, namespace);
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        throw ApiErrors.newNotFound(GroupResource.of("", "namespaces"), namespace);
      }
      throw e;
    }
  }

  // ---- scale

  private Scale scaleOf(Served target, Object stored) {
    ScaleView view =
        new ScaleView(
            scheme,
            target.store().definition().scaleType(),
            target.store().definition().scale().orElseThrow());
    Scale scale = view.read(stored);
    scale.setApiVersion(SCALE_API_VERSION);
    scale.setKind("Scale");
    return scale;
  }

  private ApiResponse respondScale(ApiRequest request, Served target, Object stored, int code) {
    byte[] body = json.encode(scaleOf(target, stored));
    return ApiResponse.of(code, "application/json", body);
  }

  private ApiResponse writeScale(
      ApiRequest request, RequestInfo info, Served target, Scale scale, boolean dryRun) {
    ScaleAccessor<Object> accessor = target.store().definition().scale().orElseThrow();
    String asked = scale.getMetadata() == null ? null : scale.getMetadata().getResourceVersion();
    Object updated =
        target
            .store()
            .update(
                info.namespace(),
                info.name(),
                old -> {
                  accessor.write(old, scale);
                  Accessor.of(old).setResourceVersion(asked);
                  return old;
                },
                false,
                dryRun);
    return respondScale(request, target, updated, 200);
  }

  // ---- helpers

  private Decoded<Object> decodeBody(
      ApiRequest request, Served target, FieldValidation validation) {
    byte[] body = Bodies.read(request, maxBodyBytes);
    if (body.length == 0) {
      throw ApiErrors.newBadRequest(
          "the request body is empty: an object of kind " + target.kind().kind() + " is expected");
    }
    Decoded<Object> decoded;
    if (isProtobuf(request.header("Content-Type"))) {
      decoded = protobuf.decode(body);
    } else {
      Codec codec = codecFor(request).withFieldValidation(validation);
      try {
        decoded = codec.decode(body);
      } catch (MissingKindException | MissingVersionException e) {
        Decoded<?> typed = codec.decode(body, target.type());
        decoded = new Decoded<>(typed.object(), typed.kind(), typed.warnings());
      }
    }
    // As kube-apiserver's decoder does: every object a client writes is defaulted in the version
    // it was written in, before it is converted to storage.
    scheme.applyDefaults(decoded.object());
    GroupVersionKind kind = decoded.kind();
    if (!kind.groupKind().equals(target.kind().groupKind())) {
      throw ApiErrors.newBadRequest(
          "the API version in the data ("
              + kind.apiVersion()
              + ") and kind ("
              + kind.kind()
              + ") do not match the expected API version ("
              + target.kind().apiVersion()
              + ") and kind ("
              + target.kind().kind()
              + ")");
    }
    return decoded;
  }

  private Codec codecFor(ApiRequest request) {
    String contentType = request.header("Content-Type");
    if (contentType == null || contentType.isBlank()) {
      return json;
    }
    MediaType media;
    try {
      media = MediaType.parse(contentType);
    } catch (RuntimeException e) {
      throw unsupported(contentType);
    }
    String bare = media.type() + "/" + media.subtype();
    if (bare.equals("application/json")) {
      return json;
    }
    if (bare.equals("application/yaml")) {
      return yaml;
    }
    throw unsupported(contentType);
  }

  private static boolean isProtobuf(String contentType) {
    return contentType != null
        && contentType
            .strip()
            .toLowerCase(java.util.Locale.ROOT)
            .startsWith(ProtobufCodec.MEDIA_TYPE);
  }

  private static RuntimeException unsupported(String contentType) {
    return ApiErrors.newUnsupportedMediaType(
        "the body of the request was in an unknown format - accepted media types include:"
            + " application/json, application/yaml, application/vnd.kubernetes.protobuf");
  }

  private Object toStorage(Object object, Served target) {
    GroupVersion storage = target.store().storageKind().groupVersion();
    if (scheme.kindFor(object).groupVersion().equals(storage)) {
      return object;
    }
    return scheme.convertToVersion(object, GroupVersioner.of(storage));
  }

  private Object toServed(Object object, Served target) {
    if (target.store().storageKind().equals(target.kind())) {
      return object;
    }
    return scheme.convertToVersion(object, GroupVersioner.of(target.kind().groupVersion()));
  }

  private Negotiation negotiate(ApiRequest request, Served target, boolean list) {
    return negotiator.negotiate(
        request.header("Accept"),
        new Endpoint(target.kind(), list),
        request.parameter("pretty"),
        request.header("User-Agent"));
  }

  private ApiResponse respond(
      ApiRequest request, Served target, Object object, int code, boolean list) {
    if (WatchStreams.prefersProtobuf(request.header("Accept"))
        && protobuf.canEncode(target.type())
        && protobuf.canEncode(object.getClass())) {
      return ApiResponse.of(code, ProtobufCodec.MEDIA_TYPE, protobuf.encode(object));
    }
    Negotiation negotiation = negotiate(request, target, list);
    if (!negotiation.acceptable()) {
      Response refused = negotiator.notAcceptableResponse(negotiation);
      return ApiResponse.of(refused.status(), refused.contentType(), refused.body());
    }
    Response response =
        negotiator.respond(
            negotiation.representation(), object, request.parameter("includeObject"));
    return ApiResponse.of(code, response.contentType(), response.body());
  }

  private Predicate<Object> filter(ApiRequest request, ResourceStore store) {
    String labelText = request.parameter("labelSelector");
    String fieldText = request.parameter("fieldSelector");
    Selector labels =
        labelText == null || labelText.isEmpty()
            ? Selector.everything()
            : Selector.parse(labelText);
    FieldSelector fields =
        fieldText == null || fieldText.isEmpty()
            ? FieldSelector.everything()
            : FieldSelector.parse(fieldText);
    Map<String, Function<Object, String>> known = store.definition().fieldLabels();
    for (FieldSelector.Term term : fields.terms()) {
      if (!term.field().equals("metadata.name")
          && !term.field().equals("metadata.namespace")
          && !known.containsKey(term.field())) {
        throw ApiErrors.newBadRequest(
            "Unable to find \""
                + store.groupResource().resource()
                + "\" that match label selector \""
                + Objects.toString(labelText, "")
                + "\", field selector \""
                + fieldText
                + "\": field label not supported: "
                + term.field());
      }
    }
    if (labels.isEmpty() && fields.isEmpty()) {
      return object -> true;
    }
    return object -> {
      MetaObject meta = Accessor.of(object);
      if (!labels.matches(meta.getLabels() == null ? Map.of() : meta.getLabels())) {
        return false;
      }
      if (fields.isEmpty()) {
        return true;
      }
      Map<String, String> values = new HashMap<>();
      values.put("metadata.name", Objects.toString(meta.getName(), ""));
      values.put("metadata.namespace", Objects.toString(meta.getNamespace(), ""));
      known.forEach(
          (label, reader) -> values.put(label, Objects.toString(reader.apply(object), "")));
      return fields.matches(values);
    };
  }

  private static int limit(String text) {
    if (text == null || text.isEmpty()) {
      return 0;
    }
    try {
      return (int) Math.min(Math.max(Long.parseLong(text), 0), Integer.MAX_VALUE);
    } catch (NumberFormatException e) {
      throw ApiErrors.newBadRequest("limit: Invalid value: \"" + text + "\": must be an integer");
    }
  }

  private static boolean dryRun(ApiRequest request) {
    List<String> values = request.query().getOrDefault("dryRun", List.of());
    for (String value : values) {
      if (!value.equals("All")) {
        throw ApiErrors.newBadRequest(
            "dryRun: Unsupported value: \"" + value + "\": supported values: \"All\"");
      }
    }
    return !values.isEmpty();
  }

  private static FieldValidation fieldValidation(ApiRequest request) {
    String value = request.parameter("fieldValidation");
    if (value == null || value.isEmpty() || value.equals("Warn")) {
      return FieldValidation.WARN;
    }
    if (value.equals("Strict")) {
      return FieldValidation.STRICT;
    }
    if (value.equals("Ignore")) {
      return FieldValidation.IGNORE;
    }
    throw ApiErrors.newBadRequest(
        "fieldValidation: Unsupported value: \""
            + value
            + "\": supported values: \"Ignore\", \"Strict\", \"Warn\"");
  }

  private DeleteOptions deleteOptions(ApiRequest request) {
    byte[] body = Bodies.read(request, maxBodyBytes);
    DeleteOptions options;
    if (body.length == 0) {
      options = new DeleteOptions();
    } else {
      JsonNode tree = Patches.readTree(body, "the DeleteOptions body");
      if (!tree.isObject()) {
        throw ApiErrors.newBadRequest("the DeleteOptions body must be a JSON object");
      }
      options = json.decode(body, DeleteOptions.class).object();
    }
    String policy = request.parameter("propagationPolicy");
    if (policy != null) {
      options.setPropagationPolicy(policy);
    }
    String p = options.getPropagationPolicy();
    if (p != null && !List.of("Orphan", "Background", "Foreground").contains(p)) {
      throw ApiErrors.newBadRequest(
          "propagationPolicy: Unsupported value: \""
              + p
              + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"");
    }
    return options;
  }

  private static ApiResponse warn(ApiResponse response, Decoded<?> decoded) {
    ApiResponse out = response;
    for (FieldProblem problem : decoded.warnings()) {
      out = out.withHeader("Warning", warning(problem));
    }
    return out;
  }

  private static String warning(FieldProblem problem) {
    return "299 - \"" + problem.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
