package dev.machinery.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.conversion.ConversionException;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.testapi.compute.Pod;
import org.junit.jupiter.api.Test;

/**
 * Identically named kinds in different groups convert into each other only when declared: here by
 * registering one internal class as the internal Pod of both groups.
 */
class CrossGroupConversionTest {
  private static final GroupVersion COMPUTE = GroupVersion.of("compute", "v1");
  private static final GroupVersion EXPERIMENTAL = GroupVersion.of("experimental", "v1alpha1");

  private static Scheme.Builder pods() {
    return Scheme.builder()
        .addKnownTypes(COMPUTE, Pod.class)
        .addKnownTypes(EXPERIMENTAL, dev.machinery.core.testapi.experimental.Pod.class)
        .addConversion(
            Pod.class,
            dev.machinery.core.testapi.podinternal.Pod.class,
            (in, scope) -> {
              dev.machinery.core.testapi.podinternal.Pod out =
                  new dev.machinery.core.testapi.podinternal.Pod();
              out.setNode(in.getNode());
              return out;
            })
        .addConversion(
            dev.machinery.core.testapi.podinternal.Pod.class,
            dev.machinery.core.testapi.experimental.Pod.class,
            (in, scope) -> {
              dev.machinery.core.testapi.experimental.Pod out =
                  new dev.machinery.core.testapi.experimental.Pod();
              out.setNode(in.getNode());
              return out;
            })
        .addConversion(
            dev.machinery.core.testapi.podinternal.Pod.class,
            Pod.class,
            (in, scope) -> {
              Pod out = new Pod();
              out.setNode(in.getNode());
              return out;
            })
        .addConversion(
            dev.machinery.core.testapi.experimental.Pod.class,
            dev.machinery.core.testapi.podinternal.Pod.class,
            (in, scope) -> {
              dev.machinery.core.testapi.podinternal.Pod out =
                  new dev.machinery.core.testapi.podinternal.Pod();
              out.setNode(in.getNode());
              return out;
            });
  }

  private static Pod computePod() {
    Pod pod = new Pod();
    pod.setApiVersion("compute/v1");
    pod.setKind("Pod");
    pod.setNode("n1");
    return pod;
  }

  @Test
  void convertsAcrossGroupsThroughASharedInternalType() {
    Scheme scheme =
        pods()
            .addKnownType(
                GroupVersion.internal("compute").withKind("Pod"),
                dev.machinery.core.testapi.podinternal.Pod.class)
            .addKnownType(
                GroupVersion.internal("experimental").withKind("Pod"),
                dev.machinery.core.testapi.podinternal.Pod.class)
            .build();
    ApiObject converted =
        (ApiObject) scheme.convertToVersion(computePod(), GroupVersioner.of(EXPERIMENTAL));
    assertEquals("experimental/v1alpha1", converted.getApiVersion());
    assertEquals("n1", ((dev.machinery.core.testapi.experimental.Pod) converted).getNode());
  }

  @Test
  void refusesAcrossGroupsWithoutADeclaration() {
    Scheme scheme =
        pods()
            .addKnownType(
                GroupVersion.internal("compute").withKind("Pod"),
                dev.machinery.core.testapi.podinternal.Pod.class)
            .build();
    ConversionException error =
        assertThrows(
            ConversionException.class,
            () -> scheme.convertToVersion(computePod(), GroupVersioner.of(EXPERIMENTAL)));
    assertEquals(
        "\"compute/v1, Kind=Pod\" cannot be converted to experimental/v1alpha1: its internal"
            + " form is registered for \"compute\" only",
        error.getMessage());
  }
}
