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
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.core.codec.yaml.YamlQuoting;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.runtime.TypeAccessor;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.ArrayList;
import java.util.List;
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

  private CodecFactory(Scheme scheme, CodecLimits limits, List<Module> modules) {
    this.scheme = Objects.requireNonNull(scheme, "scheme");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.jsonFactory = ObjectJson.factory(jsonFactory(limits));
    this.duplicateFindingJsonFactory = new DuplicateFieldParser.Factory(jsonFactory(limits));
    StreamReadConstraints jsonConstraints = jsonFactory.streamReadConstraints();
    this.jsonMapper = configure(JsonMapper.builder(jsonFactory), false, scheme, modules);
    YAMLFactory yamlFactory =
        YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .stringQuotingChecker(new YamlQuoting())
            .build();
    StreamReadConstraints yamlConstraints = yamlFactory.streamReadConstraints();
    this.yamlMapper = configure(YAMLMapper.builder(yamlFactory), true, scheme, modules);
    checkSafety(jsonMapper, jsonConstraints);
    checkSafety(yamlMapper, yamlConstraints);
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
    return new CodecFactory(scheme, CodecLimits.DEFAULTS, List.of());
  }

  /**
   * Creates a factory with the given limits.
   *
   * @param scheme the types to decode and encode
   * @param limits the limits on decoded input
   * @return the factory
   */
  public static CodecFactory create(Scheme scheme, CodecLimits limits) {
    return new CodecFactory(scheme, limits, List.of());
  }

  /**
   * Returns a builder for a factory with Jackson modules, serializers or deserializers of the
   * caller's own value types.
   *
   * @param scheme the types to decode and encode
   * @return the builder
   */
  public static Builder builder(Scheme scheme) {
    return new Builder(scheme);
  }

  /**
   * Collects what a factory adds to the library's Jackson configuration: modules and the
   * serializers and deserializers of a caller's value types. They extend the configuration and
   * cannot weaken it: the library's strictness, null rules, finite numbers, time formats and
   * unknown-field handling are applied after every added module, polymorphic default typing stays
   * off, and {@link #build()} refuses a module that changed the read limits.
   *
   * <p>Not thread-safe: confine a builder to one thread.
   */
  public static final class Builder {
    private final Scheme scheme;
    private CodecLimits limits = CodecLimits.DEFAULTS;
    private final List<Module> modules = new ArrayList<>();
    private final SimpleModule values = new SimpleModule("machinery-value-types");
    private boolean hasValues;

    private Builder(Scheme scheme) {
      this.scheme = Objects.requireNonNull(scheme, "scheme");
    }

    /**
     * Sets the limits on decoded input; the default is {@link CodecLimits#DEFAULTS}.
     *
     * @param limits the limits
     * @return this builder
     */
    public Builder limits(CodecLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * Adds a Jackson module (for example one that reads and writes a third-party value type).
     *
     * @param module the module
     * @return this builder
     */
    public Builder addModule(Module module) {
      modules.add(Objects.requireNonNull(module, "module"));
      return this;
    }

    /**
     * Adds the serializer of a value type.
     *
     * @param type the type
     * @param serializer writes its values
     * @param <T> the type
     * @return this builder
     */
    public <T> Builder addSerializer(Class<? extends T> type, JsonSerializer<T> serializer) {
      values.addSerializer(
          Objects.requireNonNull(type, "type"), Objects.requireNonNull(serializer, "serializer"));
      hasValues = true;
      return this;
    }

    /**
     * Adds the deserializer of a value type.
     *
     * @param type the type
     * @param deserializer reads its values
     * @param <T> the type
     * @return this builder
     */
    public <T> Builder addDeserializer(Class<T> type, JsonDeserializer<? extends T> deserializer) {
      values.addDeserializer(
          Objects.requireNonNull(type, "type"),
          Objects.requireNonNull(deserializer, "deserializer"));
      hasValues = true;
      return this;
    }

    /**
     * Builds the immutable factory.
     *
     * @return the factory
     * @throws IllegalArgumentException when an added module changed the read limits
     */
    public CodecFactory build() {
      List<Module> all = new ArrayList<>(modules);
      if (hasValues) {
        all.add(values);
      }
      return new CodecFactory(scheme, limits, List.copyOf(all));
    }
  }

  /** A module may reach the mapper while it is set up; what it must not change is checked here. */
  private static void checkSafety(ObjectMapper mapper, StreamReadConstraints expected) {
    if (mapper.getFactory().streamReadConstraints() != expected) {
      throw new IllegalArgumentException(
          "a module added to the codec factory changed the read limits; set limits through"
              + " CodecFactory.Builder.limits instead");
    }
    if (mapper.getDeserializationConfig().getDefaultTyper(mapper.constructType(Object.class))
        != null) {
      throw new IllegalStateException("polymorphic default typing must stay off");
    }
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

  ObjectMapper mapper(Codec.Format format) {
    return format == Codec.Format.JSON ? jsonMapper : yamlMapper;
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
        .streamReadConstraints(limits.jsonReadConstraints())
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
      B builder, boolean yaml, Scheme scheme, List<Module> modules) {
    CoercionAction scalarToString = yaml ? CoercionAction.TryConvert : CoercionAction.Fail;
    // The caller's modules first; then everything the library relies on, so that no module can
    // undo it: its own handlers and serializers registered last (they win), and the features,
    // coercions and typing set after every module.
    modules.forEach(builder::addModule);
    return builder
        .clearProblemHandlers()
        .deactivateDefaultTyping()
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
