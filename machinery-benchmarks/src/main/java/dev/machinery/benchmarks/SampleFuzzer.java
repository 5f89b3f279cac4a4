package dev.machinery.benchmarks;

import dev.machinery.testing.Fuzzer;

/**
 * The fuzzer of the benchmark Deployment, with the fuzz functions its conversions need (as
 * Kubernetes' fuzzer has them): the deprecated {@code serviceAccount} mirrors {@code
 * serviceAccountName}, and optional replicas are always set (the internal form has no "unset").
 */
public final class SampleFuzzer {
  private SampleFuzzer() {}

  /**
   * Returns the fuzzer.
   *
   * @return the fuzzer
   */
  public static Fuzzer create() {
    return Fuzzer.builder()
        .forType(
            dev.machinery.benchmarks.apps.v1.PodSpec.class,
            context -> {
              dev.machinery.benchmarks.apps.v1.PodSpec spec =
                  context.fuzzByRules(dev.machinery.benchmarks.apps.v1.PodSpec.class);
              if (spec.getServiceAccountName() == null || spec.getServiceAccountName().isEmpty()) {
                spec.setServiceAccountName(context.string());
              }
              spec.setServiceAccount(spec.getServiceAccountName());
              return spec;
            })
        .forType(
            dev.machinery.benchmarks.apps.v1beta1.PodSpec.class,
            context -> {
              dev.machinery.benchmarks.apps.v1beta1.PodSpec spec =
                  context.fuzzByRules(dev.machinery.benchmarks.apps.v1beta1.PodSpec.class);
              if (spec.getServiceAccountName() == null || spec.getServiceAccountName().isEmpty()) {
                spec.setServiceAccountName(context.string());
              }
              spec.setServiceAccount(spec.getServiceAccountName());
              return spec;
            })
        .forProperty(
            dev.machinery.benchmarks.apps.v1.DeploymentSpec.class,
            "replicas",
            context -> context.random().nextInt())
        .forProperty(
            dev.machinery.benchmarks.apps.v1beta1.DeploymentSpec.class,
            "replicas",
            context -> context.random().nextInt())
        .build();
  }
}
