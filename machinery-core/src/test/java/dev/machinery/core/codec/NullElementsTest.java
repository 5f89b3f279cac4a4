package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.apps.Deployment;
import org.junit.jupiter.api.Test;

/**
 * Issue 12: a null element in a list or map of typed values ({@code ports: [null, 80]}) is a typed
 * error that names the field and the element, in every validation mode; untyped contents keep their
 * nulls.
 */
class NullElementsTest {
  private static final CodecFactory CODECS = CodecFactory.create(TestApi.scheme());
  private static final String PREFIX = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",";

  @Test
  void aNullInAListOfValuesIsRefused() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                CODECS
                    .json()
                    .withFieldValidation(FieldValidation.IGNORE)
                    .decode(
                        PREFIX
                            + "\"spec\":{\"containers\":[{\"name\":\"a\",\"ports\":[80,null]}]}}"));
    assertEquals(
        "field \"spec.containers[0].ports\": element [1] is null, which a list of Integer cannot"
            + " hold (Kubernetes' types hold no null elements) (line 1, column 95)",
        e.getMessage());
    assertEquals("spec.containers[0].ports", e.fieldPath());
  }

  @Test
  void aNullInAListOfObjectsIsRefusedInYamlToo() {
    DecodeException e =
        assertThrows(
            DecodeException.class,
            () ->
                CODECS
                    .yaml()
                    .decode("apiVersion: apps/v1\nkind: Deployment\nspec:\n  containers: [~]\n"));
    assertTrue(
        e.getMessage()
            .startsWith(
                "field \"spec.containers\": element [0] is null, which a list of Container"
                    + " cannot hold"),
        e.getMessage());
  }

  @Test
  void untypedContentsKeepTheirNulls() {
    Deployment d =
        CODECS
            .json()
            .decode(PREFIX + "\"spec\":{\"extra\":{\"a\":null,\"b\":[null]}}}", Deployment.class)
            .object();
    assertTrue(d.getSpec().extra().containsKey("a"));
    assertEquals(java.util.Arrays.asList((Object) null), d.getSpec().extra().get("b"));
  }
}
