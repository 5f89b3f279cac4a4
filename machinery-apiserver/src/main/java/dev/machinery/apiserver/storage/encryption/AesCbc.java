package dev.machinery.apiserver.storage.encryption;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code aescbc} provider's cipher under one key: AES in CBC mode, PKCS#7 padding, a random
 * 16-byte IV in front of the ciphertext; nothing authenticated (kube's {@code cbc} transformer).
 */
final class AesCbc implements ValueTransformer {
  private static final int BLOCK = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKeySpec key;

  AesCbc(byte[] key) {
    AesGcm.checkAesKey(key);
    this.key = new SecretKeySpec(key, "AES");
  }

  @Override
  public byte[] toStorage(byte[] value, byte[] authenticatedData) {
    byte[] iv = new byte[BLOCK];
    RANDOM.nextBytes(iv);
    int padding = BLOCK - value.length % BLOCK;
    byte[] padded = new byte[value.length + padding];
    System.arraycopy(value, 0, padded, 0, value.length);
    for (int i = value.length; i < padded.length; i++) {
      padded[i] = (byte) padding;
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/CBC/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(iv));
      byte[] encrypted = cipher.doFinal(padded);
      byte[] out = new byte[BLOCK + encrypted.length];
      System.arraycopy(iv, 0, out, 0, BLOCK);
      System.arraycopy(encrypted, 0, out, BLOCK, encrypted.length);
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's AES/CBC failed: " + e.getMessage(), e);
    }
  }

  @Override
  public Read fromStorage(byte[] stored, byte[] authenticatedData) {
    if (stored.length < BLOCK) {
      throw new ValueTransformException("the stored data was shorter than the required size");
    }
    if ((stored.length - BLOCK) % BLOCK != 0) {
      throw new ValueTransformException("the stored data is not a multiple of the block size");
    }
    byte[] plain;
    try {
      Cipher cipher = Cipher.getInstance("AES/CBC/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new IvParameterSpec(stored, 0, BLOCK));
      plain = cipher.doFinal(stored, BLOCK, stored.length - BLOCK);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's AES/CBC failed: " + e.getMessage(), e);
    }
    if (plain.length == 0) {
      throw new ValueTransformException("invalid PKCS7 data (empty or not padded)");
    }
    int padding = plain[plain.length - 1] & 0xff;
    if (padding == 0 || padding > plain.length) {
      throw new ValueTransformException("invalid padding on input");
    }
    for (int i = plain.length - padding; i < plain.length; i++) {
      if ((plain[i] & 0xff) != padding) {
        throw new ValueTransformException("invalid padding on input");
      }
    }
    byte[] value = new byte[plain.length - padding];
    System.arraycopy(plain, 0, value, 0, value.length);
    return new Read(value, false);
  }
}
