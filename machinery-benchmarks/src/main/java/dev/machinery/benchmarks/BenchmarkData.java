package dev.machinery.benchmarks;

import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The benchmark document and the scheme of its types. Stateless. */
public final class BenchmarkData {
  /** The document's group version. */
  public static final GroupVersion APPS_V1 = GroupVersion.of("apps", "v1");

  private static final String TYPE_FIELDS = "\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\"";

  private BenchmarkData() {}

  /**
   * Returns the benchmark document as it is stored: compact JSON, {@code kind} and {@code
   * apiVersion} first.
   *
   * @return the bytes
   */
  public static byte[] deploymentJson() {
    try (InputStream in = BenchmarkData.class.getResourceAsStream("deployment-apps-v1.json")) {
      if (in == null) {
        throw new IllegalStateException("deployment-apps-v1.json is missing");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Returns the same document with {@code kind} and {@code apiVersion} moved to the end.
   *
   * @return the bytes
   */
  public static byte[] deploymentJsonTypeLast() {
    String json = new String(deploymentJson(), StandardCharsets.UTF_8).strip();
    String head = "{" + TYPE_FIELDS + ",";
    if (!json.startsWith(head)) {
      throw new IllegalStateException("the benchmark document no longer starts with its type");
    }
    return ("{" + json.substring(head.length(), json.length() - 1) + "," + TYPE_FIELDS + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Builds the scheme of the benchmark's types.
   *
   * @return the scheme
   */
  public static Scheme scheme() {
    return Scheme.builder().addKnownTypes(APPS_V1, Deployment.class).build();
  }
}
