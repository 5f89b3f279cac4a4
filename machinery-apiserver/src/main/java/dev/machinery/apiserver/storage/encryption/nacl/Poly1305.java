package dev.machinery.apiserver.storage.encryption.nacl;

/**
 * The Poly1305 one-time authenticator (RFC 8439, section 2.5): a 16-byte tag of a message under a
 * 32-byte one-time key. The accumulator is kept in five 26-bit limbs (the 32-bit layout of
 * poly1305-donna), so the arithmetic modulo 2^130 - 5 runs without branches on secret data; tags
 * are compared in constant time by {@link SecretBox}. Stateless; thread-safe.
 */
public final class Poly1305 {
  private static final long MASK = 0x3ffffff;

  private Poly1305() {}

  private static long le32(byte[] b, int at) {
    return (b[at] & 0xffL)
        | (b[at + 1] & 0xffL) << 8
        | (b[at + 2] & 0xffL) << 16
        | (b[at + 3] & 0xffL) << 24;
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
    // r, clamped, in 26-bit limbs
    long r0 = le32(key, 0) & 0x3ffffff;
    long r1 = (le32(key, 3) >>> 2) & 0x3ffff03;
    long r2 = (le32(key, 6) >>> 4) & 0x3ffc0ff;
    long r3 = (le32(key, 9) >>> 6) & 0x3f03fff;
    long r4 = (le32(key, 12) >>> 8) & 0x00fffff;
    long s1 = r1 * 5;
    long s2 = r2 * 5;
    long s3 = r3 * 5;
    long s4 = r4 * 5;
    long h0 = 0;
    long h1 = 0;
    long h2 = 0;
    long h3 = 0;
    long h4 = 0;
    byte[] block = new byte[16];
    for (int at = 0; at < message.length; at += 16) {
      int n = Math.min(16, message.length - at);
      long high;
      if (n == 16) {
        System.arraycopy(message, at, block, 0, 16);
        high = 1L << 24;
      } else {
        java.util.Arrays.fill(block, (byte) 0);
        System.arraycopy(message, at, block, 0, n);
        block[n] = 1;
        high = 0;
      }
      h0 += le32(block, 0) & MASK;
      h1 += (le32(block, 3) >>> 2) & MASK;
      h2 += (le32(block, 6) >>> 4) & MASK;
      h3 += (le32(block, 9) >>> 6) & MASK;
      h4 += (le32(block, 12) >>> 8) | high;
      long d0 = h0 * r0 + h1 * s4 + h2 * s3 + h3 * s2 + h4 * s1;
      long d1 = h0 * r1 + h1 * r0 + h2 * s4 + h3 * s3 + h4 * s2;
      long d2 = h0 * r2 + h1 * r1 + h2 * r0 + h3 * s4 + h4 * s3;
      long d3 = h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + h4 * s4;
      long d4 = h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + h4 * r0;
      long c = d0 >>> 26;
      h0 = d0 & MASK;
      d1 += c;
      c = d1 >>> 26;
      h1 = d1 & MASK;
      d2 += c;
      c = d2 >>> 26;
      h2 = d2 & MASK;
      d3 += c;
      c = d3 >>> 26;
      h3 = d3 & MASK;
      d4 += c;
      c = d4 >>> 26;
      h4 = d4 & MASK;
      h0 += c * 5;
      c = h0 >>> 26;
      h0 &= MASK;
      h1 += c;
    }
    // full carry
    long c = h1 >>> 26;
    h1 &= MASK;
    h2 += c;
    c = h2 >>> 26;
    h2 &= MASK;
    h3 += c;
    c = h3 >>> 26;
    h3 &= MASK;
    h4 += c;
    c = h4 >>> 26;
    h4 &= MASK;
    h0 += c * 5;
    c = h0 >>> 26;
    h0 &= MASK;
    h1 += c;
    // h - p: kept when it does not go below zero
    long g0 = h0 + 5;
    c = g0 >>> 26;
    g0 &= MASK;
    long g1 = h1 + c;
    c = g1 >>> 26;
    g1 &= MASK;
    long g2 = h2 + c;
    c = g2 >>> 26;
    g2 &= MASK;
    long g3 = h3 + c;
    c = g3 >>> 26;
    g3 &= MASK;
    long g4 = h4 + c - (1L << 26);
    long keepH = g4 >> 63; // all ones when h < p
    h0 = (h0 & keepH) | (g0 & ~keepH);
    h1 = (h1 & keepH) | (g1 & ~keepH);
    h2 = (h2 & keepH) | (g2 & ~keepH);
    h3 = (h3 & keepH) | (g3 & ~keepH);
    h4 = (h4 & keepH) | (g4 & ~keepH);
    // to 32-bit words, plus s
    long w0 = (h0 | (h1 << 26)) & 0xffffffffL;
    long w1 = ((h1 >>> 6) | (h2 << 20)) & 0xffffffffL;
    long w2 = ((h2 >>> 12) | (h3 << 14)) & 0xffffffffL;
    long w3 = ((h3 >>> 18) | (h4 << 8)) & 0xffffffffL;
    long f = w0 + le32(key, 16);
    byte[] out = new byte[16];
    store(out, 0, f);
    f = w1 + le32(key, 20) + (f >>> 32);
    store(out, 4, f);
    f = w2 + le32(key, 24) + (f >>> 32);
    store(out, 8, f);
    f = w3 + le32(key, 28) + (f >>> 32);
    store(out, 12, f);
    return out;
  }

  private static void store(byte[] b, int at, long v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) (v >>> 16);
    b[at + 3] = (byte) (v >>> 24);
  }
}
