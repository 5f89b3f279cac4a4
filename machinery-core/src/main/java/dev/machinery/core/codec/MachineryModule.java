package dev.machinery.core.codec;

import static dev.machinery.core.internal.Text.quote;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.deser.SettableAnyProperty;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.type.CollectionType;
import com.fasterxml.jackson.databind.type.MapType;
import dev.machinery.core.internal.FieldPaths;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Jackson customisations of the library's own mappers: {@code apiVersion} and {@code kind}
 * first and once, finite numbers only, and unknown fields collected instead of thrown.
 */
final class MachineryModule extends SimpleModule {
  private static final long serialVersionUID = 1L;

  /** Serialization attribute: the {@link GroupVersionKind} to write at the document root. */
  static final Object ROOT_KIND = GroupVersionKind.class;

  static final String API_VERSION = "apiVersion";
  static final String KIND = "kind";

  /** Whether a class is a kind: the library's own, or one the scheme registers. */
  private final transient java.util.function.Predicate<Class<?>> isKind;

  MachineryModule(dev.machinery.core.runtime.Scheme scheme) {
    super("machinery");
    this.isKind =
        type -> ApiObject.class.isAssignableFrom(type) || !scheme.kindsFor(type).isEmpty();
    addDeserializer(Object.class, new UntypedDeserializer());
    addDeserializer(Double.class, new FiniteDouble(Double.class, null));
    addDeserializer(Double.TYPE, new FiniteDouble(Double.TYPE, 0.0d));
    addDeserializer(Float.class, new FiniteFloat(Float.class, null));
    addDeserializer(Float.TYPE, new FiniteFloat(Float.TYPE, 0.0f));
    addGoNumbers(this);
    JavaTimeCodecs.register(this);
    setSerializerModifier(new TypeFieldsFirst(isKind));
    setDeserializerModifier(new TypeFieldsOnce(isKind));
  }

  /** Adds the serializers of doubles and floats as Go writes a float64 to a module. */
  static SimpleModule addGoNumbers(SimpleModule module) {
    module.addSerializer(Double.class, new FiniteNumberSerializer<>(Double.class));
    module.addSerializer(Double.TYPE, new FiniteNumberSerializer<>(Double.TYPE));
    module.addSerializer(Float.class, new FiniteNumberSerializer<>(Float.class));
    module.addSerializer(Float.TYPE, new FiniteNumberSerializer<>(Float.TYPE));
    return module;
  }

  @Override
  public void setupModule(SetupContext context) {
    super.setupModule(context);
    context.addDeserializationProblemHandler(new UnknownFieldCollector());
  }

  private static boolean atDocumentRoot(JsonStreamContext context) {
    JsonStreamContext parent = context.getParent();
    return parent != null && parent.inRoot();
  }

  /** Records an unknown field and skips its value, when a decode is collecting. */
  private static final class UnknownFieldCollector extends DeserializationProblemHandler {
    @Override
    public boolean handleUnknownProperty(
        DeserializationContext ctxt,
        JsonParser p,
        JsonDeserializer<?> deserializer,
        Object beanOrClass,
        String propertyName)
        throws IOException {
      ProblemCollector collector = ProblemCollector.CURRENT.get();
      if (collector == null) {
        return false;
      }
      collector.unknown(FieldPaths.child(enclosingObjectPath(ctxt.getParser(), p), propertyName));
      p.skipChildren();
      return true;
    }

    /**
     * The path of the object that holds the unknown property. When Jackson replays buffered
     * properties (as for records, after their creator properties are read), {@code p} is a replay
     * parser whose contexts only imitate the document's, so the path is taken from the document's
     * own parser, which still stands inside (or just after) that object.
     */
    private static String enclosingObjectPath(JsonParser document, JsonParser p) {
      JsonParser source = document == null ? p : document;
      JsonStreamContext context = source.getParsingContext();
      JsonToken token = source.currentToken();
      if (token == JsonToken.END_OBJECT) {
        return FieldPaths.of(context);
      }
      if (source == p && (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY)) {
        context = context.getParent();
      }
      return context.getParent() == null ? "" : FieldPaths.of(context.getParent());
    }
  }

  /** Writes {@code apiVersion} and {@code kind} first, with the root's values from the encoder. */
  private static final class TypeFieldsFirst extends BeanSerializerModifier {
    private static final long serialVersionUID = 1L;
    private final transient java.util.function.Predicate<Class<?>> isKind;

    TypeFieldsFirst(java.util.function.Predicate<Class<?>> isKind) {
      this.isKind = isKind;
    }

    @Override
    public List<BeanPropertyWriter> orderProperties(
        SerializationConfig config, BeanDescription desc, List<BeanPropertyWriter> props) {
      if (!isKind.test(desc.getBeanClass())) {
        return props;
      }
      List<BeanPropertyWriter> ordered = new ArrayList<>(props.size());
      BeanPropertyWriter apiVersion = null;
      BeanPropertyWriter kind = null;
      for (BeanPropertyWriter prop : props) {
        if (prop.getName().equals(API_VERSION)) {
          apiVersion = new TypeFieldWriter(prop, false);
        } else if (prop.getName().equals(KIND)) {
          kind = new TypeFieldWriter(prop, true);
        } else {
          ordered.add(prop);
        }
      }
      if (kind != null) {
        ordered.add(0, kind);
      }
      if (apiVersion != null) {
        ordered.add(0, apiVersion);
      }
      return ordered;
    }
  }

  private static final class TypeFieldWriter extends BeanPropertyWriter {
    private static final long serialVersionUID = 1L;
    private final boolean isKind;

    TypeFieldWriter(BeanPropertyWriter base, boolean isKind) {
      super(base);
      this.isKind = isKind;
    }

    @Override
    public void serializeAsField(Object bean, JsonGenerator gen, SerializerProvider prov)
        throws Exception {
      Object root = prov.getAttribute(ROOT_KIND);
      if (root instanceof GroupVersionKind && atDocumentRoot(gen.getOutputContext())) {
        GroupVersionKind kind = (GroupVersionKind) root;
        gen.writeFieldName(_name);
        gen.writeString(isKind ? kind.kind() : kind.apiVersion());
        return;
      }
      super.serializeAsField(bean, gen, prov);
    }
  }

  /** Makes a root {@code apiVersion} or {@code kind} after the decoder read them a duplicate. */
  private static final class TypeFieldsOnce extends BeanDeserializerModifier {
    private static final long serialVersionUID = 1L;
    private final transient java.util.function.Predicate<Class<?>> isKind;

    TypeFieldsOnce(java.util.function.Predicate<Class<?>> isKind) {
      this.isKind = isKind;
    }

    @Override
    public JsonDeserializer<?> modifyCollectionDeserializer(
        DeserializationConfig config,
        CollectionType type,
        BeanDescription desc,
        JsonDeserializer<?> deserializer) {
      return refusesNullContent(type)
          ? new NoNullElements(deserializer, type.getContentType().getRawClass().getSimpleName())
          : deserializer;
    }

    @Override
    public JsonDeserializer<?> modifyMapDeserializer(
        DeserializationConfig config,
        MapType type,
        BeanDescription desc,
        JsonDeserializer<?> deserializer) {
      return refusesNullContent(type)
          ? new NoNullElements(deserializer, type.getContentType().getRawClass().getSimpleName())
          : deserializer;
    }

    @Override
    public BeanDeserializerBuilder updateBuilder(
        DeserializationConfig config, BeanDescription desc, BeanDeserializerBuilder builder) {
      if (builder.getAnySetter() != null
          && !desc.getBeanClass().isAnnotationPresent(PreserveUnknownFields.class)) {
        builder = new ReportingBuilder(builder);
      }
      if (!isKind.test(desc.getBeanClass())) {
        return builder;
      }
      for (String name : new String[] {API_VERSION, KIND}) {
        SettableBeanProperty prop =
            builder.findProperty(new com.fasterxml.jackson.databind.PropertyName(name));
        if (prop != null) {
          builder.addOrReplaceProperty(new TypeFieldProperty(prop), true);
        }
      }
      return builder;
    }
  }

  private static final class TypeFieldProperty extends SettableBeanProperty.Delegating {
    private static final long serialVersionUID = 1L;

    TypeFieldProperty(SettableBeanProperty delegate) {
      super(delegate);
    }

    @Override
    protected SettableBeanProperty withDelegate(SettableBeanProperty d) {
      return new TypeFieldProperty(d);
    }

    private void check(JsonParser p, DeserializationContext ctxt) {
      ProblemCollector decode = ProblemCollector.CURRENT.get();
      if (decode != null && decode.rootTypeRead && atDocumentRoot(p.getParsingContext())) {
        throw new DecodeException(
            "duplicate field "
                + quote(getName())
                + ": a document names its apiVersion and kind once",
            getName());
      }
    }

    @Override
    public void deserializeAndSet(JsonParser p, DeserializationContext ctxt, Object instance)
        throws IOException {
      check(p, ctxt);
      delegate.deserializeAndSet(p, ctxt, instance);
    }

    @Override
    public Object deserializeSetAndReturn(
        JsonParser p, DeserializationContext ctxt, Object instance) throws IOException {
      check(p, ctxt);
      return delegate.deserializeSetAndReturn(p, ctxt, instance);
    }
  }

  /**
   * Refuses {@code null} elements in lists, sets and maps of typed values ({@code List<String>},
   * {@code Map<String, Quantity>}): Kubernetes' Go types cannot hold them, so a Java {@code null}
   * where the type promises a value would be a surprise. Untyped contents ({@code Object}, as in
   * {@code Map<String, Object>}) keep their nulls: they are JSON values; so do classes marked
   * {@link NullIsZero}, whose zero value Go writes as {@code null}.
   */
  private static boolean refusesNullContent(JavaType type) {
    Class<?> content = type.getContentType().getRawClass();
    return content != Object.class
        && !JsonNode.class.isAssignableFrom(content)
        && !content.isAnnotationPresent(NullIsZero.class);
  }

  /** Checks a decoded collection or map for null elements, naming the first it finds. */
  private static final class NoNullElements extends DelegatingDeserializer {
    private static final long serialVersionUID = 1L;
    private final String contentName;

    NoNullElements(JsonDeserializer<?> delegate, String contentName) {
      super(delegate);
      this.contentName = contentName;
    }

    @Override
    protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
      return new NoNullElements(delegate, contentName);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      return check(super.deserialize(p, ctxt), p);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object deserialize(JsonParser p, DeserializationContext ctxt, Object intoValue)
        throws IOException {
      return check(((JsonDeserializer<Object>) _delegatee).deserialize(p, ctxt, intoValue), p);
    }

    private Object check(Object value, JsonParser p) throws IOException {
      if (value instanceof java.util.Collection) {
        int index = 0;
        for (Object element : (java.util.Collection<?>) value) {
          if (element == null) {
            throw MismatchedInputException.from(
                p,
                (Class<?>) null,
                "element ["
                    + index
                    + "] is null, which a list of "
                    + contentName
                    + " cannot hold (Kubernetes' types hold no null elements)");
          }
          index++;
        }
      } else if (value instanceof Map) {
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
          if (entry.getValue() == null) {
            throw MismatchedInputException.from(
                p,
                (Class<?>) null,
                "the value of key "
                    + quote(String.valueOf(entry.getKey()))
                    + " is null, which a map of "
                    + contentName
                    + " cannot hold (Kubernetes' types hold no null values)");
          }
        }
      }
      return value;
    }
  }

  /** A copy of a bean's builder whose catch-all reports what it takes. */
  private static final class ReportingBuilder extends BeanDeserializerBuilder {
    ReportingBuilder(BeanDeserializerBuilder source) {
      super(source);
      _anySetter = new ReportingCatchAll(_anySetter);
    }
  }

  /**
   * A class's catch-all ({@code @JsonAnySetter}) that reports each field it takes as unknown, then
   * keeps it: strict decoding fails on a typo even where a catch-all would swallow it.
   */
  private static final class ReportingCatchAll extends SettableAnyProperty {
    private static final long serialVersionUID = 1L;
    private final SettableAnyProperty delegate;

    ReportingCatchAll(SettableAnyProperty delegate) {
      super(delegate.getProperty(), null, delegate.getType(), null, null, null);
      this.delegate = delegate;
    }

    private static void report(JsonParser p) {
      ProblemCollector collector = ProblemCollector.CURRENT.get();
      if (collector != null) {
        JsonStreamContext context = p.getParsingContext();
        JsonToken token = p.currentToken();
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
          context = context.getParent();
        }
        collector.unknown(FieldPaths.of(context));
      }
    }

    @Override
    public void deserializeAndSet(
        JsonParser p, DeserializationContext ctxt, Object instance, String propName)
        throws IOException {
      report(p);
      delegate.deserializeAndSet(p, ctxt, instance, propName);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      report(p);
      return delegate.deserialize(p, ctxt);
    }

    @Override
    public String toString() {
      return delegate.toString();
    }

    @Override
    public void set(Object instance, Object propName, Object value) throws IOException {
      delegate.set(instance, propName, value);
    }

    @Override
    protected void _set(Object instance, Object propName, Object value) throws Exception {
      delegate.set(instance, propName, value);
    }

    @Override
    public SettableAnyProperty withValueDeserializer(JsonDeserializer<Object> deser) {
      return new ReportingCatchAll(delegate.withValueDeserializer(deser));
    }

    @Override
    public void fixAccess(DeserializationConfig config) {
      delegate.fixAccess(config);
    }

    @Override
    public boolean hasValueDeserializer() {
      return delegate.hasValueDeserializer();
    }

    @Override
    public int getParameterIndex() {
      return delegate.getParameterIndex();
    }

    @Override
    public boolean isFieldType() {
      return delegate.isFieldType();
    }

    @Override
    public boolean isSetterType() {
      return delegate.isSetterType();
    }

    @Override
    public Object createParameterObject() {
      return delegate.createParameterObject();
    }
  }

  /**
   * Writes doubles and floats as Go's {@code encoding/json} writes a float64, refusing NaN and the
   * infinities, which JSON cannot hold: a whole number below 1e21 without a fraction ({@code 2},
   * not Java's {@code 2.0}), with the shortest digits that read back as the same double, so that a
   * Go client reading it into an integer field can; other values as Java writes them (the same
   * number).
   */
  private static final class FiniteNumberSerializer<T extends Number>
      extends com.fasterxml.jackson.databind.ser.std.StdScalarSerializer<T> {
    private static final long serialVersionUID = 1L;

    FiniteNumberSerializer(Class<T> type) {
      super(type, false);
    }

    @Override
    public void serialize(T value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      double d = value.doubleValue();
      if (!Double.isFinite(d)) {
        throw com.fasterxml.jackson.databind.JsonMappingException.from(
            gen, "cannot encode " + value + ": JSON numbers are finite");
      }
      if (d == Math.rint(d) && Math.abs(d) < 1e21) {
        String shortest =
            value instanceof Float ? Float.toString((Float) value) : Double.toString(d);
        gen.writeNumber(new BigDecimal(shortest).toBigInteger());
      } else if (value instanceof Float) {
        gen.writeNumber(value.floatValue());
      } else {
        gen.writeNumber(d);
      }
    }
  }

  /** Doubles that are finite: no Infinity from {@code 1e400}, no NaN from {@code "NaN"}. */
  private static final class FiniteDouble extends NumberDeserializers.DoubleDeserializer {
    private static final long serialVersionUID = 1L;

    FiniteDouble(Class<Double> type, Double nullValue) {
      super(type, nullValue);
    }

    @Override
    public Double deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      Double value = super.deserialize(p, ctxt);
      if (value != null && !Double.isFinite(value)) {
        throw notFinite(p, value, Double.class);
      }
      return value;
    }
  }

  private static final class FiniteFloat extends NumberDeserializers.FloatDeserializer {
    private static final long serialVersionUID = 1L;

    FiniteFloat(Class<Float> type, Float nullValue) {
      super(type, nullValue);
    }

    @Override
    public Float deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      Float value = super.deserialize(p, ctxt);
      if (value != null && !Float.isFinite(value)) {
        throw notFinite(p, value, Float.class);
      }
      return value;
    }
  }

  static InvalidFormatException notFinite(JsonParser p, Object value, Class<?> type)
      throws IOException {
    String found =
        p.currentToken() == JsonToken.VALUE_STRING
            ? "string " + quote(p.getText())
            : "number " + quote(p.getText());
    return InvalidFormatException.from(
        p,
        "expected a finite number in the range of "
            + type.getSimpleName().toLowerCase(java.util.Locale.ROOT)
            + ", found "
            + found,
        value,
        type);
  }

  /**
   * Untyped values ({@code Object}, map and list contents): maps, lists, strings, booleans, null,
   * {@code Integer}, {@code Long} or {@code BigInteger} integers (the smallest that holds the
   * value, as plain Jackson reads them), and finite {@code Double}s. Nesting is bounded by the
   * parser's depth limit, so the recursion is too.
   */
  static final class UntypedDeserializer extends StdDeserializer<Object> {
    private static final long serialVersionUID = 1L;

    UntypedDeserializer() {
      super(Object.class);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      JsonToken token = p.currentToken();
      switch (token) {
        case START_OBJECT:
        case FIELD_NAME:
          {
            Map<String, Object> map = new LinkedHashMap<>();
            String name = token == JsonToken.START_OBJECT ? p.nextFieldName() : p.currentName();
            for (; name != null; name = p.nextFieldName()) {
              p.nextToken();
              map.put(name, deserialize(p, ctxt));
            }
            return map;
          }
        case END_OBJECT:
          return new LinkedHashMap<String, Object>();
        case START_ARRAY:
          {
            List<Object> list = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
              list.add(deserialize(p, ctxt));
            }
            return list;
          }
        case VALUE_STRING:
          return p.getText();
        case VALUE_NUMBER_INT:
          {
            // As plain Jackson reads them: Integer where the value fits, then Long, then
            // BigInteger; deserializers written for Jackson (fabric8's IntOrString) expect it.
            JsonParser.NumberType type = p.getNumberType();
            if (type == JsonParser.NumberType.INT) {
              return p.getIntValue();
            }
            if (type == JsonParser.NumberType.BIG_INTEGER) {
              BigInteger big = p.getBigIntegerValue();
              if (big.bitLength() < 32) {
                return big.intValue();
              }
              return big.bitLength() < 64 ? (Object) big.longValue() : big;
            }
            long value = p.getLongValue();
            return value == (int) value ? (Object) (int) value : (Object) value;
          }
        case VALUE_NUMBER_FLOAT:
          {
            double value = p.getDoubleValue();
            if (!Double.isFinite(value)) {
              throw notFinite(p, value, Double.class);
            }
            return value;
          }
        case VALUE_TRUE:
          return Boolean.TRUE;
        case VALUE_FALSE:
          return Boolean.FALSE;
        case VALUE_NULL:
          return null;
        case VALUE_EMBEDDED_OBJECT:
          return p.getEmbeddedObject();
        default:
          return ctxt.handleUnexpectedToken(Object.class, p);
      }
    }
  }
}
