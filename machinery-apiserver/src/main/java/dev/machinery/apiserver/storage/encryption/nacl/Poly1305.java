package dev.machinery.apiserver.storage.encryption.nacl;

import java.math.BigInteger;

/**
 * The Poly1305 one-time authenticator (RFC 8439, section 2.5): a 16-byte tag of a message under a
 * 32-byte one-time key. Computed with {@link BigInteger} arithmetic modulo 2^130 - 5, which is
 * correct but not constant-time; tags are compared in constant time by {@link SecretBox}.
 * Stateless; thread-safe.
 */
public final class Poly1305 {
  private static final BigInteger P = BigInteger.ONE.shiftLeft(130).subtract(BigInteger.valueOf(5));
  private static final BigInteger CLAMP = new BigInteger("0ffffffc0ffffffc0ffffffc0fffffff", 16);
  private static final BigInteger MOD_128 = BigInteger.ONE.shiftLeft(128);

  private Poly1305() {}

  /** A little-endian unsigned number of {@code length} bytes, plus {@code 2^(8*high)} if given. */
  private static BigInteger littleEndian(byte[] bytes, int from, int length, int high) {
    byte[] big = new byte[length + 2];
    for (int i = 0; i < length; i++) {
      big[big.length - 1 - i] = bytes[from + i];
    }
    if (high >= 0) {
      big[big.length - 1 - high] = 1;
    }
    return new BigInteger(big);
  }

  /**
   * The tag of a message.
   *
   * @param key the one-time key, 32 bytes (r, then s)
   * @param message the message
   * @return the 16-byte tag
   */
  public static byte[] tag(byte[] key, byte[] message) {
    Salsa20.requireLength(key, 32, "Poly1305 key");
    BigInteger r = littleEndian(key, 0, 16, -1).and(CLAMP);
    BigInteger s = littleEndian(key, 16, 16, -1);
    BigInteger acc = BigInteger.ZERO;
    for (int at = 0; at < message.length; at += 16) {
      int n = Math.min(16, message.length - at);
      acc = acc.add(littleEndian(message, at, n, n)).multiply(r).mod(P);
    }
    byte[] big = acc.add(s).mod(MOD_128).toByteArray();
    byte[] out = new byte[16];
    for (int i = 0; i < 16 && i < big.length; i++) {
      out[i] = big[big.length - 1 - i];
    }
    return out;
  }
}
