package dev.machinery.apiserver.storage.encryption.nacl;

/**
 * The Salsa20/20 stream cipher with a 256-bit key, its HSalsa20 key derivation, and XSalsa20 (a
 * 192-bit nonce: HSalsa20 of the key and the nonce's first 16 bytes, then Salsa20 with that key and
 * the nonce's last 8 bytes). Stateless; thread-safe.
 */
public final class Salsa20 {
  private static final int[] SIGMA = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

  private Salsa20() {}

  private static int load(byte[] b, int at) {
    return (b[at] & 0xff)
        | (b[at + 1] & 0xff) << 8
        | (b[at + 2] & 0xff) << 16
        | (b[at + 3] & 0xff) << 24;
  }

  private static void store(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) (v >>> 16);
    b[at + 3] = (byte) (v >>> 24);
  }

  /** The input block: constants, the key's two halves, and 16 bytes of nonce and counter. */
  private static int[] input(byte[] key, byte[] sixteen) {
    int[] x = new int[16];
    x[0] = SIGMA[0];
    x[5] = SIGMA[1];
    x[10] = SIGMA[2];
    x[15] = SIGMA[3];
    for (int i = 0; i < 4; i++) {
      x[1 + i] = load(key, 4 * i);
      x[11 + i] = load(key, 16 + 4 * i);
      x[6 + i] = load(sixteen, 4 * i);
    }
    return x;
  }

  /** Twenty rounds (ten double rounds: columns, then rows) over a copy of the input. */
  private static int[] rounds(int[] in) {
    int[] x = in.clone();
    for (int i = 0; i < 10; i++) {
      quarter(x, 0, 4, 8, 12);
      quarter(x, 5, 9, 13, 1);
      quarter(x, 10, 14, 2, 6);
      quarter(x, 15, 3, 7, 11);
      quarter(x, 0, 1, 2, 3);
      quarter(x, 5, 6, 7, 4);
      quarter(x, 10, 11, 8, 9);
      quarter(x, 15, 12, 13, 14);
    }
    return x;
  }

  private static void quarter(int[] x, int a, int b, int c, int d) {
    x[b] ^= Integer.rotateLeft(x[a] + x[d], 7);
    x[c] ^= Integer.rotateLeft(x[b] + x[a], 9);
    x[d] ^= Integer.rotateLeft(x[c] + x[b], 13);
    x[a] ^= Integer.rotateLeft(x[d] + x[c], 18);
  }

  /**
   * HSalsa20: a 32-byte key derived from a key and 16 bytes of input.
   *
   * @param key 32 bytes
   * @param sixteen 16 bytes
   * @return 32 bytes
   */
  public static byte[] hsalsa20(byte[] key, byte[] sixteen) {
    requireLength(key, 32, "key");
    requireLength(sixteen, 16, "input");
    int[] x = rounds(input(key, sixteen));
    int[] words = {x[0], x[5], x[10], x[15], x[6], x[7], x[8], x[9]};
    byte[] out = new byte[32];
    for (int i = 0; i < 8; i++) {
      store(out, 4 * i, words[i]);
    }
    return out;
  }

  /**
   * XORs data with the XSalsa20 key stream, from a byte offset into the stream.
   *
   * @param key 32 bytes
   * @param nonce 24 bytes
   * @param skip how many bytes of the stream to pass over first
   * @param data the bytes to XOR (the stream's bytes when all zero)
   * @return a new array: data XOR stream[skip, skip + data.length)
   */
  public static byte[] xsalsa20Xor(byte[] key, byte[] nonce, long skip, byte[] data) {
    requireLength(nonce, 24, "nonce");
    byte[] first = new byte[16];
    System.arraycopy(nonce, 0, first, 0, 16);
    byte[] subkey = hsalsa20(key, first);
    byte[] sixteen = new byte[16];
    System.arraycopy(nonce, 16, sixteen, 0, 8);
    byte[] out = new byte[data.length];
    byte[] block = new byte[64];
    long counter = skip / 64;
    int offset = (int) (skip % 64);
    int done = 0;
    while (done < data.length) {
      for (int i = 0; i < 8; i++) {
        sixteen[8 + i] = (byte) (counter >>> (8 * i));
      }
      int[] in = input(subkey, sixteen);
      int[] x = rounds(in);
      for (int i = 0; i < 16; i++) {
        store(block, 4 * i, x[i] + in[i]);
      }
      int n = Math.min(64 - offset, data.length - done);
      for (int i = 0; i < n; i++) {
        out[done + i] = (byte) (data[done + i] ^ block[offset + i]);
      }
      done += n;
      offset = 0;
      counter++;
    }
    return out;
  }

  static void requireLength(byte[] bytes, int length, String what) {
    if (bytes.length != length) {
      throw new IllegalArgumentException(
          "the " + what + " must be " + length + " bytes, not " + bytes.length);
    }
  }
}
