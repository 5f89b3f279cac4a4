package dev.machinery.unversioned.protobuf;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Kubernetes' own {@code generated.proto} files, shipped with this library: the 66 files of release
 * 1.33 (k8s.io/api, k8s.io/apimachinery and k8s.io/apiextensions-apiserver at {@code v0.33.0},
 * Apache License 2.0, The Kubernetes Authors), 1,159 messages, each file at the path Kubernetes
 * imports it by. Pass the schema to {@link SchemaProtobufCodec#create(ProtoSchema)}.
 *
 * <p>The files are read and parsed once, on first use; safe for concurrent use.
 */
public final class KubeProtos {
  private static final String ROOT = "kube-api/v1.33/";

  private KubeProtos() {}

  /**
   * Returns the schema of Kubernetes 1.33's built-in kinds.
   *
   * @return the parsed and resolved files, the same instance on every call
   */
  public static ProtoSchema v1_33() {
    return V133.SCHEMA;
  }

  /**
   * Returns the paths of the files of {@link #v1_33()}.
   *
   * @return the paths, such as {@code k8s.io/api/core/v1/generated.proto}, sorted
   */
  public static List<String> v1_33Files() {
    return V133.FILES;
  }

  /**
   * Whether Kubernetes 1.33's Go type of a message holds a scalar field without a pointer and
   * writes it {@code omitempty}, so that its zero value ({@code ""}, {@code 0}, {@code false}) is
   * left out of the JSON Go writes: a Pod's {@code hostNetwork: false} is not written, a
   * ConfigMap's {@code immutable: false} (a pointer) is.
   *
   * @param message the message's full name, such as {@code k8s.io.api.core.v1.PodSpec}
   * @param field the field's JSON name, such as {@code hostNetwork}
   * @return true when Go leaves the field's zero value out; false when it writes it, and for a
   *     message that is not one of Kubernetes' types or a field that is not a scalar
   */
  public static boolean omitsZero(String message, String field) {
    return KubeJson.omitsZero(message, field);
  }

  /** Loaded on first use: the JVM runs this class's initializer once. */
  private static final class V133 {
    static final List<String> FILES = read("index.txt").lines().filter(l -> !l.isBlank()).toList();
    static final ProtoSchema SCHEMA = load();

    private static ProtoSchema load() {
      ProtoSchema.Builder builder = ProtoSchema.builder();
      for (String path : FILES) {
        builder.add(path, read(path));
      }
      return builder.build();
    }

    private static String read(String path) {
      try (InputStream in = KubeProtos.class.getResourceAsStream(ROOT + path)) {
        if (in == null) {
          throw new IllegalStateException("the library's resource " + ROOT + path + " is missing");
        }
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("reading the library's resource " + ROOT + path, e);
      }
    }
  }
}
