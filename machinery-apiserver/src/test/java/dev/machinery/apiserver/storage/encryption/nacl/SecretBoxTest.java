package dev.machinery.apiserver.storage.encryption.nacl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The published test vectors: RFC 8439's Poly1305 vectors (section 2.5.2 and appendix A.3), NaCl's
 * HSalsa20 vector ({@code tests/core1.c}) and its secretbox vector ({@code tests/secretbox.c}, the
 * 131-byte message under {@code firstkey}).
 */
class SecretBoxTest {
  private static final HexFormat HEX = HexFormat.of();

  private static byte[] hex(String text) {
    return HEX.parseHex(text.replace(" ", ""));
  }

  @Test
  void poly1305OfRfc8439Section252() {
    byte[] key = hex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
    byte[] tag =
        Poly1305.tag(key, "Cryptographic Forum Research Group".getBytes(StandardCharsets.US_ASCII));
    assertEquals("a8061dc1305136c6c22b8baf0c0127a9", HEX.formatHex(tag));
  }

  /** RFC 8439 appendix A.3, vectors 1 to 3 and 5 to 11 (the message of each as given). */
  @ParameterizedTest
  @CsvSource({
    // #1: all zero
    "0000000000000000000000000000000000000000000000000000000000000000,"
        + " 00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000,"
        + " 00000000000000000000000000000000",
    // #5: r = 2, s = 0, the accumulator wraps around 2^130 - 5
    "0200000000000000000000000000000000000000000000000000000000000000,"
        + " ffffffffffffffffffffffffffffffff, 03000000000000000000000000000000",
    // #6: r = 2, s = 2^128 - 1
    "02000000000000000000000000000000ffffffffffffffffffffffffffffffff,"
        + " 02000000000000000000000000000000, 03000000000000000000000000000000",
    // #7
    "0100000000000000000000000000000000000000000000000000000000000000,"
        + " ffffffffffffffffffffffffffffffff f0ffffffffffffffffffffffffffffff"
        + " 11000000000000000000000000000000, 05000000000000000000000000000000",
    // #8
    "0100000000000000000000000000000000000000000000000000000000000000,"
        + " ffffffffffffffffffffffffffffffff fbfefefefefefefefefefefefefefefe"
        + " 01010101010101010101010101010101, 00000000000000000000000000000000",
    // #9
    "0200000000000000000000000000000000000000000000000000000000000000,"
        + " fdffffffffffffffffffffffffffffff, faffffffffffffffffffffffffffffff",
    // #10
    "0100000000000000040000000000000000000000000000000000000000000000,"
        + " e33594d7505e43b90000000000000000 3394d7505e4379cd0100000000000000"
        + " 00000000000000000000000000000000 01000000000000000000000000000000,"
        + " 14000000000000005500000000000000",
    // #11
    "0100000000000000040000000000000000000000000000000000000000000000,"
        + " e33594d7505e43b90000000000000000 3394d7505e4379cd0100000000000000"
        + " 00000000000000000000000000000000, 13000000000000000000000000000000",
  })
  void poly1305OfRfc8439AppendixA3(String key, String message, String tag) {
    assertEquals(tag, HEX.formatHex(Poly1305.tag(hex(key), hex(message))));
  }

  @Test
  void hsalsa20OfNaClCore1() {
    byte[] shared = hex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    assertEquals(
        "1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389",
        HEX.formatHex(Salsa20.hsalsa20(shared, new byte[16])));
  }

  private static final byte[] FIRST_KEY =
      hex("1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389");
  private static final byte[] NONCE = hex("69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37");
  private static final byte[] MESSAGE =
      hex(
          "be075fc53c81f2d5cf141316ebeb0c7b5228c52a4c62cbd44b66849b64244ffc"
              + "e5ecbaaf33bd751a1ac728d45e6c61296cdc3c01233561f41db66cce314adb31"
              + "0e3be8250c46f06dceea3a7fa1348057e2f6556ad6b1318a024a838f21af1fde"
              + "048977eb48f59ffd4924ca1c60902e52f0a089bc76897040e082f93776384864"
              + "5e0705");
  private static final byte[] BOX =
      hex(
          "f3ffc7703f9400e52a7dfb4b3d3305d98e993b9f48681273c29650ba32fc76ce"
              + "48332ea7164d96a4476fb8c531a1186ac0dfc17c98dce87b4da7f011ec48c972"
              + "71d2c20f9b928fe2270d6fb863d51738b48eeee314a7cc8ab932164548e526ae"
              + "90224368517acfeabd6bb3732bc0e9da99832b61ca01b6de56244a9e88d5f9b3"
              + "7973f622a43d14a6599b1f654cb45a74e355a5");

  @Test
  void secretboxOfNaClSealsTheVector() {
    assertArrayEquals(BOX, SecretBox.seal(MESSAGE, NONCE, FIRST_KEY));
  }

  @Test
  void secretboxOfNaClOpensTheVector() {
    assertArrayEquals(MESSAGE, SecretBox.open(BOX, NONCE, FIRST_KEY).orElseThrow());
  }

  @Test
  void aChangedByteOrKeyOrNonceDoesNotOpen() {
    for (int i = 0; i < BOX.length; i += 7) {
      byte[] changed = BOX.clone();
      changed[i] ^= 1;
      assertTrue(SecretBox.open(changed, NONCE, FIRST_KEY).isEmpty(), "byte " + i);
    }
    byte[] otherKey = FIRST_KEY.clone();
    otherKey[0] ^= 1;
    assertTrue(SecretBox.open(BOX, NONCE, otherKey).isEmpty());
    byte[] otherNonce = NONCE.clone();
    otherNonce[23] ^= 1;
    assertTrue(SecretBox.open(BOX, otherNonce, FIRST_KEY).isEmpty());
    assertTrue(SecretBox.open(new byte[15], NONCE, FIRST_KEY).isEmpty());
  }

  /** Messages of every length around the 64-byte blocks of the stream round-trip. */
  @Test
  void everyLengthRoundTrips() {
    for (int length = 0; length < 300; length++) {
      byte[] message = new byte[length];
      for (int i = 0; i < length; i++) {
        message[i] = (byte) (i * 31 + length);
      }
      byte[] box = SecretBox.seal(message, NONCE, FIRST_KEY);
      assertEquals(length + 16, box.length);
      assertArrayEquals(message, SecretBox.open(box, NONCE, FIRST_KEY).orElseThrow());
    }
  }
}
