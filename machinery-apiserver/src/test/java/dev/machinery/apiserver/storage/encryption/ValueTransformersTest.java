package dev.machinery.apiserver.storage.encryption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The providers' ciphers and the prefix list, with the cases of Kubernetes' {@code aes_test.go} and
 * {@code secretbox_test.go}: the recorded AES-GCM ciphertext of an older release still reads, key
 * rotation through prefixes (the value read with the second entry is stale), AES-GCM binds the
 * value to its context while AES-CBC and secretbox do not, and every length round-trips.
 */
class ValueTransformersTest {
  private static final byte[] CONTEXT = bytes("authenticated_data");

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** kube's TestGCMLegacyDataCompatibility: output recorded from an older kube-apiserver. */
  @Test
  void aesGcmReadsKubernetesRecordedCiphertext() {
    byte[] legacy =
        HexFormat.of()
            .parseHex(
                "9f27c8fcea8a58c467d8e437dbf2d85955f9b4bd912f4ef967d788a0cb07797dac0a3f0a0845605ca85ac8562b4ae1");
    ValueTransformer gcm = new AesGcm(bytes("snorlax_awesomes"));
    ValueTransformer.Read read = gcm.fromStorage(legacy, bytes("bamboo"));
    assertEquals("pandas are the best", new String(read.value(), StandardCharsets.UTF_8));
    assertThrows(ValueTransformException.class, () -> gcm.fromStorage(legacy, bytes("panda")));
  }

  static Stream<Arguments> ciphers() {
    return Stream.of(
        Arguments.of(
            "aesgcm",
            (Function<byte[], ValueTransformer>) AesGcm::new,
            bytes("abcdefghijklmnopabcdefghijklmnop"),
            bytes("0123456789abcdef0123456789abcdef"),
            true),
        Arguments.of(
            "aescbc",
            (Function<byte[], ValueTransformer>) AesCbc::new,
            bytes("abcdefghijklmnop"),
            bytes("0123456789abcdef"),
            false),
        Arguments.of(
            "secretbox",
            (Function<byte[], ValueTransformer>) Secretbox::new,
            bytes("abcdefghijklmnopqrstuvwxyz123456"),
            bytes("98765432109876543210987654321098"),
            false));
  }

  /** kube's TestGCMKeyRotation, TestCBCKeyRotation and TestSecretboxKeyRotation. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("ciphers")
  void keyRotationThroughPrefixes(
      String name,
      Function<byte[], ValueTransformer> cipher,
      byte[] key1,
      byte[] key2,
      boolean authenticates) {
    Prefixes p =
        new Prefixes(
            List.of(
                new Prefixes.Entry("first:", cipher.apply(key1)),
                new Prefixes.Entry("second:", cipher.apply(key2))),
            "test error");
    byte[] out = p.toStorage(bytes("firstvalue"), CONTEXT);
    assertTrue(new String(out, StandardCharsets.ISO_8859_1).startsWith("first:"));
    ValueTransformer.Read from = p.fromStorage(out, CONTEXT);
    assertFalse(from.stale());
    assertArrayEquals(bytes("firstvalue"), from.value());

    if (authenticates) {
      assertThrows(
          ValueTransformException.class, () -> p.fromStorage(out, bytes("incorrect_context")));
    } else {
      assertArrayEquals(
          bytes("firstvalue"), p.fromStorage(out, bytes("incorrect_context")).value());
    }

    Prefixes reversed =
        new Prefixes(
            List.of(
                new Prefixes.Entry("second:", cipher.apply(key2)),
                new Prefixes.Entry("first:", cipher.apply(key1))),
            "test error");
    ValueTransformer.Read again = reversed.fromStorage(out, CONTEXT);
    assertTrue(again.stale());
    assertArrayEquals(bytes("firstvalue"), again.value());

    ValueTransformException none =
        assertThrows(
            ValueTransformException.class, () -> reversed.fromStorage(bytes("third:abc"), CONTEXT));
    assertEquals("test error", none.getMessage());
  }

  /** kube's TestRoundTrip: every length around the block sizes, for each key size. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("ciphers")
  void everyLengthRoundTrips(
      String name,
      Function<byte[], ValueTransformer> cipher,
      byte[] key1,
      byte[] key2,
      boolean authenticates) {
    ValueTransformer t = cipher.apply(key1);
    for (int length = 0; length < 1030; length += (length < 70 ? 1 : 97)) {
      byte[] original = new byte[length];
      for (int i = 0; i < length; i++) {
        original[i] = (byte) (i * 7 + 3);
      }
      byte[] stored = t.toStorage(original, CONTEXT);
      assertFalse(
          length > 8
              && new String(stored, StandardCharsets.ISO_8859_1)
                  .contains(new String(original, StandardCharsets.ISO_8859_1)),
          "the value is not stored in the clear");
      assertArrayEquals(original, t.fromStorage(stored, CONTEXT).value(), "length " + length);
    }
  }

  @Test
  void aesKeysOfEverySizeWork() {
    for (int size : new int[] {16, 24, 32}) {
      byte[] key = new byte[size];
      assertArrayEquals(
          bytes("v"),
          new AesGcm(key)
              .fromStorage(new AesGcm(key).toStorage(bytes("v"), CONTEXT), CONTEXT)
              .value());
      assertArrayEquals(
          bytes("v"),
          new AesCbc(key)
              .fromStorage(new AesCbc(key).toStorage(bytes("v"), CONTEXT), CONTEXT)
              .value());
    }
  }

  /** The layouts: a 16-byte IV for AES-CBC, 12-byte nonce and 16-byte tag for AES-GCM. */
  @Test
  void layoutsAreKubernetes() {
    byte[] key = bytes("0123456789abcdef");
    assertEquals(16 + 16, new AesCbc(key).toStorage(bytes("0123456789abcde"), CONTEXT).length);
    assertEquals(16 + 32, new AesCbc(key).toStorage(bytes("0123456789abcdef"), CONTEXT).length);
    assertEquals(12 + 5 + 16, new AesGcm(key).toStorage(bytes("hello"), CONTEXT).length);
    assertEquals(
        24 + 16 + 5,
        new Secretbox(bytes("abcdefghijklmnopqrstuvwxyz123456"))
            .toStorage(bytes("hello"), CONTEXT)
            .length);
  }

  /** kube's cbc errors: too short, not whole blocks, padding that is not PKCS#7. */
  @Test
  void aesCbcRefusesMalformedData() {
    AesCbc cbc = new AesCbc(bytes("0123456789abcdef"));
    assertEquals(
        "the stored data was shorter than the required size",
        assertThrows(ValueTransformException.class, () -> cbc.fromStorage(new byte[8], CONTEXT))
            .getMessage());
    assertEquals(
        "the stored data is not a multiple of the block size",
        assertThrows(ValueTransformException.class, () -> cbc.fromStorage(new byte[20], CONTEXT))
            .getMessage());
    AesCbc other = new AesCbc(bytes("fedcba9876543210"));
    byte[] stored = cbc.toStorage(bytes("some value of some length"), CONTEXT);
    // Another key decrypts to noise: its last byte is almost never a valid padding of this length.
    int refused = 0;
    for (int i = 0; i < 20; i++) {
      try {
        other.fromStorage(cbc.toStorage(bytes("some value of some length"), CONTEXT), CONTEXT);
      } catch (ValueTransformException e) {
        refused++;
      }
    }
    assertTrue(refused >= 15, refused + " of 20 refused");
    assertArrayEquals(bytes("some value of some length"), cbc.fromStorage(stored, CONTEXT).value());
  }

  @Test
  void identityRefusesEncryptedData() {
    assertEquals(
        "identity transformer tried to read encrypted data",
        assertThrows(
                ValueTransformException.class,
                () -> Identity.INSTANCE.fromStorage(bytes("k8s:enc:aescbc:v1:x:abc"), CONTEXT))
            .getMessage());
    assertArrayEquals(bytes("{}"), Identity.INSTANCE.fromStorage(bytes("{}"), CONTEXT).value());
  }

  /**
   * An identity entry first reads plain values and passes encrypted ones on to the next entry, as
   * when a cluster moves away from encryption.
   */
  @Test
  void identityFirstPassesEncryptedValuesOn() {
    AesCbc cbc = new AesCbc(bytes("0123456789abcdef"));
    Prefixes p =
        new Prefixes(
            List.of(
                new Prefixes.Entry(new byte[0], Identity.INSTANCE),
                new Prefixes.Entry(
                    "k8s:enc:aescbc:v1:",
                    new Prefixes(List.of(new Prefixes.Entry("k:", cbc)), "no key"))),
            "no matching prefix found");
    byte[] encrypted =
        new Prefixes(
                List.of(
                    new Prefixes.Entry(
                        "k8s:enc:aescbc:v1:",
                        new Prefixes(List.of(new Prefixes.Entry("k:", cbc)), "no key"))),
                "x")
            .toStorage(bytes("secret"), CONTEXT);
    ValueTransformer.Read read = p.fromStorage(encrypted, CONTEXT);
    assertArrayEquals(bytes("secret"), read.value());
    assertTrue(read.stale());
    assertArrayEquals(bytes("plain"), p.toStorage(bytes("plain"), CONTEXT));
    assertFalse(p.fromStorage(bytes("plain"), CONTEXT).stale());
  }
}
