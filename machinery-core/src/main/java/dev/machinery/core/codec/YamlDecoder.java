package dev.machinery.core.codec;

import static dev.machinery.core.internal.Text.quote;

import com.fasterxml.jackson.core.JsonToken;
import dev.machinery.core.codec.yaml.YamlNode;
import dev.machinery.core.codec.yaml.YamlReader;
import dev.machinery.core.codec.yaml.YamlTreeParser;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Decodes YAML for a {@link Codec}: the stream read whole by {@link YamlReader} into documents of
 * nodes, each bound through a {@link YamlTreeParser}; {@code decode} takes the one document of a
 * stream, {@code decodeAll} every non-empty one and the items of {@code v1 List}s. Immutable;
 * thread-safe.
 */
final class YamlDecoder implements FormatDecoder {
  private final Binder binder;
  private final CodecFactory factory;

  YamlDecoder(Binder binder) {
    this.binder = binder;
    this.factory = binder.factory();
  }

  @Override
  public String name() {
    return "YAML";
  }

  @Override
  public String maxBytesName() {
    return "maxYamlBytes";
  }

  @Override
  public int maxBytes() {
    return factory.limits().maxYamlBytes();
  }

  @Override
  public <T> ItemStream<T> decodeItems(Codec codec, InputStream in, Class<T> type) {
    // YAML is read whole, under maxYamlBytes, and handed out item by item.
    return new ItemStream<>(codec, codec.decodeAll(in), type);
  }

  @Override
  public <T> Decoded<T> decode(byte[] data, int length, Class<T> expected) {
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

  @Override
  public List<Decoded<Object>> decodeAll(byte[] data, int length) {
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
    int apiVersion = mapping.keys.indexOf(Binder.API_VERSION);
    int kind = mapping.keys.indexOf(Binder.KIND);
    if (apiVersion < 0
        || kind < 0
        || !(mapping.values.get(apiVersion) instanceof YamlNode.Scalar)
        || !(mapping.values.get(kind) instanceof YamlNode.Scalar)
        || !binder.isList(
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
      if (path.equals(Binder.API_VERSION) || path.equals(Binder.KIND)) {
        throw Binder.duplicateTypeField(path);
      }
      problems.duplicate(path);
    }
    problems.omit(document.omittedDuplicates);
    YamlNode.Mapping root = (YamlNode.Mapping) document.root;
    String apiVersion = yamlTypeField(root, Binder.API_VERSION);
    String kind = yamlTypeField(root, Binder.KIND);
    CodecFactory.Resolved resolved = binder.resolve(apiVersion, kind, expected);
    GroupVersionKind gvk = resolved.kind;
    Class<?> type = resolved.type;
    YamlTreeParser parser = new YamlTreeParser(root, factory.limits().maxNestingDepth());
    ProblemCollector outer = ProblemCollector.CURRENT.get();
    ProblemCollector.CURRENT.set(problems);
    try {
      parser.nextToken();
      Object object = binder.bind(parser, type);
      resolved.accessor.setApiVersion(object, apiVersion);
      resolved.accessor.setKind(object, kind);
      return binder.finish(
          object, gvk, problems, expected, path -> FieldLocations.inYaml(root, path));
    } catch (IOException e) {
      throw JacksonErrors.translate(e, parser, factory.limits());
    } finally {
      Binder.restore(outer);
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
}
