package dev.machinery.core.codec;

import static dev.machinery.core.internal.Text.quote;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.machinery.core.internal.Surrogates;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Decodes JSON for a {@link Codec}: one object, several objects written one after another, the
 * items of a {@code v1 List}, and lists from a stream in the memory of one item. The type fields
 * are read first when they come first; when they come later, {@link RootTypeScanner} finds them in
 * one pass over the bytes. Immutable; thread-safe.
 */
final class JsonDecoder implements FormatDecoder {
  private final Binder binder;
  private final CodecFactory factory;

  JsonDecoder(Binder binder) {
    this.binder = binder;
    this.factory = binder.factory();
  }

  @Override
  public String name() {
    return "JSON";
  }

  @Override
  public String maxBytesName() {
    return "maxJsonBytes";
  }

  @Override
  public int maxBytes() {
    return factory.limits().maxJsonBytes();
  }

  @Override
  public <T> ItemStream<T> decodeItems(Codec codec, InputStream in, Class<T> type) {
    return new ItemStream<>(codec, in, type, factory.limits());
  }

  @Override
  public List<Decoded<Object>> decodeAll(byte[] body, int length) {
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
      if (type != null && binder.isList(type[0], type[1])) {
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

  @Override
  public <T> Decoded<T> decode(byte[] data, int length, Class<T> expected) {
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
      return bindJson(data, start, length, problems, binder.findsDuplicates(), expected);
    } finally {
      Binder.restore(outer);
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
        if (Binder.API_VERSION.equals(name)) {
          apiVersion = typeField(p, name, apiVersion);
        } else if (Binder.KIND.equals(name)) {
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
      CodecFactory.Resolved resolved = binder.resolve(apiVersion, kind, expected);
      GroupVersionKind gvk = resolved.kind;
      Class<?> type = resolved.type;
      Object object;
      if (buffer != null) {
        buffer.writeEndObject();
        source = buffer.asParser(p);
        source.nextToken();
        object = binder.bind(source, type);
      } else if (token == JsonToken.END_OBJECT) {
        object = binder.emptyObject(gvk, type);
      } else {
        object = binder.bind(p, type);
      }
      checkNoTrailingData(p);
      resolved.accessor.setApiVersion(object, apiVersion);
      resolved.accessor.setKind(object, kind);
      return binder.finish(
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
    CodecFactory.Resolved resolved = binder.resolve(type[0], type[1], expected);
    JsonParser p = null;
    try {
      p =
          (findDuplicates ? factory.duplicateFindingJsonFactory : factory.jsonFactory)
              .createParser(data, start, length - start);
      p.nextToken();
      Object object = binder.bind(p, resolved.type);
      checkNoTrailingData(p);
      resolved.accessor.setApiVersion(object, type[0]);
      resolved.accessor.setKind(object, type[1]);
      return binder.finish(
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
      throw Binder.duplicateTypeField(name);
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
}
