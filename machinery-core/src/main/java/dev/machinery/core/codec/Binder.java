package dev.machinery.core.codec;

import static dev.machinery.core.internal.Text.quote;

import com.fasterxml.jackson.core.JsonParser;
import dev.machinery.conversion.ConversionException;
import dev.machinery.conversion.NoConversionException;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.TypeAccessor;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.IOException;
import java.util.List;

/**
 * What the decoders of every format share under one codec's settings: the kind and class a
 * document's type fields resolve to, binding with the format's mapper, and finishing a decoded
 * object (field problems by the validation mode, type fields, defaults, conversion). Immutable;
 * thread-safe.
 */
final class Binder {
  static final String API_VERSION = MachineryModule.API_VERSION;
  static final String KIND = MachineryModule.KIND;

  private final CodecFactory factory;
  private final Codec.Format format;
  private final FieldValidation validation;
  private final boolean defaulting;
  private final GroupVersioner decodeTarget;
  private final GroupVersionKind defaultKind;

  Binder(
      CodecFactory factory,
      Codec.Format format,
      FieldValidation validation,
      boolean defaulting,
      GroupVersioner decodeTarget,
      GroupVersionKind defaultKind) {
    this.factory = factory;
    this.defaultKind = defaultKind;
    this.format = format;
    this.validation = validation;
    this.defaulting = defaulting;
    this.decodeTarget = decodeTarget;
  }

  CodecFactory factory() {
    return factory;
  }

  /** Whether duplicate fields are looked for: in every mode but {@code IGNORE}. */
  boolean findsDuplicates() {
    return validation != FieldValidation.IGNORE;
  }

  /** The kind and class a document's type fields resolve to. */
  CodecFactory.Resolved resolve(String apiVersion, String kind, Class<?> expected) {
    if (defaultKind != null) {
      // Go's decoder fills what a document leaves out from the defaults it is given.
      if (apiVersion == null || apiVersion.isEmpty()) {
        apiVersion = defaultKind.apiVersion();
      }
      if (kind == null || kind.isEmpty()) {
        kind = defaultKind.kind();
      }
    }
    return KindResolution.resolve(factory, apiVersion, kind, expected, decodeTarget != null);
  }

  /** Puts back the problem collector of an enclosing decode, or none. */
  static void restore(ProblemCollector outer) {
    if (outer == null) {
      ProblemCollector.CURRENT.remove();
    } else {
      ProblemCollector.CURRENT.set(outer);
    }
  }

  static DecodeException duplicateTypeField(String name) {
    return new DecodeException(
        "duplicate field " + quote(name) + ": a document names its apiVersion and kind once", name);
  }

  /** Whether a document's type is Kubernetes' generic {@code v1 List}, which it expands. */
  boolean isList(String apiVersion, String kind) {
    return "v1".equals(apiVersion)
        && "List".equals(kind)
        && !factory.scheme().recognizes(GroupVersionKind.of("", "v1", "List"));
  }

  /** The object of a document that holds nothing but its type fields. */
  Object emptyObject(GroupVersionKind gvk, Class<?> type) throws IOException {
    if (factory.scheme().typeFor(gvk).orElse(null) == type) {
      return factory.scheme().newObject(gvk);
    }
    Object object = factory.reader(format, type).readValue("{}");
    TypeAccessor accessor = TypeAccessor.of(type);
    accessor.setApiVersion(object, gvk.apiVersion());
    accessor.setKind(object, gvk.kind());
    return object;
  }

  Object bind(JsonParser source, Class<?> type) throws IOException {
    // Deserializers written for plain Jackson read subtrees through the parser's codec
    // (fabric8's Quantity calls p.getCodec().readTree(p)): give them the library's mapper.
    source.setCodec(factory.mapper(format));
    return factory.reader(format, type).readValue(source);
  }

  <T> Decoded<T> finish(
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
}
