package dev.machinery.apiserver.negotiation;

import dev.machinery.MachineryException;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.runtime.TypeAccessor;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.PartialObjectMetadata;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.Table;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.unstructured.UnstructuredList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Chooses a response representation from an Accept header, as the alternate-representations
 * proposal asks, and renders it: the media-type parameters {@code g}, {@code v}, {@code as}, {@code
 * sv}, {@code export} and {@code pretty}; the transforms to {@code Table} (CSV too), {@code
 * PartialObjectMetadata} and {@code Scale}; export; {@code Status} in the {@code sv} version; and
 * aliases such as {@code application/json+vnd.kubernetes.export}. Ranges that are malformed,
 * unknown or unsupported are dropped; when none is left the result is a {@code 406} {@link Status}.
 *
 * <p>Ranks options by RFC 7231: the weight of the most specific range that matches an option
 * ({@code q=0} excludes it), then the more specific range, then header order. Immutable after
 * {@link Builder#build()} and safe to share between threads.
 */
public final class Negotiator {
  private static final MediaType JSON = MediaType.of("application", "json");
  private static final MediaType YAML = MediaType.of("application", "yaml");
  private static final MediaType CSV = MediaType.of("text", "csv");
  private static final MediaType PROTOBUF = MediaType.parse(ProtobufCodec.MEDIA_TYPE);
  private static final String META = MetaV1.META_V1.group();

  private final Scheme scheme;
  private final Codec json;
  private final ListBodies listBodies = new ListBodies();
  private final Codec yaml;
  private final Map<String, MediaType> aliases;
  private final Map<GroupKind, ScaleAccessor<Object>> scales;
  private final ObjectParts parts;
  private final Tables tables;
  private final List<MediaType> served;
  private final String servedList;
  private final ProtobufBodies protobuf;

  private Negotiator(Builder builder) {
    this.scheme = builder.scheme;
    CodecFactory codecs = CodecFactory.create(builder.scheme);
    this.json = codecs.json();
    this.yaml = codecs.yaml();
    this.aliases = Map.copyOf(builder.aliases);
    this.scales = Map.copyOf(builder.scales);
    Map<Class<?>, Function<Object, ObjectMeta>> metadata = new HashMap<>(builder.metadata);
    metadata.putIfAbsent(Unstructured.class, this::unstructuredMetadata);
    this.parts =
        new ObjectParts(
            metadata, Map.of(UnstructuredList.class, ObjectParts::unstructuredListMetadata));
    this.tables = new Tables(builder.tables, builder.moreTables, parts, json, this::kindOf);
    this.protobuf = builder.protobuf;
    List<MediaType> types = new ArrayList<>(builder.served);
    if (protobuf != null) {
      types.add(PROTOBUF);
    }
    this.served = List.copyOf(types);
    this.servedList =
        served.stream()
            .map(type -> type.type() + "/" + type.subtype())
            .collect(java.util.stream.Collectors.joining(", "));
  }

  /**
   * Returns a builder over a scheme in which {@link MetaV1} is registered.
   *
   * @param scheme the scheme
   * @return the builder
   */
  public static Builder builder(Scheme scheme) {
    return new Builder(scheme);
  }

  /**
   * Chooses a representation.
   *
   * @param accept the Accept header, or {@code null} for any
   * @param endpoint the endpoint's kind and whether it lists
   * @return the choice, or a {@code 406} Status
   */
  public Negotiation negotiate(String accept, Endpoint endpoint) {
    return negotiate(accept, endpoint, null, null);
  }

  /**
   * Chooses a representation as kube-apiserver does for a request: the Accept header, and the
   * request's {@code pretty} query parameter and User-Agent, which ask for indented output as
   * {@link #isPrettyPrint} says.
   *
   * @param accept the Accept header, or {@code null} for any
   * @param endpoint the endpoint's kind and whether it lists
   * @param prettyParameter the value of the {@code pretty} query parameter, or {@code null}
   * @param userAgent the User-Agent header, or {@code null}
   * @return the choice, or a {@code 406} Status
   */
  public Negotiation negotiate(
      String accept, Endpoint endpoint, String prettyParameter, String userAgent) {
    Negotiation negotiation = negotiateAccept(accept, endpoint);
    Representation chosen = negotiation.representation();
    if (chosen != null && !chosen.pretty() && isPrettyPrint(prettyParameter, userAgent)) {
      return new Negotiation(
          new Representation(
              chosen.contentType(),
              chosen.format(),
              chosen.transform(),
              chosen.group(),
              chosen.version(),
              true,
              chosen.export(),
              chosen.statusVersion()),
          negotiation.dropped(),
          null);
    }
    return negotiation;
  }

  /**
   * Whether a request asks for indented output, by kube-apiserver's rule: a {@code pretty} query
   * parameter that is present and not empty decides (Go's {@code strconv.ParseBool}: {@code 1},
   * {@code t}, {@code true}, ...; anything else is false); without one, a User-Agent starting with
   * {@code curl}, {@code Wget} or {@code Mozilla/5.0} (command-line tools and browsers) asks for
   * it.
   *
   * @param prettyParameter the value of the {@code pretty} query parameter, or {@code null}
   * @param userAgent the User-Agent header, or {@code null}
   * @return whether to indent
   */
  public static boolean isPrettyPrint(String prettyParameter, String userAgent) {
    if (prettyParameter != null && !prettyParameter.isEmpty()) {
      return List.of("1", "t", "T", "TRUE", "true", "True").contains(prettyParameter);
    }
    return userAgent != null
        && (userAgent.startsWith("curl")
            || userAgent.startsWith("Wget")
            || userAgent.startsWith("Mozilla/5.0"));
  }

  private Negotiation negotiateAccept(String accept, Endpoint endpoint) {
    AcceptHeader header;
    try {
      header = AcceptHeader.parse(accept);
    } catch (MalformedMediaTypeException e) {
      return notAcceptable(List.of(e.getMessage()));
    }
    Reasons dropped = new Reasons();
    header.rejected().forEach(dropped::add);
    dropped.count(header.malformed() - header.rejected().size());
    List<MediaType> ranges = new ArrayList<>();
    for (MediaType range : header.ranges()) {
      ranges.add(expand(range));
    }
    // Each option's deciding range is looked for once: the work stays linear in the ranges.
    Map<MediaType, Optional<MediaType>> deciding = new HashMap<>();
    Representation best = null;
    double bestQuality = -1;
    int bestSpecificity = -1;
    for (MediaType range : ranges) {
      if (range.quality() == 0) {
        continue;
      }
      String reason = null;
      for (MediaType serializer : serializersFor(range)) {
        Representation option;
        try {
          option = option(range, serializer, endpoint);
        } catch (Unservable | IllegalArgumentException | MachineryException unsupported) {
          // A malformed or unknown parameter (v=V_1, g=, as=Bogus) drops this range: 406 at most.
          reason = reason == null ? unsupported.getMessage() : reason;
          continue;
        }
        MediaType match =
            deciding
                .computeIfAbsent(
                    option.contentType(),
                    type -> Optional.ofNullable(mostSpecificMatch(ranges, type)))
                .orElse(null);
        double quality = match == null ? range.quality() : match.quality();
        if (quality == 0) {
          reason = reason == null ? "excluded by " + match + ";q=0" : reason;
          continue;
        }
        reason = null;
        int specificity = range.specificity();
        if (quality > bestQuality || quality == bestQuality && specificity > bestSpecificity) {
          best = option;
          bestQuality = quality;
          bestSpecificity = specificity;
        }
        break;
      }
      if (reason != null) {
        dropped.add(range, reason);
      }
    }
    return best == null
        ? notAcceptable(dropped.list())
        : new Negotiation(best, dropped.list(), null);
  }

  /**
   * Why a range cannot be served. Thrown once per such range, so without a stack trace, which would
   * cost more than the rest of the negotiation.
   */
  private static final class Unservable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unservable(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The reasons ranges were dropped: the first {@link Negotiation#MAX_REASONS} as given, the rest
   * counted.
   */
  private static final class Reasons {
    private final List<String> kept = new ArrayList<>();
    private int more;

    void add(String reason) {
      if (kept.size() < Negotiation.MAX_REASONS) {
        kept.add(reason);
      } else {
        more++;
      }
    }

    void add(MediaType range, String reason) {
      if (kept.size() < Negotiation.MAX_REASONS) {
        kept.add(range + ": " + reason);
      } else {
        more++;
      }
    }

    void count(int unnamed) {
      more += unnamed;
    }

    List<String> list() {
      if (more == 0) {
        return kept;
      }
      List<String> all = new ArrayList<>(kept);
      all.add("and " + more + " more ranges dropped");
      return all;
    }
  }

  private MediaType expand(MediaType range) {
    MediaType alias = aliases.get(range.type() + "/" + range.subtype());
    if (alias == null) {
      return range;
    }
    Map<String, String> parameters = new LinkedHashMap<>(alias.parameters());
    parameters.putAll(range.parameters());
    return new MediaType(alias.type(), alias.subtype(), parameters, range.quality());
  }

  private static MediaType mostSpecificMatch(List<MediaType> ranges, MediaType option) {
    MediaType best = null;
    for (MediaType range : ranges) {
      MediaType withoutFormatting = range;
      if (range.parameters().containsKey("pretty")) {
        Map<String, String> rest = new LinkedHashMap<>(range.parameters());
        rest.remove("pretty");
        withoutFormatting = new MediaType(range.type(), range.subtype(), rest, range.quality());
      }
      if (withoutFormatting.matches(option)
          && (best == null || withoutFormatting.specificity() > best.specificity())) {
        best = withoutFormatting;
      }
    }
    return best;
  }

  /** The serializers a range's type and subtype admit, in the server's order. */
  private List<MediaType> serializersFor(MediaType range) {
    MediaType bare = new MediaType(range.type(), range.subtype(), Map.of(), 1);
    List<MediaType> matching = new ArrayList<>();
    for (MediaType serializer : served) {
      if (bare.matches(serializer)) {
        matching.add(serializer);
      }
    }
    if (matching.isEmpty()) {
      matching.add(bare);
    }
    return matching;
  }

  /** The representation one range asks for with one serializer, or why not. */
  private Representation option(MediaType range, MediaType serializer, Endpoint endpoint) {
    String format = null;
    if (served.contains(serializer)) {
      format =
          serializer.equals(JSON)
              ? "json"
              : serializer.equals(YAML) ? "yaml" : serializer.equals(PROTOBUF) ? "protobuf" : "csv";
    }
    if (format == null) {
      throw new Unservable("not a media type this server writes (" + servedList() + ")");
    }
    for (String name : range.parameters().keySet()) {
      if (!List.of("g", "v", "as", "sv", "export", "pretty", "charset", "stream").contains(name)) {
        throw new Unservable("unknown parameter \"" + name + "\"");
      }
    }
    String stream = range.parameter("stream");
    if (stream != null && (!stream.equals("watch") || !endpoint.watch())) {
      throw new Unservable(
          "stream=" + stream + " is not served here; only watches are served as stream=watch");
    }
    String charset = range.parameter("charset");
    if (charset != null && !charset.equalsIgnoreCase("utf-8")) {
      throw new Unservable("charset \"" + charset + "\" is not served; only utf-8");
    }
    boolean pretty = flag(range, "pretty", false);
    boolean export = flag(range, "export", false);
    String statusVersion = range.parameter("sv");
    if (statusVersion != null && !statusVersion.equals(MetaV1.META_V1.version())) {
      throw new Unservable("sv=" + statusVersion + " is not served; meta.k8s.io serves v1");
    }
    String as = range.parameter("as");
    String group = range.parameter("g");
    String version = range.parameter("v");
    GroupVersionKind kind = endpoint.kind();
    Representation.Transform transform;
    if (format.equals("protobuf")) {
      requireProtobuf(range, endpoint);
    }
    if (as == null) {
      if (format.equals("csv")) {
        throw new Unservable("text/csv is a table: ask for it with as=Table");
      }
      transform = Representation.Transform.NONE;
      group = group == null ? kind.group() : group;
      version = version == null ? kind.version() : version;
      if (!group.equals(kind.group())) {
        throw new Unservable(
            "g=" + group + " without as: the endpoint serves group \"" + kind.group() + "\"");
      }
      if (!version.equals(kind.version())
          && !scheme.recognizes(GroupVersion.of(group, version).withKind(kind.kind()))) {
        throw new Unservable(kind.kind() + " is not served in " + GroupVersion.of(group, version));
      }
    } else {
      group = group == null ? kind.group() : group;
      version = version == null ? kind.version() : version;
      String wanted = as.equals("TabularOutput") ? "Table" : as;
      switch (wanted) {
        case "Table":
          transform = Representation.Transform.TABLE;
          requireMeta(group, version, "Table");
          break;
        case "PartialObjectMetadata":
        case "PartialObjectMetadataList":
          transform = Representation.Transform.PARTIAL_OBJECT_METADATA;
          requireMeta(group, version, wanted);
          break;
        case "Scale":
          transform = Representation.Transform.SCALE;
          if (!(group.equals(META) || group.equals("autoscaling")) || !version.equals("v1")) {
            throw new Unservable(
                "as=Scale is served in meta.k8s.io/v1 and autoscaling/v1, not "
                    + group
                    + "/"
                    + version);
          }
          if (!scales.containsKey(kind.groupKind()) || endpoint.list()) {
            throw new Unservable(kind.groupKind() + " has no scale subresource here");
          }
          break;
        default:
          throw new Unservable("as=" + as + " is not a transform this server knows");
      }
      if (format.equals("csv") && transform != Representation.Transform.TABLE) {
        throw new Unservable("text/csv holds tables only");
      }
    }
    MediaType contentType = serializer;
    if (transform != Representation.Transform.NONE) {
      contentType =
          contentType
              .withParameter(
                  "as",
                  range.parameter("as").equals("TabularOutput") ? "Table" : range.parameter("as"))
              .withParameter("g", group)
              .withParameter("v", version);
    } else if (range.parameter("g") != null || range.parameter("v") != null) {
      contentType = contentType.withParameter("g", group).withParameter("v", version);
    }
    if (export) {
      contentType = contentType.withParameter("export", "1");
    }
    if (statusVersion != null) {
      contentType = contentType.withParameter("sv", statusVersion);
    }
    return new Representation(
        contentType, format, transform, group, version, pretty, export, statusVersion);
  }

  /**
   * Protobuf is written for the objects themselves (no {@code as=} transform), in the endpoint's
   * own version, of kinds that declare their field numbers.
   */
  private void requireProtobuf(MediaType range, Endpoint endpoint) {
    if (range.parameter("as") != null) {
      throw new Unservable(
          "as=" + range.parameter("as") + " is not served in " + ProtobufCodec.MEDIA_TYPE);
    }
    if (range.parameter("export") != null) {
      throw new Unservable("export is not served in " + ProtobufCodec.MEDIA_TYPE);
    }
    Class<?> type = scheme.typeFor(endpoint.kind()).orElse(null);
    if (!protobuf.canEncode(endpoint.kind(), type)) {
      throw new Unservable(
          endpoint.kind().kind()
              + " has no protobuf encoding here (no field numbers declared, and no message in"
              + " Kubernetes' protobuf files)");
    }
  }

  private String servedList() {
    return servedList;
  }

  private static void requireMeta(String group, String version, String kind) {
    if (!group.equals(META) || !version.equals(MetaV1.META_V1.version())) {
      throw new Unservable(
          "as=" + kind + " is served in meta.k8s.io/v1, not " + group + "/" + version);
    }
  }

  private static boolean flag(MediaType range, String name, boolean otherwise) {
    String value = range.parameter(name);
    if (value == null) {
      return otherwise;
    }
    if (value.equals("1")) {
      return true;
    }
    if (value.equals("0")) {
      return false;
    }
    throw new Unservable(name + "=" + value + " must be 1 or 0");
  }

  private Negotiation notAcceptable(List<String> dropped) {
    Status status =
        ApiErrors.newNotAcceptable(
                "only the following media types are accepted: "
                    + servedList()
                    + " (with g, v, as=Table, PartialObjectMetadata or Scale, sv, export and"
                    + " pretty)")
            .status();
    return new Negotiation(null, dropped, status);
  }

  /**
   * Renders the {@code 406} answer of a failed negotiation as JSON.
   *
   * @param negotiation the failed negotiation
   * @return the response
   */
  public Response notAcceptableResponse(Negotiation negotiation) {
    return new Response(406, JSON.toString(), json.encode(negotiation.status()));
  }

  /**
   * Renders an object (or a list) in the chosen representation.
   *
   * @param representation the choice
   * @param object the object or list the endpoint serves
   * @param includeObject for tables: {@code None}, {@code Metadata} (the default) or {@code Object}
   * @return the response, status 200
   * @throws IllegalArgumentException if {@code includeObject} is none of the three
   */
  public Response respond(Representation representation, Object object, String includeObject) {
    return respond(representation, object, includeObject, ItemMemo.NONE);
  }

  /**
   * Renders an object (or a list) in the chosen representation, remembering what it computes from
   * each item that does not depend on the request (a table row's metadata) in a memo.
   *
   * @param representation the choice
   * @param object the object or list the endpoint serves
   * @param includeObject for tables: {@code None}, {@code Metadata} (the default) or {@code Object}
   * @param memo where values computed from items are remembered
   * @return the response, status 200
   * @throws IllegalArgumentException if {@code includeObject} is none of the three
   */
  public Response respond(
      Representation representation, Object object, String includeObject, ItemMemo memo) {
    Objects.requireNonNull(representation, "representation");
    Objects.requireNonNull(memo, "memo");
    Objects.requireNonNull(object, "object");
    String include = includeObject == null ? "Metadata" : includeObject;
    if (!List.of("None", "Metadata", "Object").contains(include)) {
      throw new IllegalArgumentException(
          "includeObject=" + includeObject + " must be None, Metadata or Object");
    }
    Codec codec = representation.format().equals("yaml") ? yaml : json;
    if (representation.pretty()) {
      codec = codec.pretty();
    }
    Object result;
    switch (representation.transform()) {
      case TABLE:
        Table table =
            tables.table(
                object,
                include,
                memo,
                representation.format().equals("json") && !representation.pretty());
        if (representation.format().equals("csv")) {
          return new Response(200, representation.contentType().toString(), Tables.csv(table));
        }
        result = table;
        break;
      case PARTIAL_OBJECT_METADATA:
        result = parts.partial(object);
        break;
      case SCALE:
        Scale scale = scales.get(kindOf(object).groupKind()).read(object);
        scale.setApiVersion(representation.group() + "/" + representation.version());
        scale.setKind("Scale");
        result = scale;
        break;
      default:
        result = object;
        if (object instanceof Status && representation.statusVersion() != null) {
          result = copyStatus((Status) object, META + "/" + representation.statusVersion());
        } else if (!(object instanceof Status)) {
          GroupVersionKind kind = kindOf(object);
          if (!kind.version().equals(representation.version())) {
            result =
                scheme.convertToVersion(
                    object,
                    GroupVersioner.of(
                        GroupVersion.of(representation.group(), representation.version())));
          }
          if (representation.export()) {
            result = export(result);
          }
        }
    }
    if (representation.format().equals("protobuf")) {
      return new Response(200, representation.contentType().toString(), protobuf.encode(result));
    }
    return new Response(200, representation.contentType().toString(), codec.encode(result));
  }

  /**
   * Whether a list of a kind, in a representation, holds its items as {@link
   * #encodeListItem(Representation, Object)} encodes them, so that {@link #respondWithEncodedItems}
   * can answer it: compact JSON of the kind's own group and version, not transformed, not exported;
   * or protobuf of a kind written by Kubernetes' messages, whose list message ends with its items
   * ({@link ProtobufBodies#encodesListItems}).
   *
   * @param representation the negotiated representation
   * @param itemKind the kind of the list's items, in the version they are served in
   * @return whether the list can be answered from its items' encodings
   */
  public boolean encodesItemsAlone(Representation representation, GroupVersionKind itemKind) {
    boolean plain =
        !representation.pretty()
            && !representation.export()
            && representation.transform() == Representation.Transform.NONE
            && representation.group().equals(itemKind.group())
            && representation.version().equals(itemKind.version());
    if (!plain) {
      return false;
    }
    return switch (representation.format()) {
      case "json" -> true;
      case "protobuf" ->
          protobuf != null
              && protobuf.encodesListItems(itemKind, scheme.typeFor(itemKind).orElse(null));
      default -> false;
    };
  }

  /**
   * Encodes an item of a list as the list's JSON holds it (see {@link Codec#encodeItem}), so that
   * it can be encoded once and written into many lists.
   *
   * @param item the item, in the version it is served in
   * @return its compact JSON
   */
  public byte[] encodeListItem(Object item) {
    return json.encodeItem(item);
  }

  /**
   * Encodes an item of a list as the list holds it in a representation where {@link
   * #encodesItemsAlone} holds: compact JSON ({@link #encodeListItem(Object)}), or in protobuf the
   * list's item message ({@link ProtobufBodies#encodeListItem}).
   *
   * @param representation the negotiated representation
   * @param item the item, in the version it is served in
   * @return its bytes
   */
  public byte[] encodeListItem(Representation representation, Object item) {
    return representation.format().equals("protobuf")
        ? protobuf.encodeListItem(item)
        : json.encodeItem(item);
  }

  /**
   * Renders a list whose items are already encoded ({@link #encodeListItem(Representation,
   * Object)}): the list without items encoded as {@link #respond} encodes it, the items' bytes
   * written into its {@code items} in order (in protobuf, each as the list message's {@code items}
   * field). The bytes are those {@link #respond} gives for the list with its items, for a
   * representation where {@link #encodesItemsAlone} holds. A list answered again with the same head
   * and the very same item encodings (nothing in it changed) is answered with the body written the
   * first time, kept for it (lists up to 4 MiB, 32 MiB in all).
   *
   * @param representation the negotiated representation
   * @param emptyList the list, without items
   * @param items each item's encoding
   * @return the response, status 200; empty when the list's encoding does not end with an empty
   *     {@code items} array (a list shaped otherwise), and the list is to be rendered whole
   */
  public Optional<Response> respondWithEncodedItems(
      Representation representation, Object emptyList, List<byte[]> items) {
    if (representation.format().equals("protobuf")) {
      return Optional.of(protobufList(representation, emptyList, items));
    }
    Response shell = respond(representation, emptyList, null);
    byte[] body = shell.body();
    if (!endsWith(body, EMPTY_ITEMS)) {
      return Optional.empty();
    }
    int head = body.length - 2;
    byte[] kept = listBodies.find(shell.contentType(), body, items);
    if (kept != null) {
      return Optional.of(new Response(shell.status(), shell.contentType(), kept));
    }
    long size = head + 2L + Math.max(0, items.size() - 1);
    for (byte[] item : items) {
      size += item.length;
    }
    if (size > Integer.MAX_VALUE - 16) {
      return Optional.empty();
    }
    byte[] out = new byte[(int) size];
    System.arraycopy(body, 0, out, 0, head);
    int at = head;
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        out[at++] = ',';
      }
      byte[] item = items.get(i);
      System.arraycopy(item, 0, out, at, item.length);
      at += item.length;
    }
    out[at++] = ']';
    out[at] = '}';
    listBodies.keep(shell.contentType(), body, items, out);
    return Optional.of(new Response(shell.status(), shell.contentType(), out));
  }

  /**
   * A list whose items are already encoded ({@link #encodeListItem}), to be written item by item
   * rather than spliced into one array: the same bytes as {@link #respondWithEncodedItems}, for a
   * representation where {@link #encodesItemsAlone} holds.
   *
   * @param representation the negotiated representation
   * @param emptyList the list, without items
   * @param items each item's encoding
   * @return the list; empty when the list's encoding does not end with an empty {@code items} array
   *     (a list shaped otherwise), and the list is to be rendered whole
   */
  public Optional<EncodedList> encodedList(
      Representation representation, Object emptyList, List<byte[]> items) {
    if (representation.format().equals("protobuf")) {
      return Optional.of(
          EncodedList.protobuf(
              representation.contentType().toString(), protobuf.listOf(emptyList, items)));
    }
    Response shell = respond(representation, emptyList, null);
    if (shell.status() != 200 || !endsWith(shell.body(), EMPTY_ITEMS)) {
      return Optional.empty();
    }
    return Optional.of(EncodedList.json(shell.contentType(), shell.body(), items));
  }

  /**
   * A protobuf list joined from its items' message bytes; a list answered again with the same head
   * (the list without items, in its envelope) and the very same item bytes reuses its body.
   */
  private Response protobufList(
      Representation representation, Object emptyList, List<byte[]> items) {
    String contentType = representation.contentType().toString();
    byte[] head = protobuf.encode(emptyList);
    byte[] kept = listBodies.find(contentType, head, items);
    if (kept != null) {
      return new Response(200, contentType, kept);
    }
    byte[] body = protobuf.encodeList(emptyList, items);
    listBodies.keep(contentType, head, items, body);
    return new Response(200, contentType, body);
  }

  private static final byte[] EMPTY_ITEMS =
      "\"items\":[]}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  private static boolean endsWith(byte[] body, byte[] suffix) {
    if (body.length < suffix.length) {
      return false;
    }
    return Arrays.equals(body, body.length - suffix.length, body.length, suffix, 0, suffix.length);
  }

  /**
   * The object's kind: the Scheme's, or for an object of a kind the Scheme does not register (a
   * custom resource, held as an {@link Unstructured}, or a list of them) the kind it names.
   */
  private GroupVersionKind kindOf(Object object) {
    if (scheme.kindsFor(object.getClass()).isEmpty()) {
      return named(object);
    }
    if (object instanceof ApiObject) {
      GroupVersionKind named = named(object);
      if (!named.kind().isEmpty() && !scheme.recognizes(named)) {
        return named;
      }
    }
    return scheme.kindFor(object);
  }

  /** An unstructured object's metadata, read as the codecs read a PartialObjectMetadata's. */
  private ObjectMeta unstructuredMetadata(Object object) {
    Unstructured partial = new Unstructured();
    partial.setApiVersion(MetaV1.META_V1.toString());
    partial.setKind("PartialObjectMetadata");
    Object metadata = ((Unstructured) object).content().get("metadata");
    if (metadata != null) {
      partial.setField("metadata", metadata);
    }
    return json.withFieldValidation(FieldValidation.IGNORE)
        .decode(json.encode(partial), PartialObjectMetadata.class)
        .object()
        .getMetadata();
  }

  private static GroupVersionKind named(Object object) {
    TypeAccessor accessor = TypeAccessor.of(object.getClass());
    String apiVersion = accessor.apiVersion(object);
    String kind = accessor.kind(object);
    return GroupVersionKind.fromApiVersionAndKind(
        apiVersion == null ? "" : apiVersion, kind == null ? "" : kind);
  }

  private static Status copyStatus(Status status, String apiVersion) {
    Status copy = new Status();
    copy.setApiVersion(apiVersion);
    copy.setKind("Status");
    copy.setMetadata(status.getMetadata());
    copy.setStatus(status.getStatus());
    copy.setMessage(status.getMessage());
    copy.setReason(status.getReason());
    copy.setDetails(status.getDetails());
    copy.setCode(status.getCode());
    return copy;
  }

  /** Export: the object as the user wrote it, without the fields the server sets. */
  private Object export(Object object) {
    Unstructured copy = json.decode(json.encode(object), Unstructured.class).object();
    for (String field :
        List.of(
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "selfLink",
            "managedFields",
            "ownerReferences")) {
      copy.removeNested("metadata", field);
    }
    copy.removeNested("status");
    return copy;
  }

  /** Collects aliases, table columns, scale accessors and metadata accessors. Not thread-safe. */
  public static final class Builder {
    private ProtobufBodies protobuf;

    private final Scheme scheme;
    private final Map<String, MediaType> aliases = new LinkedHashMap<>();
    private final Map<GroupKind, TableConvertor> tables = new LinkedHashMap<>();
    private Function<GroupKind, TableConvertor> moreTables = kind -> null;
    private final Map<GroupKind, ScaleAccessor<Object>> scales = new LinkedHashMap<>();
    private final Map<Class<?>, Function<Object, ObjectMeta>> metadata = new LinkedHashMap<>();
    private List<MediaType> served = List.of(JSON, YAML, CSV);

    private Builder(Scheme scheme) {
      this.scheme = Objects.requireNonNull(scheme, "scheme");
      addAlias("application/json+vnd.kubernetes.export", "application/json;export=1");
      addAlias(
          "application/json+vnd.kubernetes.as+meta.k8s.io+v1+TabularOutput",
          "application/json;as=Table;g=meta.k8s.io;v=v1");
      addAlias("text/csv", "text/csv;as=Table;g=meta.k8s.io;v=v1");
    }

    /**
     * Registers a media-type alias: a range naming {@code alias} stands for {@code expansion} (its
     * own parameters added).
     *
     * @param alias the alias, {@code type/subtype}
     * @param expansion the media type it stands for, with parameters
     * @return this builder
     */
    public Builder addAlias(String alias, String expansion) {
      MediaType parsed = MediaType.parse(alias);
      aliases.put(
          (parsed.type() + "/" + parsed.subtype()).toLowerCase(Locale.ROOT),
          MediaType.parse(expansion));
      return this;
    }

    /**
     * Registers the table columns of a kind.
     *
     * @param kind the group kind
     * @param convertor its columns and cells
     * @return this builder
     */
    public Builder addTableConvertor(GroupKind kind, TableConvertor convertor) {
      tables.put(
          Objects.requireNonNull(kind, "kind"), Objects.requireNonNull(convertor, "convertor"));
      return this;
    }

    /**
     * Sets where the table columns of kinds registered by no {@link #addTableConvertor} are looked
     * up when a table is made, for kinds that come and go while the negotiator serves (custom
     * resources). The function must be safe to call from any thread.
     *
     * @param lookup the columns of a kind, or {@code null} for the default (name and age)
     * @return this builder
     */
    public Builder tableConvertors(Function<GroupKind, TableConvertor> lookup) {
      this.moreTables = Objects.requireNonNull(lookup, "lookup");
      return this;
    }

    /**
     * Declares a kind's scale subresource.
     *
     * @param kind the group kind
     * @param type the kind's class
     * @param accessor reads and writes its scale
     * @param <T> the kind's class
     * @return this builder
     */
    @SuppressWarnings("unchecked")
    public <T> Builder addScale(GroupKind kind, Class<T> type, ScaleAccessor<? super T> accessor) {
      Objects.requireNonNull(type, "type");
      scales.put(Objects.requireNonNull(kind, "kind"), (ScaleAccessor<Object>) accessor);
      return this;
    }

    /**
     * Registers how to read a class's {@link ObjectMeta}, for classes whose {@code getMetadata()}
     * returns another type.
     *
     * @param type the class
     * @param accessor returns its metadata
     * @param <T> the class
     * @return this builder
     */
    @SuppressWarnings("unchecked")
    public <T> Builder addMetadataAccessor(
        Class<T> type, Function<? super T, ObjectMeta> accessor) {
      metadata.put(Objects.requireNonNull(type, "type"), (Function<Object, ObjectMeta>) accessor);
      return this;
    }

    /**
     * Sets the media types the server writes, in its order of preference (the first answers {@code
     * *}{@code /*} and an absent Accept header): any of {@code application/json}, {@code
     * application/yaml} and {@code text/csv}. By default all three, in that order.
     *
     * @param mediaTypes the media types, at least one
     * @return this builder
     * @throws IllegalArgumentException if one is not among those, or none is given
     */
    public Builder serving(String... mediaTypes) {
      List<MediaType> chosen = new ArrayList<>();
      for (String mediaType : mediaTypes) {
        MediaType parsed = MediaType.parse(mediaType);
        MediaType bare = MediaType.of(parsed.type(), parsed.subtype());
        if (!List.of(JSON, YAML, CSV).contains(bare)) {
          throw new IllegalArgumentException(
              "cannot serve \""
                  + mediaType
                  + "\"; a negotiator writes application/json, application/yaml and text/csv");
        }
        chosen.add(bare);
      }
      if (chosen.isEmpty()) {
        throw new IllegalArgumentException("a negotiator must serve at least one media type");
      }
      this.served = List.copyOf(chosen);
      return this;
    }

    /**
     * Offers Kubernetes' protobuf encoding ({@code application/vnd.kubernetes.protobuf}) after the
     * media types of {@link #serving}, for kinds that declare their field numbers or have a message
     * in Kubernetes' protobuf files, and without {@code as=} transforms: ranked with the others by
     * the client's qualities, as kube-apiserver ranks its serializers, so that a client listing
     * protobuf first (kubectl 1.32 and later, client-go for built-in kinds) gets it and {@code
     * *}{@code /*} still gets JSON.
     *
     * @param bodies the protobuf codecs
     * @return this builder
     */
    public Builder protobuf(ProtobufBodies bodies) {
      this.protobuf = Objects.requireNonNull(bodies, "bodies");
      return this;
    }

    /**
     * Builds the negotiator.
     *
     * @return the negotiator
     */
    public Negotiator build() {
      return new Negotiator(this);
    }
  }
}
