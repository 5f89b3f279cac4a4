package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.machinery.core.codec.yaml.YamlEmitter;
import dev.machinery.core.codec.yaml.YamlNumbers;
import dev.machinery.core.internal.Messages;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.runtime.TypeAccessor;
import dev.machinery.core.schema.GroupVersionKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * The encoding half of a {@link Codec}: the object converted to the version the codec encodes to,
 * its kind taken from the Scheme (or, for an unregistered class, from the object), and written by
 * the factory's writer with {@code apiVersion} and {@code kind} first. Immutable; thread-safe.
 */
final class Encoder {
  private final CodecFactory factory;
  private final Codec.Format format;
  private final boolean pretty;
  private final GroupVersioner encodeTarget;

  Encoder(CodecFactory factory, Codec.Format format, boolean pretty, GroupVersioner encodeTarget) {
    this.factory = factory;
    this.format = format;
    this.pretty = pretty;
    this.encodeTarget = encodeTarget;
  }

  byte[] encode(Object object) {
    Object converted = toEncodeVersion(object);
    GroupVersionKind gvk = kindToEncode(converted);
    try {
      ObjectWriter writer = writerFor(converted, gvk);
      if (format == Codec.Format.YAML) {
        byte[] yaml = YamlEmitter.write(writer, converted);
        if (yaml != null) {
          return yaml;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        writeYamlWithJackson(writer, converted, bytes);
        return bytes.toByteArray();
      }
      return writer.writeValueAsBytes(converted);
    } catch (IOException e) {
      throw encodeFailed(gvk, e);
    }
  }

  byte[] encodeItem(Object object) {
    try {
      return factory.writer(Codec.Format.JSON, object.getClass()).writeValueAsBytes(object);
    } catch (IOException e) {
      throw new EncodeException(
          "could not encode "
              + object.getClass().getName()
              + ": "
              + Messages.sanitize(e.getMessage()),
          e);
    }
  }

  void encode(Object object, OutputStream out) {
    Object converted = toEncodeVersion(object);
    GroupVersionKind gvk = kindToEncode(converted);
    try {
      ObjectWriter writer = writerFor(converted, gvk);
      if (format == Codec.Format.YAML) {
        byte[] yaml = YamlEmitter.write(writer, converted);
        if (yaml != null) {
          out.write(yaml);
          return;
        }
        writeYamlWithJackson(writer, converted, new NonClosingOutputStream(out));
        return;
      }
      writer.writeValue(new NonClosingOutputStream(out), converted);
    } catch (IOException e) {
      throw encodeFailed(gvk, e);
    }
  }

  /**
   * Writes what the emitter declines through Jackson's YAML generator, its floating-point numbers
   * in the form YAML 1.1 readers read as floats ({@link YamlNumbers}).
   */
  private static void writeYamlWithJackson(ObjectWriter writer, Object value, OutputStream out)
      throws IOException {
    try (JsonGenerator yaml =
        new YamlNumbers.Generator(writer.getFactory().createGenerator(out, JsonEncoding.UTF8))) {
      writer.writeValue(yaml, value);
    }
  }

  /**
   * The kind the Scheme gives a registered object; an object of a class the Scheme does not know
   * (an unstructured object) is written as the kind it names itself.
   */
  private GroupVersionKind kindToEncode(Object object) {
    Scheme scheme = factory.scheme();
    if (!scheme.kindsFor(object.getClass()).isEmpty()) {
      return scheme.kindFor(object);
    }
    TypeAccessor accessor =
        TypeAccessor.find(object.getClass())
            .orElseThrow(
                () ->
                    new EncodeException(
                        "cannot encode "
                            + object.getClass().getName()
                            + ": the class is not registered in the scheme and "
                            + "carries no apiVersion and kind",
                        null));
    String apiVersion = accessor.apiVersion(object);
    String kind = accessor.kind(object);
    if (apiVersion == null || apiVersion.isEmpty() || kind == null || kind.isEmpty()) {
      throw new EncodeException(
          "cannot encode "
              + object.getClass().getName()
              + ": the class is not registered in the scheme and the object does not name its"
              + " apiVersion and kind",
          null);
    }
    return GroupVersionKind.fromApiVersionAndKind(apiVersion, kind);
  }

  private Object toEncodeVersion(Object object) {
    if (encodeTarget == null) {
      return object;
    }
    Scheme scheme = factory.scheme();
    List<GroupVersionKind> kinds = scheme.kindsFor(object.getClass());
    if (scheme.isUnversioned(object.getClass())
        || kinds.isEmpty()
        || encodeTarget
            .kindForGroupVersionKinds(kinds)
            .equals(Optional.of(scheme.kindFor(object)))) {
      return object;
    }
    return scheme.convertToVersion(object, encodeTarget);
  }

  private ObjectWriter writerFor(Object object, GroupVersionKind gvk) {
    ObjectWriter writer =
        factory.writer(format, object.getClass()).withAttribute(MachineryModule.ROOT_KIND, gvk);
    return pretty && format == Codec.Format.JSON ? writer.with(factory.prettyPrinter) : writer;
  }

  private static EncodeException encodeFailed(GroupVersionKind gvk, IOException e) {
    return new EncodeException(
        "could not encode " + gvk + ": " + Messages.sanitize(e.getMessage()), e);
  }

  /** Keeps Jackson from closing the caller's stream. */
  private static final class NonClosingOutputStream extends java.io.FilterOutputStream {
    NonClosingOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
