package dev.machinery.benchmarks;

import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.conversion.Converter;
import dev.machinery.conversion.StandardConversions;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Collectors;

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

  /**
   * Builds the scheme with the internal form and a second version, {@code apps/v1beta1}, and the
   * generated conversions between them.
   *
   * @return the scheme
   */
  public static Scheme conversionScheme() {
    return Scheme.builder()
        .addKnownTypes(APPS_V1, Deployment.class)
        .addKnownTypes(
            GroupVersion.of("apps", "v1beta1"),
            dev.machinery.benchmarks.apps.v1beta1.Deployment.class)
        .addInternalTypes("apps", dev.machinery.benchmarks.apps.internal.Deployment.class)
        .addConversions(
            new dev.machinery.benchmarks.apps.v1.GeneratedConversions(),
            new dev.machinery.benchmarks.apps.v1.GeneratedDeepCopy(),
            new dev.machinery.benchmarks.apps.v1beta1.GeneratedConversions(),
            new dev.machinery.benchmarks.apps.v1beta1.GeneratedDeepCopy(),
            new dev.machinery.benchmarks.apps.internal.GeneratedDeepCopy())
        .requireInternalVersions()
        .build();
  }

  /**
   * Builds a converter that serves v1 → internal → v1beta1 with the generic runtime converter
   * (hand-written {@code PodSpec} functions, which it calls for that one class).
   *
   * @return the converter
   */
  public static Converter genericConverter() {
    Converter.Builder builder =
        Converter.builder()
            .add(StandardConversions.registration())
            .add(new dev.machinery.unversioned.meta.v1.GeneratedDeepCopy())
            .addConversion(
                dev.machinery.benchmarks.apps.v1.PodSpec.class,
                dev.machinery.benchmarks.apps.internal.PodSpec.class,
                (in, scope) -> {
                  dev.machinery.benchmarks.apps.internal.PodSpec out =
                      new dev.machinery.benchmarks.apps.internal.PodSpec();
                  out.setContainers(
                      in.getContainers() == null
                          ? null
                          : in.getContainers().stream()
                              .map(
                                  c ->
                                      scope.convert(
                                          c,
                                          dev.machinery.benchmarks.apps.internal.Container.class))
                              .collect(Collectors.toList()));
                  out.setRestartPolicy(in.getRestartPolicy());
                  out.setTerminationGracePeriodSeconds(in.getTerminationGracePeriodSeconds());
                  out.setNodeSelector(
                      in.getNodeSelector() == null
                          ? null
                          : new LinkedHashMap<>(in.getNodeSelector()));
                  out.setServiceAccountName(
                      in.getServiceAccountName() == null || in.getServiceAccountName().isEmpty()
                          ? in.getServiceAccount()
                          : in.getServiceAccountName());
                  return out;
                })
            .addConversion(
                dev.machinery.benchmarks.apps.internal.PodSpec.class,
                dev.machinery.benchmarks.apps.v1beta1.PodSpec.class,
                (in, scope) -> {
                  dev.machinery.benchmarks.apps.v1beta1.PodSpec out =
                      new dev.machinery.benchmarks.apps.v1beta1.PodSpec();
                  out.setContainers(
                      in.getContainers() == null
                          ? null
                          : in.getContainers().stream()
                              .map(
                                  c ->
                                      scope.convert(
                                          c, dev.machinery.benchmarks.apps.v1beta1.Container.class))
                              .collect(Collectors.toList()));
                  out.setRestartPolicy(in.getRestartPolicy());
                  out.setTerminationGracePeriodSeconds(in.getTerminationGracePeriodSeconds());
                  out.setNodeSelector(
                      in.getNodeSelector() == null
                          ? null
                          : new LinkedHashMap<>(in.getNodeSelector()));
                  out.setServiceAccountName(in.getServiceAccountName());
                  out.setServiceAccount(in.getServiceAccountName());
                  return out;
                });
    for (String name :
        List.of(
            "Deployment",
            "DeploymentSpec",
            "DeploymentStatus",
            "DeploymentStrategy",
            "RollingUpdateDeployment",
            "PodTemplateSpec",
            "Container",
            "ContainerPort",
            "EnvVar")) {
      builder.addGenericConversion(type("v1", name), type("internal", name));
      builder.addGenericConversion(type("internal", name), type("v1beta1", name));
    }
    builder.addGenericConversion(
        type("internal", "RollbackConfig"), type("v1beta1", "RollbackConfig"));
    return builder.build();
  }

  private static Class<?> type(String version, String name) {
    try {
      return Class.forName("dev.machinery.benchmarks.apps." + version + "." + name);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }
}
