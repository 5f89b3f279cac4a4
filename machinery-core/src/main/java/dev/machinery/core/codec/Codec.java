package dev.machinery.core.codec;

import static dev.machinery.core.internal.Text.quote;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.machinery.conversion.ConversionException;
import dev.machinery.conversion.NoConversionException;
import dev.machinery.core.codec.yaml.YamlNode;
import dev.machinery.core.codec.yaml.YamlReader;
import dev.machinery.core.codec.yaml.YamlTreeParser;
import dev.machinery.core.internal.Messages;
import dev.machinery.core.internal.Surrogates;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.runtime.TypeAccessor;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Decodes documents into the {@link Scheme}'s types, finding each document's type from its {@code
 * apiVersion} and {@code kind}, and encodes objects with {@code apiVersion} and {@code kind}
 * written first.
 *
 * <p>JSON is parsed once: when {@code apiVersion} and {@code kind} come first the same parser goes
 * on to bind the object; when they come later, one pass over the bytes (no tokenizing) finds them
 * and the object is bound directly, and only a document whose root keys hold escapes has its fields
 * buffered as tokens (never as a tree). YAML streams may hold several documents ({@link
 * #decodeAll}); empty documents are skipped; aliases and merge keys are expanded under a budget;
 * plain scalars follow the YAML 1.2 core schema. Unknown and duplicate fields are handled as {@link
 * #fieldValidation()} says.
 *
 * <p>Codecs are obtained from a {@link CodecFactory} and varied with {@link #withFieldValidation},
 * {@link #pretty} and {@link #withDefaulting}. Immutable and safe for concurrent use.
 */
public final class Codec {
  /** The formats a codec speaks. */
  enum Format {
    JSON("application/json"),
    YAML("application/yaml");

    final String mediaType;

    Format(String mediaType) {
      this.mediaType = mediaType;
    }
  }

  private static final String API_VERSION = MachineryModule.API_VERSION;
  private static final String KIND = MachineryModule.KIND;

  private final CodecFactory factory;
  private final Format format;
  private final FieldValidation validation;
  private final boolean pretty;
  private final boolean defaulting;
  private final GroupVersioner decodeTarget;
  private final GroupVersioner encodeTarget;
  private final Encoder encoder;

  Codec(
      CodecFactory factory,
      Format format,
      FieldValidation validation,
      boolean pretty,
      boolean defaulting) {
    this(factory, format, validation, pretty, defaulting, null, null);
  }

  private Codec(
      CodecFactory factory,
      Format format,
      FieldValidation validation,
      boolean pretty,
      boolean defaulting,
      GroupVersioner decodeTarget,
      GroupVersioner encodeTarget) {
    this.factory = factory;
    this.format = format;
    this.validation = validation;
    this.pretty = pretty;
    this.defaulting = defaulting;
    this.decodeTarget = decodeTarget;
    this.encodeTarget = encodeTarget;
    this.encoder = new Encoder(factory, format, pretty, encodeTarget);
  }

  /**
   * Returns a codec like this one that converts every decoded object, through the internal form,
   * into the kind {@code target} chooses; {@code GroupVersioner.internal()} decodes into the
   * internal form. The {@link Decoded#kind()} stays the kind the document named.
   *
   * @param target the target versions
   * @return the codec
   */
  public Codec decodingTo(GroupVersioner target) {
    return new Codec(
        factory,
        format,
        validation,
        pretty,
        defaulting,
        Objects.requireNonNull(target, "target"),
        encodeTarget);
  }

  /**
   * Returns a codec like this one that converts every object it encodes, through the internal form,
   * into the kind {@code target} chooses, such as {@code GroupVersioner.of(apps/v1)}. The object
   * given is not changed.
   *
   * @param target the target versions
   * @return the codec
   */
  public Codec encodingTo(GroupVersioner target) {
    return new Codec(
        factory,
        format,
        validation,
        pretty,
        defaulting,
        decodeTarget,
        Objects.requireNonNull(target, "target"));
  }

  /**
   * Returns a codec like this one with another field validation mode.
   *
   * @param mode what to do with unknown and duplicate fields
   * @return the codec
   */
  public Codec withFieldValidation(FieldValidation mode) {
    return new Codec(
        factory,
        format,
        Objects.requireNonNull(mode, "mode"),
        pretty,
        defaulting,
        decodeTarget,
        encodeTarget);
  }

  /**
   * Returns a codec like this one that encodes JSON indented by two spaces, one field or element a
   * line. YAML output is unaffected.
   *
   * @return the codec
   */
  public Codec pretty() {
    return new Codec(factory, format, validation, true, defaulting, decodeTarget, encodeTarget);
  }

  /**
   * Returns a codec like this one that, when {@code enabled}, applies the scheme's defaulting
   * functions to every decoded object.
   *
   * @param enabled whether to apply defaults
   * @return the codec
   */
  public Codec withDefaulting(boolean enabled) {
    return new Codec(factory, format, validation, pretty, enabled, decodeTarget, encodeTarget);
  }

  /**
   * Returns the field validation mode.
   *
   * @return the mode
   */
  public FieldValidation fieldValidation() {
    return validation;
  }

  /**
   * Returns the media type the codec reads and writes: {@code application/json} or {@code
   * application/yaml}.
   *
   * @return the media type
   */
  public String mediaType() {
    return format.mediaType;
  }

  // ---------------------------------------------------------------------------------- decoding

  /**
   * Decodes one document.
   *
   * @param data UTF-8 text
   * @return the object, its kind and any warnings
   * @throws DecodeException if the document is malformed, breaks a limit, does not name its type,
   *     or (in {@link FieldValidation#STRICT} mode) has unknown or duplicate fields; a YAML stream
   *     must hold exactly one non-empty document; {@link UnknownKindException} if the document's
   *     kind is not registered
   */
  public Decoded<Object> decode(byte[] data) {
    return decode(data, data.length, Object.class);
  }

  /**
   * Decodes one document given as a string.
   *
   * @param text the document
   * @return the object, its kind and any warnings
   * @throws DecodeException as {@link #decode(byte[])}
   */
  public Decoded<Object> decode(String text) {
    return decode(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Decodes one document from a stream, reading at most the size limit (plus one byte, to tell that
   * the limit was passed). The stream is not closed.
   *
   * @param in UTF-8 text
   * @return the object, its kind and any warnings
   * @throws DecodeException as {@link #decode(byte[])}, or if the stream fails
   */
  public Decoded<Object> decode(InputStream in) {
    byte[] data = readBounded(in);
    return decode(data, data.length, Object.class);
  }

  /**
   * Decodes one document that must be of type {@code type} (or a subtype).
   *
   * @param data UTF-8 text
   * @param type the expected type
   * @param <T> the expected type
   * @return the object, its kind and any warnings
   * @throws DecodeException as {@link #decode(byte[])}, or if the document's kind is registered to
   *     a type that is not {@code type}
   */
  public <T> Decoded<T> decode(byte[] data, Class<T> type) {
    return decode(data, data.length, type);
  }

  /**
   * Decodes one document, given as a string, that must be of type {@code type} (or a subtype).
   *
   * @param text the document
   * @param type the expected type
   * @param <T> the expected type
   * @return the object, its kind and any warnings
   * @throws DecodeException as {@link #decode(byte[], Class)}
   */
  public <T> Decoded<T> decode(String text, Class<T> type) {
    return decode(text.getBytes(StandardCharsets.UTF_8), type);
  }

  /**
   * Decodes one document, read from a stream (bounded by the size limit, not closed), that must be
   * of type {@code type} (or a subtype).
   *
   * @param in UTF-8 text
   * @param type the expected type
   * @param <T> the expected type
   * @return the object, its kind and any warnings
   * @throws DecodeException as {@link #decode(byte[], Class)}, or if the stream fails
   */
  public <T> Decoded<T> decode(InputStream in, Class<T> type) {
    byte[] data = readBounded(in);
    return decode(data, data.length, type);
  }

  /**
   * Decodes the items of a list from a stream one at a time: from JSON in the memory of one item,
   * for lists of any size; from YAML after reading the body under {@code maxYamlBytes} (see {@link
   * ItemStream}).
   *
   * @param in the stream, closed when the returned stream is closed
   * @param type the items' class ({@code Object.class} for any kind)
   * @param <T> the items' class
   * @return the items
   * @throws DecodeException when the stream does not start as a JSON list
   */
  public <T> ItemStream<T> decodeItems(InputStream in, Class<T> type) {
    if (format != Format.JSON) {
      // YAML is read whole, under maxYamlBytes, and handed out item by item.
      return new ItemStream<>(this, decodeAll(in), type);
    }
    return new ItemStream<>(this, in, type, factory.limits());
  }

  /**
   * Decodes every object of a body, in order: each non-empty document of a YAML stream, each of the
   * concatenated objects of a JSON body, and, in either, the items of a document of Kubernetes'
   * generic {@code v1 List} kind (what {@code kubectl get -o json} prints and {@code kubectl apply
   * -f} reads), each as the kind it names.
   *
   * @param data UTF-8 text
   * @return the decoded objects
   * @throws DecodeException as {@link #decode(byte[])}; its message starts with where the failing
   *     object stands ({@code document 2 of 3}, {@code item 4 of 9 of the List}) and {@link
   *     DecodeException#document()} gives its document
   */
  public List<Decoded<Object>> decodeAll(byte[] data) {
    return decodeAll(data, data.length);
  }

  /**
   * Decodes every object of a body given as a string, as {@link #decodeAll(byte[])} does.
   *
   * @param text the stream
   * @return the decoded documents
   * @throws DecodeException as {@link #decodeAll(byte[])}
   */
  public List<Decoded<Object>> decodeAll(String text) {
    return decodeAll(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Decodes every object of a body read from {@code in} (bounded by the size limit), as {@link
   * #decodeAll(byte[])} does. The stream is not closed.
   *
   * @param in UTF-8 text
   * @return the decoded documents
   * @throws DecodeException as {@link #decodeAll(byte[])}, or if the stream fails
   */
  public List<Decoded<Object>> decodeAll(InputStream in) {
    byte[] data = readBounded(in);
    return decodeAll(data, data.length);
  }

  private <T> Decoded<T> decode(byte[] data, int length, Class<T> expected) {
    if (format == Format.JSON) {
      return decodeJson(data, length, expected);
    }
    List<YamlReader.Document> documents = readYaml(data, length);
    if (documents.size() != 1) {
      throw new DecodeException(
          documents.isEmpty()
              ? "the YAML stream holds no document"
              : "the YAML stream holds "
                  + documents.size()
                  + " documents where one was expected; use decodeAll to read them all",
          "");
    }
    if (documents.get(0).afterEmpty) {
      // Kubernetes reads one object from the first document of a body; here that is empty.
      throw new DecodeException(
          "the first document of the YAML stream is empty; a single object is read from the"
              + " first document (use decodeAll to skip empty documents)",
          "");
    }
    return decodeYamlDocument(documents.get(0), expected);
  }

  private List<Decoded<Object>> decodeAll(byte[] data, int length) {
    return format == Format.JSON ? decodeAllJson(data, length) : decodeAllYaml(data, length);
  }

  /** Whether a document's type is Kubernetes' generic {@code v1 List}, which it expands. */
  private boolean isList(String apiVersion, String kind) {
    return "v1".equals(apiVersion)
        && "List".equals(kind)
        && !factory.scheme().recognizes(GroupVersionKind.of("", "v1", "List"));
  }

  private List<Decoded<Object>> decodeAllJson(byte[] body, int length) {
    checkSize(length);
    int start = Utf8.validate(body, length);
    byte[] data = Surrogates.repairJson(body, start, length);
    List<int[]> roots =
        DocumentStreams.jsonObjects(
            factory.jsonFactory, factory.limits(), data, start, length, false);
    List<Decoded<Object>> decoded = new ArrayList<>(roots.size());
    for (int d = 0; d < roots.size(); d++) {
      int[] root = roots.get(d);
      String[] type = RootTypeScanner.scan(data, root[0], root[1]);
      if (type != null && isList(type[0], type[1])) {
        List<int[]> items =
            DocumentStreams.jsonObjects(
                factory.jsonFactory, factory.limits(), data, root[0], root[1], true);
        for (int i = 0; i < items.size(); i++) {
          try {
            decoded.add(decodeJsonSpan(data, items.get(i)[0], items.get(i)[1], Object.class));
          } catch (DecodeException e) {
            throw DocumentStreams.located(
                e, DocumentStreams.where(d, roots.size(), i, items.size()), d, decoded);
          }
        }
        continue;
      }
      try {
        decoded.add(decodeJsonSpan(data, root[0], root[1], Object.class));
      } catch (DecodeException e) {
        throw DocumentStreams.located(e, DocumentStreams.where(d, roots.size(), 0, -1), d, decoded);
      }
    }
    return Collections.unmodifiableList(decoded);
  }

  private List<Decoded<Object>> decodeAllYaml(byte[] data, int length) {
    List<YamlReader.Document> documents = readYaml(data, length);
    List<Decoded<Object>> decoded = new ArrayList<>(documents.size());
    for (int d = 0; d < documents.size(); d++) {
      YamlReader.Document document = documents.get(d);
      List<YamlNode> items = yamlListItems(document.root);
      if (items != null) {
        for (int i = 0; i < items.size(); i++) {
          String prefix = "items[" + i + "].";
          List<String> duplicates = new ArrayList<>();
          for (String path : document.duplicatePaths) {
            if (path.startsWith(prefix)) {
              duplicates.add(path.substring(prefix.length()));
            }
          }
          try {
            decoded.add(
                decodeYamlDocument(
                    new YamlReader.Document(items.get(i), duplicates, 0), Object.class));
          } catch (DecodeException e) {
            throw DocumentStreams.located(
                e, DocumentStreams.where(d, documents.size(), i, items.size()), d, decoded);
          }
        }
        continue;
      }
      try {
        decoded.add(decodeYamlDocument(document, Object.class));
      } catch (DecodeException e) {
        throw DocumentStreams.located(
            e, DocumentStreams.where(d, documents.size(), 0, -1), d, decoded);
      }
    }
    return Collections.unmodifiableList(decoded);
  }

  /** The items of a {@code v1 List} document, or null for any other document. */
  private List<YamlNode> yamlListItems(YamlNode root) {
    if (!(root instanceof YamlNode.Mapping)) {
      return null;
    }
    YamlNode.Mapping mapping = (YamlNode.Mapping) root;
    int apiVersion = mapping.keys.indexOf(API_VERSION);
    int kind = mapping.keys.indexOf(KIND);
    if (apiVersion < 0
        || kind < 0
        || !(mapping.values.get(apiVersion) instanceof YamlNode.Scalar)
        || !(mapping.values.get(kind) instanceof YamlNode.Scalar)
        || !isList(
            ((YamlNode.Scalar) mapping.values.get(apiVersion)).text,
            ((YamlNode.Scalar) mapping.values.get(kind)).text)) {
      return null;
    }
    int items = mapping.keys.indexOf("items");
    if (items < 0) {
      return List.of();
    }
    YamlNode list = mapping.values.get(items);
    if (!(list instanceof YamlNode.Sequence)) {
      throw new DecodeException(
          "field \"items\" of a List must be a sequence (line " + list.line + ")",
          "items",
          list.line,
          list.column,
          null);
    }
    return ((YamlNode.Sequence) list).items;
  }

  private byte[] readBounded(InputStream in) {
    int max =
        format == Format.JSON ? factory.limits().maxJsonBytes() : factory.limits().maxYamlBytes();
    try {
      byte[] data = in.readNBytes(max + 1);
      checkSize(data.length);
      return data;
    } catch (IOException e) {
      throw new DecodeException(
          "could not read the body: " + Messages.sanitize(e.getMessage()), "", 0, 0, e);
    }
  }

  private void checkSize(int length) {
    boolean json = format == Format.JSON;
    int max = json ? factory.limits().maxJsonBytes() : factory.limits().maxYamlBytes();
    if (length > max) {
      throw new LimitExceededException(
          json ? "maxJsonBytes" : "maxYamlBytes",
          max,
          "the body is larger than the limit of " + max + " bytes for " + format,
          "",
          0,
          0);
    }
  }

  // JSON ------------------------------------------------------------------------------------

  private <T> Decoded<T> decodeJson(byte[] data, int length, Class<T> expected) {
    checkSize(length);
    int start = Utf8.validate(data, length);
    return decodeJsonSpan(Surrogates.repairJson(data, start, length), start, length, expected);
  }

  /** Decodes the one JSON object in {@code [start, end)}, already checked as UTF-8. */
  private <T> Decoded<T> decodeJsonSpan(byte[] data, int start, int length, Class<T> expected) {
    ProblemCollector problems = new ProblemCollector(true);
    ProblemCollector outer = ProblemCollector.CURRENT.get();
    ProblemCollector.CURRENT.set(problems);
    try {
      return bindJson(
          data, start, length, problems, validation != FieldValidation.IGNORE, expected);
    } finally {
      restore(outer);
    }
  }

  private static void restore(ProblemCollector outer) {
    if (outer == null) {
      ProblemCollector.CURRENT.remove();
    } else {
      ProblemCollector.CURRENT.set(outer);
    }
  }

  private <T> Decoded<T> bindJson(
      byte[] data,
      int start,
      int length,
      ProblemCollector problems,
      boolean findDuplicates,
      Class<T> expected) {
    JsonParser p = null;
    JsonParser source = null;
    try {
      p =
          (findDuplicates ? factory.duplicateFindingJsonFactory : factory.jsonFactory)
              .createParser(data, start, length - start);
      source = p;
      JsonToken token = p.nextToken();
      if (token != JsonToken.START_OBJECT) {
        throw new DecodeException(
            token == null
                ? "the body is empty; expected a JSON object"
                : "expected a JSON object, found " + JacksonErrors.describe(p),
            "");
      }
      String apiVersion = null;
      String kind = null;
      TokenBuffer buffer = null;
      while ((token = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        if (API_VERSION.equals(name)) {
          apiVersion = typeField(p, name, apiVersion);
        } else if (KIND.equals(name)) {
          kind = typeField(p, name, kind);
        } else if (apiVersion != null && kind != null && buffer == null) {
          break;
        } else {
          if (buffer == null) {
            String[] scanned = RootTypeScanner.scan(data, start, length);
            if (scanned != null) {
              // The type comes later: found by one pass over the bytes, then bound directly.
              JacksonErrors.closeQuietly(p);
              p = null;
              return bindScanned(data, start, length, findDuplicates, scanned, expected);
            }
            buffer = new TokenBuffer(p);
            buffer.writeStartObject();
          }
          buffer.writeFieldName(name);
          p.nextToken();
          buffer.copyCurrentStructure(p);
        }
      }
      CodecFactory.Resolved resolved =
          KindResolution.resolve(factory, apiVersion, kind, expected, decodeTarget != null);
      GroupVersionKind gvk = resolved.kind;
      Class<?> type = resolved.type;
      Object object;
      if (buffer != null) {
        buffer.writeEndObject();
        source = buffer.asParser(p);
        source.nextToken();
        object = bind(source, type);
      } else if (token == JsonToken.END_OBJECT) {
        object = emptyObject(gvk, type);
      } else {
        object = bind(p, type);
      }
      checkNoTrailingData(p);
      resolved.accessor.setApiVersion(object, apiVersion);
      resolved.accessor.setKind(object, kind);
      return finish(
          object,
          gvk,
          problems,
          expected,
          path -> FieldLocations.inJson(factory.jsonFactory, data, start, length, path));
    } catch (IOException e) {
      throw JacksonErrors.translate(e, source, factory.limits());
    } finally {
      JacksonErrors.closeQuietly(p);
    }
  }

  private <T> Decoded<T> bindScanned(
      byte[] data,
      int start,
      int length,
      boolean findDuplicates,
      String[] type,
      Class<T> expected) {
    // apiVersion and kind will be met as ordinary fields, so they are not "read already".
    ProblemCollector problems = new ProblemCollector(false);
    ProblemCollector.CURRENT.set(problems);
    CodecFactory.Resolved resolved =
        KindResolution.resolve(factory, type[0], type[1], expected, decodeTarget != null);
    JsonParser p = null;
    try {
      p =
          (findDuplicates ? factory.duplicateFindingJsonFactory : factory.jsonFactory)
              .createParser(data, start, length - start);
      p.nextToken();
      Object object = bind(p, resolved.type);
      checkNoTrailingData(p);
      resolved.accessor.setApiVersion(object, type[0]);
      resolved.accessor.setKind(object, type[1]);
      return finish(
          object,
          resolved.kind,
          problems,
          expected,
          path -> FieldLocations.inJson(factory.jsonFactory, data, start, length, path));
    } catch (IOException e) {
      throw JacksonErrors.translate(e, p, factory.limits());
    } finally {
      JacksonErrors.closeQuietly(p);
    }
  }

  private static void checkNoTrailingData(JsonParser p) throws IOException {
    JsonToken trailing = p.nextToken();
    if (trailing != null) {
      JsonLocation at = p.currentTokenLocation();
      throw new DecodeException(
          "unexpected data after the JSON object at line "
              + at.getLineNr()
              + ", column "
              + at.getColumnNr()
              + ": found "
              + JacksonErrors.describe(p),
          "",
          at.getLineNr(),
          at.getColumnNr(),
          null);
    }
  }

  private static String typeField(JsonParser p, String name, String previous) throws IOException {
    if (previous != null) {
      throw duplicateTypeField(name);
    }
    JsonToken value = p.nextToken();
    if (value != JsonToken.VALUE_STRING) {
      JsonLocation at = p.currentTokenLocation();
      throw new DecodeException(
          "field " + quote(name) + " must be a string, found " + JacksonErrors.describe(p),
          name,
          at.getLineNr(),
          at.getColumnNr(),
          null);
    }
    return p.getText();
  }

  private static DecodeException duplicateTypeField(String name) {
    return new DecodeException(
        "duplicate field " + quote(name) + ": a document names its apiVersion and kind once", name);
  }

  // YAML ------------------------------------------------------------------------------------

  private List<YamlReader.Document> readYaml(byte[] data, int length) {
    checkSize(length);
    int start = Utf8.validate(data, length);
    // Decoded once, into the characters the block scanner reads (a string only for SnakeYAML).
    char[] chars = new char[length - start];
    return YamlReader.read(chars, Utf8.decodeValid(data, start, length, chars), factory.limits());
  }

  private <T> Decoded<T> decodeYamlDocument(YamlReader.Document document, Class<T> expected) {
    if (!(document.root instanceof YamlNode.Mapping)) {
      throw new DecodeException(
          "expected a YAML mapping at line "
              + document.root.line
              + ", found a "
              + (document.root instanceof YamlNode.Sequence ? "sequence" : "scalar"),
          "",
          document.root.line,
          document.root.column,
          null);
    }
    ProblemCollector problems = new ProblemCollector(false);
    for (String path : document.duplicatePaths) {
      if (path.equals(API_VERSION) || path.equals(KIND)) {
        throw duplicateTypeField(path);
      }
      problems.duplicate(path);
    }
    problems.omit(document.omittedDuplicates);
    YamlNode.Mapping root = (YamlNode.Mapping) document.root;
    String apiVersion = yamlTypeField(root, API_VERSION);
    String kind = yamlTypeField(root, KIND);
    CodecFactory.Resolved resolved =
        KindResolution.resolve(factory, apiVersion, kind, expected, decodeTarget != null);
    GroupVersionKind gvk = resolved.kind;
    Class<?> type = resolved.type;
    YamlTreeParser parser = new YamlTreeParser(root, factory.limits().maxNestingDepth());
    ProblemCollector outer = ProblemCollector.CURRENT.get();
    ProblemCollector.CURRENT.set(problems);
    try {
      parser.nextToken();
      Object object = bind(parser, type);
      resolved.accessor.setApiVersion(object, apiVersion);
      resolved.accessor.setKind(object, kind);
      return finish(object, gvk, problems, expected, path -> FieldLocations.inYaml(root, path));
    } catch (IOException e) {
      throw JacksonErrors.translate(e, parser, factory.limits());
    } finally {
      restore(outer);
    }
  }

  private static String yamlTypeField(YamlNode.Mapping root, String name) {
    int at = root.keys.indexOf(name);
    if (at < 0) {
      return null;
    }
    YamlNode value = root.values.get(at);
    if (!(value instanceof YamlNode.Scalar)
        || ((YamlNode.Scalar) value).token != JsonToken.VALUE_STRING) {
      String found =
          value instanceof YamlNode.Scalar
              ? describeScalar((YamlNode.Scalar) value)
              : value instanceof YamlNode.Mapping ? "a mapping" : "a sequence";
      throw new DecodeException(
          "field " + quote(name) + " must be a string, found " + found,
          name,
          value.line,
          value.column,
          null);
    }
    return ((YamlNode.Scalar) value).text;
  }

  private static String describeScalar(YamlNode.Scalar scalar) {
    switch (scalar.token) {
      case VALUE_NULL:
        return "null";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "boolean " + scalar.text;
      case VALUE_STRING:
        return "string " + quote(scalar.text);
      default:
        return "number " + quote(scalar.text);
    }
  }

  // Shared ----------------------------------------------------------------------------------

  /** The object of a document that holds nothing but its type fields. */
  private Object emptyObject(GroupVersionKind gvk, Class<?> type) throws IOException {
    if (factory.scheme().typeFor(gvk).orElse(null) == type) {
      return factory.scheme().newObject(gvk);
    }
    Object object = factory.reader(format, type).readValue("{}");
    TypeAccessor accessor = TypeAccessor.of(type);
    accessor.setApiVersion(object, gvk.apiVersion());
    accessor.setKind(object, gvk.kind());
    return object;
  }

  private Object bind(JsonParser source, Class<?> type) throws IOException {
    // Deserializers written for plain Jackson read subtrees through the parser's codec
    // (fabric8's Quantity calls p.getCodec().readTree(p)): give them the library's mapper.
    source.setCodec(format == Format.JSON ? factory.jsonMapper : factory.yamlMapper);
    return factory.reader(format, type).readValue(source);
  }

  private <T> Decoded<T> finish(
      Object object,
      GroupVersionKind gvk,
      ProblemCollector problems,
      Class<T> expected,
      FieldLocations.Locator locator) {
    List<FieldProblem> found = problems.isEmpty() ? List.of() : problems.problems();
    if (!found.isEmpty() && validation == FieldValidation.STRICT) {
      throw new StrictDecodingException(found, problems.omitted());
    }
    TypeAccessor accessor = TypeAccessor.of(object.getClass());
    String apiVersion = accessor.apiVersion(object);
    if (apiVersion == null || apiVersion.isEmpty()) {
      // The document left it out; the caller named the class.
      accessor.setApiVersion(object, gvk.apiVersion());
    }
    String kind = accessor.kind(object);
    if (kind == null || kind.isEmpty()) {
      accessor.setKind(object, gvk.kind());
    }
    if (defaulting) {
      factory.scheme().applyDefaults(object);
    }
    if (decodeTarget != null) {
      try {
        object = factory.scheme().convertToVersion(object, decodeTarget);
      } catch (NoConversionException e) {
        throw e; // a scheme without the conversion: the program's mistake, not the input's
      } catch (ConversionException e) {
        // A value the document's version holds but the target cannot: bad input, with its place.
        String path = e.path();
        int[] at = path.isEmpty() ? FieldLocations.UNKNOWN : locator.locate(path);
        throw new DecodeException(
            (path.isEmpty() ? "the document" : "field " + quote(path))
                + ": "
                + e.problem()
                + (at[0] > 0 ? " (line " + at[0] + ", column " + at[1] + ")" : ""),
            path,
            at[0],
            at[1],
            e);
      }
      KindResolution.checkExpected(gvk, object.getClass(), expected);
    }
    return new Decoded<>(
        expected.cast(object), gvk, validation == FieldValidation.WARN ? found : List.of());
  }

  // ---------------------------------------------------------------------------------- encoding

  /**
   * Encodes an object as the kind {@link Scheme#kindFor} gives it, {@code apiVersion} and {@code
   * kind} first. The object is not changed.
   *
   * @param object the object
   * @return UTF-8 JSON or YAML
   * @throws dev.machinery.core.runtime.NotRegisteredException if the object's type is not
   *     registered
   * @throws dev.machinery.core.runtime.AmbiguousKindException if its type has several kinds and the
   *     object names none
   * @throws EncodeException if a value cannot be written
   */
  public byte[] encode(Object object) {
    return encoder.encode(Objects.requireNonNull(object, "object"));
  }

  /**
   * Encodes an object as a string.
   *
   * @param object the object
   * @return JSON or YAML text
   * @throws EncodeException as {@link #encode(Object)}
   */
  public String encodeToString(Object object) {
    return new String(encode(object), StandardCharsets.UTF_8);
  }

  /**
   * Encodes an object to a stream, which is flushed but not closed.
   *
   * @param object the object
   * @param out the destination
   * @throws EncodeException as {@link #encode(Object)}, or if the stream fails
   */
  public void encode(Object object, OutputStream out) {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(out, "out");
    encoder.encode(object, out);
  }
}
