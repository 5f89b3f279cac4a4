package dev.machinery.apiserver.storage.encryption.nacl;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;

/**
 * NaCl's secretbox ({@code crypto_secretbox_xsalsa20poly1305}) in the layout of Go's {@code
 * golang.org/x/crypto/nacl/secretbox}: {@code seal} returns the 16-byte Poly1305 tag followed by
 * the ciphertext; the first 32 bytes of the XSalsa20 stream are the Poly1305 key, the message is
 * XORed with the stream from byte 32. Stateless; thread-safe.
 */
public final class SecretBox {
  /** The size of the key. */
  public static final int KEY_SIZE = 32;

  /** The size of the nonce. */
  public static final int NONCE_SIZE = 24;

  /** The size of the tag that precedes the ciphertext. */
  public static final int OVERHEAD = 16;

  private SecretBox() {}

  /**
   * Encrypts and authenticates a message.
   *
   * @param message the message
   * @param nonce 24 bytes, never used twice with one key
   * @param key 32 bytes
   * @return the tag, then the ciphertext ({@code message.length + 16} bytes)
   */
  public static byte[] seal(byte[] message, byte[] nonce, byte[] key) {
    Salsa20.requireLength(key, KEY_SIZE, "key");
    byte[] padded = new byte[32 + message.length];
    System.arraycopy(message, 0, padded, 32, message.length);
    byte[] stream = Salsa20.xsalsa20Xor(key, nonce, 0, padded);
    byte[] polyKey = Arrays.copyOfRange(stream, 0, 32);
    byte[] cipher = Arrays.copyOfRange(stream, 32, stream.length);
    byte[] out = new byte[OVERHEAD + cipher.length];
    System.arraycopy(Poly1305.tag(polyKey, cipher), 0, out, 0, OVERHEAD);
    System.arraycopy(cipher, 0, out, OVERHEAD, cipher.length);
    return out;
  }

  /**
   * Checks and decrypts a box.
   *
   * @param box the tag, then the ciphertext
   * @param nonce the nonce it was sealed with
   * @param key the key it was sealed with
   * @return the message, or empty when the box is too short or its tag does not match
   */
  public static Optional<byte[]> open(byte[] box, byte[] nonce, byte[] key) {
    Salsa20.requireLength(key, KEY_SIZE, "key");
    if (box.length < OVERHEAD) {
      return Optional.empty();
    }
    byte[] cipher = Arrays.copyOfRange(box, OVERHEAD, box.length);
    byte[] polyKey = Salsa20.xsalsa20Xor(key, nonce, 0, new byte[32]);
    if (!MessageDigest.isEqual(
        Poly1305.tag(polyKey, cipher), Arrays.copyOfRange(box, 0, OVERHEAD))) {
      return Optional.empty();
    }
    return Optional.of(Salsa20.xsalsa20Xor(key, nonce, 32, cipher));
  }
}
