package dev.machinery.apiserver.storage.encryption;

import dev.machinery.apiserver.storage.encryption.nacl.SecretBox;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The {@code secretbox} provider's cipher under one key: XSalsa20-Poly1305 with a random 24-byte
 * nonce in front of the box (kube's {@code secretbox} transformer); nothing else authenticated.
 */
final class Secretbox implements ValueTransformer {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] key;

  Secretbox(byte[] key) {
    if (key.length != SecretBox.KEY_SIZE) {
      throw new IllegalArgumentException("a secretbox key is 32 bytes, not " + key.length);
    }
    this.key = key.clone();
  }

  @Override
  public byte[] toStorage(byte[] value, byte[] authenticatedData) {
    byte[] nonce = new byte[SecretBox.NONCE_SIZE];
    RANDOM.nextBytes(nonce);
    byte[] box = SecretBox.seal(value, nonce, key);
    byte[] out = new byte[nonce.length + box.length];
    System.arraycopy(nonce, 0, out, 0, nonce.length);
    System.arraycopy(box, 0, out, nonce.length, box.length);
    return out;
  }

  @Override
  public Read fromStorage(byte[] stored, byte[] authenticatedData) {
    if (stored.length < SecretBox.OVERHEAD + SecretBox.NONCE_SIZE) {
      throw new ValueTransformException("the stored data was shorter than the required size");
    }
    byte[] nonce = Arrays.copyOfRange(stored, 0, SecretBox.NONCE_SIZE);
    byte[] box = Arrays.copyOfRange(stored, SecretBox.NONCE_SIZE, stored.length);
    return new Read(
        SecretBox.open(box, nonce, key)
            // kube's wording for a box that does not open (a wrong key, changed bytes)
            .orElseThrow(
                () ->
                    new ValueTransformException(
                        "output array was not large enough for encryption")),
        false);
  }
}
