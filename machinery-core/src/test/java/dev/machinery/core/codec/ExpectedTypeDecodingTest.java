package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.TestObject;
import dev.machinery.core.testapi.core.Service;
import org.junit.jupiter.api.Test;

/** Decoding into a class the caller names: type fields defaulted, unregistered classes bound. */
class ExpectedTypeDecodingTest {
  private static final Codec JSON = CodecFactory.create(TestApi.scheme()).json();

  /** A class the Scheme does not know, as an unstructured holder would be. */
  public static final class Anything extends TestObject {
    private int port;

    public int getPort() {
      return port;
    }

    public void setPort(int port) {
      this.port = port;
    }
  }

  @Test
  void aMissingApiVersionIsTakenFromTheExpectedClass() {
    Decoded<Service> decoded = JSON.decode("{\"kind\":\"Service\",\"port\":80}", Service.class);
    assertEquals("v1", decoded.object().getApiVersion());
    assertEquals("/v1, Kind=Service", decoded.kind().toString());
    assertEquals(81, JSON.decode("{\"port\":81}", Service.class).object().getPort());
  }

  @Test
  void withoutAnExpectedClassTheTypeFieldsAreStillRequired() {
    MissingVersionException error =
        assertThrows(
            MissingVersionException.class,
            () -> JSON.decode("{\"kind\":\"Service\",\"port\":80}", ApiObject.class));
    assertEquals(
        "the document of kind \"Service\" has no apiVersion; expected \"group/version\", or \"v1\""
            + " for the core group",
        error.getMessage());
  }

  @Test
  void aClassTheSchemeDoesNotKnowBindsTheKindTheDocumentNames() {
    Anything decoded =
        JSON.decode("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"port\":8}", Anything.class)
            .object();
    assertEquals(8, decoded.getPort());
    assertEquals(
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"port\":8}", JSON.encodeToString(decoded));
    Anything bare =
        JSON.decode("{\"apiVersion\":\"x.dev/v1\",\"kind\":\"Nothing\"}", Anything.class).object();
    assertEquals("x.dev/v1", bare.getApiVersion());
    assertThrows(MissingKindException.class, () -> JSON.decode("{\"port\":1}", Anything.class));
  }
}
