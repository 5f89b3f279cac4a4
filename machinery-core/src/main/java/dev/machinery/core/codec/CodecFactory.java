package dev.machinery.core.codec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.ErrorReportConfiguration;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.runtime.TypeAccessor;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Builds the JSON and YAML {@link Codec}s of a {@link Scheme}, over one Jackson configuration owned
 * by the library.
 *
 * <p>The configuration is the library's alone: it never reads or changes the caller's {@code
 * ObjectMapper}s or JVM-wide Jackson defaults, never enables polymorphic default typing, matches
 * field names case-sensitively, refuses to coerce between strings, numbers and booleans (but for
 * YAML plain scalars bound to string fields, which stay as written), rejects non-finite numbers,
 * and enforces the {@link CodecLimits} on its own factories. A factory is expensive to create and
 * cheap to keep: create one per scheme and share it. Immutable and safe for concurrent use.
 */
public final class CodecFactory {
  private final Scheme scheme;
  private final CodecLimits limits;
  final JsonFactory jsonFactory;
  final JsonFactory duplicateFindingJsonFactory;
  final ObjectMapper jsonMapper;
  final ObjectMapper yamlMapper;
  final DefaultPrettyPrinter prettyPrinter;
  private final ConcurrentMap<Class<?>, ObjectReader> jsonReaders = new ConcurrentHashMap<>();
  private final ConcurrentMap<Class<?>, ObjectReader> yamlReaders = new ConcurrentHashMap<>();
  private final ConcurrentMap<Class<?>, ObjectWriter> jsonWriters = new ConcurrentHashMap<>();
  private final ConcurrentMap<Class<?>, ObjectWriter> yamlWriters = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, ConcurrentMap<String, Resolved>> resolved =
      new ConcurrentHashMap<>();
  private final Codec json;
  private final Codec yaml;

  /** A document's identity, resolved against the scheme. */
  static final class Resolved {
    final GroupVersionKind kind;
    final Class<?> type;
    final TypeAccessor accessor;

    Resolved(GroupVersionKind kind, Class<?> type) {
      this.kind = kind;
      this.type = type;
      this.accessor = TypeAccessor.of(type);
    }
  }

  private CodecFactory(Scheme scheme, CodecLimits limits) {
    this.scheme = Objects.requireNonNull(scheme, "scheme");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.jsonFactory = jsonFactory(limits).build();
    this.duplicateFindingJsonFactory = new DuplicateFieldParser.Factory(jsonFactory(limits));
    this.jsonMapper = configure(JsonMapper.builder(jsonFactory), false, scheme);
    YAMLFactory yamlFactory =
        YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .stringQuotingChecker(new YamlQuoting())
            .build();
    this.yamlMapper = configure(YAMLMapper.builder(yamlFactory), true, scheme);
    DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
    this.prettyPrinter =
        new DefaultPrettyPrinter(
                Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""))
            .withObjectIndenter(indenter);
    this.prettyPrinter.indentArraysWith(indenter);
    this.json = new Codec(this, Codec.Format.JSON, FieldValidation.STRICT, false, false);
    this.yaml = new Codec(this, Codec.Format.YAML, FieldValidation.STRICT, false, false);
  }

  /**
   * Creates a factory with the {@link CodecLimits#DEFAULTS default limits}.
   *
   * @param scheme the types to decode and encode
   * @return the factory
   */
  public static CodecFactory create(Scheme scheme) {
    return new CodecFactory(scheme, CodecLimits.DEFAULTS);
  }

  /**
   * Creates a factory with the given limits.
   *
   * @param scheme the types to decode and encode
   * @param limits the limits on decoded input
   * @return the factory
   */
  public static CodecFactory create(Scheme scheme, CodecLimits limits) {
    return new CodecFactory(scheme, limits);
  }

  /**
   * Returns the JSON codec: {@link FieldValidation#STRICT}, compact output, no defaulting.
   *
   * @return the codec
   */
  public Codec json() {
    return json;
  }

  /**
   * Returns the YAML codec: {@link FieldValidation#STRICT}, no defaulting.
   *
   * @return the codec
   */
  public Codec yaml() {
    return yaml;
  }

  /**
   * Returns the scheme the codecs serve.
   *
   * @return the scheme
   */
  public Scheme scheme() {
    return scheme;
  }

  /**
   * Returns the limits on decoded input.
   *
   * @return the limits
   */
  public CodecLimits limits() {
    return limits;
  }

  /**
   * Returns the registered kind and type a document's {@code apiVersion} and {@code kind} name,
   * from a cache that holds registered kinds only (so it is bounded by the scheme), or null when
   * the strings must be parsed and checked the slow way.
   */
  Resolved cached(String apiVersion, String kind) {
    ConcurrentMap<String, Resolved> kinds = resolved.get(apiVersion);
    return kinds == null ? null : kinds.get(kind);
  }

  Resolved cache(String apiVersion, String kind, GroupVersionKind gvk, Class<?> type) {
    Resolved entry = new Resolved(gvk, type);
    Resolved earlier =
        resolved
            .computeIfAbsent(apiVersion, v -> new ConcurrentHashMap<>())
            .putIfAbsent(kind, entry);
    return earlier == null ? entry : earlier;
  }

  ObjectReader reader(Codec.Format format, Class<?> type) {
    return format == Codec.Format.JSON
        ? jsonReaders.computeIfAbsent(type, jsonMapper::readerFor)
        : yamlReaders.computeIfAbsent(type, yamlMapper::readerFor);
  }

  ObjectWriter writer(Codec.Format format, Class<?> type) {
    return format == Codec.Format.JSON
        ? jsonWriters.computeIfAbsent(type, jsonMapper::writerFor)
        : yamlWriters.computeIfAbsent(type, yamlMapper::writerFor);
  }

  private static JsonFactoryBuilder jsonFactory(CodecLimits limits) {
    JsonFactoryBuilder builder = new JsonFactoryBuilder();
    builder
        .streamReadConstraints(
            StreamReadConstraints.builder()
                .maxDocumentLength(limits.maxJsonBytes())
                .maxNestingDepth(limits.maxNestingDepth())
                .maxStringLength(limits.maxStringLength())
                .maxNumberLength(limits.maxNumberLength())
                .maxNameLength(limits.maxNameLength())
                .maxTokenCount(limits.maxTokenCount())
                .build())
        .errorReportConfiguration(
            ErrorReportConfiguration.builder()
                .maxErrorTokenLength(32)
                .maxRawContentLength(0)
                .build())
        .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
        .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION);
    return builder;
  }

  private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> M configure(
      B builder, boolean yaml, Scheme scheme) {
    CoercionAction scalarToString = yaml ? CoercionAction.TryConvert : CoercionAction.Fail;
    return builder
        .addModule(new MachineryModule(scheme))
        .defaultPropertyInclusion(
            JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.ALWAYS))
        .disable(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
        .disable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
        .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
        .withCoercionConfig(
            LogicalType.Integer,
            c ->
                c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
        .withCoercionConfig(
            LogicalType.Float,
            c ->
                c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
        .withCoercionConfig(
            LogicalType.Boolean,
            c ->
                c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail))
        .withCoercionConfig(
            LogicalType.Textual,
            c ->
                c.setCoercion(CoercionInputShape.Integer, scalarToString)
                    .setCoercion(CoercionInputShape.Float, scalarToString)
                    .setCoercion(CoercionInputShape.Boolean, scalarToString))
        .build();
  }
}
