package dev.machinery.apiserver.storage.encryption;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code aesgcm} provider's cipher under one key: AES-GCM with a random 12-byte nonce in front
 * of the ciphertext and its 16-byte tag, the value bound to its storage key as additional
 * authenticated data (kube's {@code gcm} transformer with random nonces).
 */
final class AesGcm implements ValueTransformer {
  private static final int NONCE = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec key;

  AesGcm(byte[] key) {
    checkAesKey(key);
    this.key = new SecretKeySpec(key, "AES");
  }

  static void checkAesKey(byte[] key) {
    if (key.length != 16 && key.length != 24 && key.length != 32) {
      throw new IllegalArgumentException("an AES key is 16, 24 or 32 bytes, not " + key.length);
    }
  }

  @Override
  public byte[] toStorage(byte[] value, byte[] authenticatedData) {
    byte[] nonce = new byte[NONCE];
    RANDOM.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(authenticatedData);
      byte[] sealed = cipher.doFinal(value);
      byte[] out = new byte[NONCE + sealed.length];
      System.arraycopy(nonce, 0, out, 0, NONCE);
      System.arraycopy(sealed, 0, out, NONCE, sealed.length);
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's AES/GCM failed: " + e.getMessage(), e);
    }
  }

  @Override
  public Read fromStorage(byte[] stored, byte[] authenticatedData) {
    if (stored.length < NONCE) {
      throw new ValueTransformException("the stored data was shorter than the required size");
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 0, NONCE));
      cipher.updateAAD(authenticatedData);
      return new Read(cipher.doFinal(stored, NONCE, stored.length - NONCE), false);
    } catch (AEADBadTagException e) {
      throw new ValueTransformException("cipher: message authentication failed");
    } catch (GeneralSecurityException e) {
      throw new ValueTransformException("cipher: message authentication failed: " + e.getMessage());
    }
  }
}
