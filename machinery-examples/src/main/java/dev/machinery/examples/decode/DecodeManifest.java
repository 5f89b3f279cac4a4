package dev.machinery.examples.decode;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.examples.api.ConfigMap;
import dev.machinery.examples.api.ExampleApi;
import dev.machinery.examples.api.Widget;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Decodes a YAML manifest and prints what it found: the bundled {@code manifest.yaml}, or the file
 * named by the first argument. Stateless.
 */
public final class DecodeManifest {
  private DecodeManifest() {}

  /**
   * Runs the demonstration.
   *
   * @param args an optional path to a YAML manifest
   * @throws IOException if the manifest cannot be read
   */
  public static void main(String[] args) throws IOException {
    byte[] manifest = args.length > 0 ? Files.readAllBytes(Path.of(args[0])) : bundledManifest();
    run(manifest, System.out);
  }

  /**
   * Decodes {@code manifest} and prints a report to {@code out}.
   *
   * @param manifest UTF-8 YAML, one or more documents
   * @param out where to print
   */
  public static void run(byte[] manifest, PrintStream out) {
    CodecFactory codecs = CodecFactory.create(ExampleApi.scheme());
    Codec yaml = codecs.yaml().withFieldValidation(FieldValidation.WARN).withDefaulting(true);
    List<Decoded<Object>> documents;
    try {
      documents = yaml.decodeAll(manifest);
    } catch (DecodeException e) {
      out.println("The manifest could not be decoded: " + e.getMessage());
      return;
    }
    out.println("Found " + documents.size() + " objects:");
    for (Decoded<Object> decoded : documents) {
      out.println("- " + decoded.kind() + ": " + describe(decoded.object()));
      decoded.warnings().forEach(warning -> out.println("    warning: " + warning));
    }
    out.println();
    out.println("The first object as JSON:");
    out.println(codecs.json().pretty().encodeToString(documents.get(0).object()));
    out.println();
    out.println("Strict validation of the same manifest:");
    try {
      codecs.yaml().decodeAll(manifest);
      out.println("  no unknown or duplicate fields");
    } catch (DecodeException e) {
      out.println("  " + e.getMessage());
    }
  }

  private static String describe(Object object) {
    if (object instanceof Widget) {
      Widget widget = (Widget) object;
      Widget.Spec spec = widget.getSpec();
      return "widget "
          + widget.getMetadata().name()
          + (spec == null
              ? ""
              : ", size "
                  + spec.size()
                  + ", colour "
                  + spec.colour()
                  + ", parts "
                  + spec.parts()
                  + ", spares "
                  + spec.spares());
    }
    if (object instanceof ConfigMap) {
      ConfigMap map = (ConfigMap) object;
      return "config map " + map.getMetadata().name() + " with keys " + map.getData().keySet();
    }
    return object.toString();
  }

  private static byte[] bundledManifest() {
    try (InputStream in = DecodeManifest.class.getResourceAsStream("manifest.yaml")) {
      if (in == null) {
        throw new IllegalStateException("the bundled manifest.yaml is missing");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Returns the bundled manifest as text.
   *
   * @return the manifest
   */
  public static String bundledManifestText() {
    return new String(bundledManifest(), StandardCharsets.UTF_8);
  }
}
