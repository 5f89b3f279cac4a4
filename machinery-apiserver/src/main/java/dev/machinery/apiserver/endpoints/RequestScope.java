package dev.machinery.apiserver.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.negotiation.ContentTypeNegotiator;
import dev.machinery.apiserver.negotiation.EncodedList;
import dev.machinery.apiserver.negotiation.Endpoint;
import dev.machinery.apiserver.negotiation.Negotiation;
import dev.machinery.apiserver.negotiation.Negotiator;
import dev.machinery.apiserver.negotiation.ProtobufBodies;
import dev.machinery.apiserver.negotiation.QueryOptions;
import dev.machinery.apiserver.negotiation.Representation;
import dev.machinery.apiserver.negotiation.Response;
import dev.machinery.apiserver.registry.AdmissionNotes;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.FieldProblem;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.codec.StrictDecodingException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.managedfields.FieldManager;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.ManagedFieldsEntry;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What every verb's handler shares, as Go's {@code handlers.RequestScope}: the Scheme, the decoders
 * of request bodies (chosen by Content-Type), the conversions between a request's version and the
 * storage version, the options read from query parameters, and the rendering of responses in the
 * negotiated representation. Immutable; thread-safe.
 */
final class RequestScope {
  private final Scheme scheme;
  private final Codec json;
  private final Codec yaml;
  private final ProtobufBodies protobuf;
  private final ContentTypeNegotiator bodies;
  private final Negotiator negotiator;
  private final QueryOptions queryOptions;
  private final long maxBodyBytes;
  private final FieldManagement fields;

  RequestScope(
      Scheme scheme,
      CodecFactory codecs,
      ProtobufBodies protobuf,
      Negotiator negotiator,
      long maxBodyBytes) {
    this.scheme = scheme;
    this.json = codecs.json();
    this.yaml = codecs.yaml();
    this.protobuf = protobuf;
    this.bodies =
        ContentTypeNegotiator.builder()
            .accept("application/json", json)
            .accept("application/yaml", yaml)
            .accept(ProtobufCodec.MEDIA_TYPE)
            .build();
    this.negotiator = negotiator;
    this.queryOptions = new QueryOptions(codecs, Set.of("pretty", "includeObject", "watch"));
    this.maxBodyBytes = maxBodyBytes;
    this.fields = new FieldManagement(scheme, json);
  }

  /** Server-side apply's bookkeeping. */
  FieldManagement fields() {
    return fields;
  }

  /** The field manager of the endpoint's kind and version, for the object or a subresource. */
  FieldManager fieldManager(Served target, String subresource) {
    return fields.forKind(target.kind(), target.type(), subresource, target.store());
  }

  /**
   * Records a create, update or patch in the object's managed fields, as kube-apiserver does before
   * storing it.
   *
   * @param live the stored object in the request's version, or {@code null} for a create
   * @param next the object to store, in the request's version
   * @return the object to store, with its managed fields, in the request's version
   */
  Object trackUpdate(
      ApiRequest request, Served target, String subresource, Object live, Object next) {
    Object served = toRequestVersion(next, target);
    JsonNode liveTree =
        live == null
            ? fields.empty(target.type(), target.kind())
            : fields.tree(toRequestVersion(live, target));
    ObjectNode nextTree = fields.tree(served);
    List<ManagedFieldsEntry> sent = Accessor.of(served).getManagedFields();
    if (sent != null && sent.isEmpty() && nextTree.get("metadata") instanceof ObjectNode meta) {
      // An empty list the client sent (which the encoding leaves out) resets the managed fields.
      meta.putArray("managedFields");
    }
    fieldManager(target, subresource).update(liveTree, nextTree, FieldManagement.manager(request));
    return fields.object(nextTree, target.type());
  }

  /** The object in the request's version. */
  Object toRequestVersion(Object object, Served target) {
    return target.store().model().forFieldManagement(object, target.kind());
  }

  Scheme scheme() {
    return scheme;
  }

  Codec json() {
    return json;
  }

  QueryOptions queryOptions() {
    return queryOptions;
  }

  Negotiator negotiator() {
    return negotiator;
  }

  /** Reads the body under the size limit. */
  byte[] body(ApiRequest request) {
    return Bodies.read(request, maxBodyBytes);
  }

  /** The JSON or YAML codec the body's Content-Type names (415 for anything else). */
  Codec codecFor(ApiRequest request) {
    String chosen = bodies.choose(request.header("Content-Type"));
    if (chosen.equals(ProtobufCodec.MEDIA_TYPE)) {
      throw ApiErrors.newUnsupportedMediaType(
          "the body of the request was in an unknown format - accepted media types include:"
              + " application/json, application/yaml");
    }
    return bodies.negotiate(chosen);
  }

  /**
   * Reads a body of a subresource answered in code as an unstructured object: JSON or YAML, or a
   * protobuf body read by Kubernetes' message of the action's kind (as typed clients such as
   * kubectl's send them); a body without {@code apiVersion} and {@code kind} is taken as the
   * action's kind.
   */
  Unstructured decodeActionBody(ApiRequest request, byte[] body, GroupVersionKind kind) {
    String chosen = bodies.choose(request.header("Content-Type"));
    if (chosen.equals(ProtobufCodec.MEDIA_TYPE)) {
      body = protobuf.toJson(body, kind);
      chosen = "application/json";
    }
    return bodies.negotiate(chosen).withDefaultKind(kind).decode(body, Unstructured.class).object();
  }

  /**
   * Decodes the object a client writes: in the body's format, with the request's field validation,
   * defaulted in the version it was written in (as kube-apiserver's decoder does), and of the
   * endpoint's group and kind.
   */
  Decoded<Object> decodeObject(ApiRequest request, Served target, FieldValidation validation) {
    byte[] body = body(request);
    if (body.length == 0) {
      throw ApiErrors.newBadRequest(
          "the request body is empty: an object of kind " + target.kind().kind() + " is expected");
    }
    String chosen = bodies.choose(request.header("Content-Type"));
    if (chosen.equals(ProtobufCodec.MEDIA_TYPE) && !protobuf.decodesByClass(target.type())) {
      // Read by the kind's message in Kubernetes' files, then as the JSON it stands for.
      body = protobuf.toJson(body, target.kind());
      chosen = "application/json";
    }
    Decoded<Object> decoded;
    if (chosen.equals(ProtobufCodec.MEDIA_TYPE)) {
      decoded = protobuf.classes().decode(body);
    } else {
      Codec codec = bodies.negotiate(chosen).withFieldValidation(validation);
      decoded = target.store().model().decode(codec, body, target.kind());
    }
    return checked(decoded, target, validation);
  }

  private Decoded<Object> checked(
      Decoded<Object> decoded, Served target, FieldValidation validation) {
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
    scheme.applyDefaults(decoded.object());
    List<FieldProblem> pruned = normalize(decoded.object(), target, validation);
    if (!pruned.isEmpty()) {
      List<FieldProblem> warnings = new ArrayList<>(decoded.warnings());
      warnings.addAll(pruned);
      return new Decoded<>(decoded.object(), decoded.kind(), warnings);
    }
    return decoded;
  }

  /**
   * Runs the resource's {@link dev.machinery.apiserver.registry.rest.ObjectNormalizer} on an object
   * a client wrote: the fields it dropped are an error under {@code Strict}, returned as warnings
   * under {@code Warn}, and forgotten under {@code Ignore}.
   */
  List<FieldProblem> normalize(Object object, Served target, FieldValidation validation) {
    List<FieldProblem> pruned = target.store().definition().normalizer().normalize(object);
    if (pruned.isEmpty() || validation == FieldValidation.IGNORE) {
      return List.of();
    }
    if (validation == FieldValidation.STRICT) {
      throw ApiErrors.newBadRequest(new StrictDecodingException(pruned).getMessage());
    }
    return pruned;
  }

  /** The object in the resource's storage version. */
  Object toStorage(Object object, Served target) {
    return target.store().model().convert(object, target.store().storageKind());
  }

  /** The stored object in the request's version (a copy when it differs: it may be shared). */
  Object toServed(Object object, Served target) {
    return target.store().model().copyTo(object, target.kind());
  }

  /** The representation the request's Accept header, {@code pretty} and User-Agent ask for. */
  Negotiation negotiate(ApiRequest request, Served target, boolean list) {
    return negotiate(request, new Endpoint(target.kind(), list));
  }

  /** The representation of a watch's events. */
  Negotiation negotiateWatch(ApiRequest request, Served target) {
    return negotiate(request, new Endpoint(target.kind(), false, true));
  }

  private Negotiation negotiate(ApiRequest request, Endpoint endpoint) {
    return negotiator.negotiate(
        request.header("Accept"),
        endpoint,
        request.parameter("pretty"),
        request.header("User-Agent"));
  }

  /** Renders an object or list in the negotiated representation, or the 406 of none. */
  ApiResponse respond(ApiRequest request, Served target, Object object, int code, boolean list) {
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

  /**
   * What the encoding of an object in a representation depends on besides the object, for {@link
   * ResourceStore#encodedOnce}; {@code null} for a representation whose encoding changes with time
   * (a Table's ages), or when the object is served in another version than it is stored in (a
   * conversion webhook is called for every request, as kube-apiserver calls it), which are made for
   * each request.
   */
  static Object encodingKey(Served target, Representation representation, String includeObject) {
    if (representation.transform() == Representation.Transform.TABLE || converts(target)) {
      return null;
    }
    return List.of(target.kind(), representation, String.valueOf(includeObject));
  }

  /** Whether the resource is served in another version than it is stored in. */
  static boolean converts(Served target) {
    return !target.kind().groupVersion().equals(target.store().storageKind().groupVersion());
  }

  /**
   * Renders one stored object (shared: never changed) in the negotiated representation; its bytes
   * are made once per representation while the watch cache holds the object, and shared by every
   * request and watcher that asks for them.
   *
   * @param request the request
   * @param target what is served
   * @param stored the object as the store returned it
   * @return the response
   */
  ApiResponse respondShared(ApiRequest request, Served target, Object stored) {
    Negotiation negotiation = negotiate(request, target, false);
    if (!negotiation.acceptable()) {
      Response refused = negotiator.notAcceptableResponse(negotiation);
      return ApiResponse.of(refused.status(), refused.contentType(), refused.body());
    }
    Representation representation = negotiation.representation();
    String includeObject = request.parameter("includeObject");
    Object key = encodingKey(target, representation, includeObject);
    java.util.function.Function<Object, Object> encode =
        object ->
            negotiator.respond(representation, toServed(object, target), includeObject).body();
    byte[] body =
        (byte[])
            (key != null ? target.store().encodedOnce(stored, key, encode) : encode.apply(stored));
    return ApiResponse.of(200, representation.contentType().toString(), body);
  }

  /**
   * The size beyond which a list answered from its items' kept encodings is written item by item (a
   * streamed body), rather than as one array: the largest list body {@code Negotiator} keeps.
   */
  static final long STREAMED_LIST_BYTES = 4 << 20;

  /** What a list item's protobuf bytes are kept under with the object (its JSON: the kind). */
  private record ProtobufItem(GroupVersionKind kind) {}

  /**
   * Renders a page of a list. In compact JSON of the version the resource is stored in (what
   * clients ask most), each item's encoding is made once per stored object and kept with the watch
   * cache's copy of it ({@link dev.machinery.apiserver.registry.ResourceStore#encodedOnce}), so a
   * list copies bytes it already has instead of converting and encoding every item for every
   * request; the bytes are those of the list encoded whole. Other representations encode the list
   * whole.
   *
   * @param request the request
   * @param target what is served
   * @param meta the list's metadata
   * @param stored the page's items, as the store returned them (in the storage version, shared)
   * @return the response
   */
  ApiResponse respondList(ApiRequest request, Served target, ListMeta meta, List<Object> stored) {
    Negotiation negotiation = negotiate(request, target, true);
    if (!negotiation.acceptable()) {
      Response refused = negotiator.notAcceptableResponse(negotiation);
      return ApiResponse.of(refused.status(), refused.contentType(), refused.body());
    }
    Representation representation = negotiation.representation();
    GroupVersionKind kind = target.kind();
    if (negotiator.encodesItemsAlone(representation, kind) && !converts(target)) {
      ResourceStore store = target.store();
      // Each item's bytes in the list's format, kept with the object for every list that holds it.
      Object key = representation.format().equals("json") ? kind : new ProtobufItem(kind);
      List<byte[]> items = new ArrayList<>(stored.size());
      for (Object item : stored) {
        items.add(
            (byte[])
                store.encodedOnce(
                    item,
                    key,
                    shared -> negotiator.encodeListItem(representation, toServed(shared, target))));
      }
      long size = 0;
      for (byte[] item : items) {
        size += item.length + 1;
      }
      if (size > STREAMED_LIST_BYTES) {
        // Written item by item from the kept encodings: no array of the whole list is made.
        Optional<EncodedList> list =
            negotiator.encodedList(
                representation, store.model().list(kind, meta, new ArrayList<>()), items);
        if (list.isPresent()) {
          return ApiResponse.streaming(200, list.get().contentType(), list.get()::writeTo);
        }
      }
      Optional<Response> response =
          negotiator.respondWithEncodedItems(
              representation, store.model().list(kind, meta, new ArrayList<>()), items);
      if (response.isPresent()) {
        return ApiResponse.of(200, response.get().contentType(), response.get().body());
      }
    }
    List<Object> items = new ArrayList<>(stored.size());
    for (Object item : stored) {
      items.add(toServed(item, target));
    }
    Response response =
        negotiator.respond(
            representation,
            target.store().model().list(kind, meta, items),
            request.parameter("includeObject"),
            target.store()::encodedOnce);
    return ApiResponse.of(200, response.contentType(), response.body());
  }

  /**
   * The response with what admission told of the write: a {@code Warning} header a warning; and its
   * audit annotations recorded for the request's audit event.
   */
  static ApiResponse admitted(ApiResponse response, RequestContext context, AdmissionNotes notes) {
    audit(context, notes);
    ApiResponse out = response;
    for (String warning : notes.warnings()) {
      out = out.withWarning(warning);
    }
    return out;
  }

  /** Records admission's audit annotations for the request's audit event. */
  static void audit(RequestContext context, AdmissionNotes notes) {
    notes.annotations().forEach(context.audit()::annotate);
    // Kept for the request too, so that a refusal after them is answered with them.
    notes.warnings().forEach(context::addWarning);
  }

  /** The response with one {@code Warning} header a field problem. */
  static ApiResponse withWarnings(ApiResponse response, List<FieldProblem> warnings) {
    ApiResponse out = response;
    for (FieldProblem problem : warnings) {
      out = out.withWarning(problem.toString());
    }
    return out;
  }
}
