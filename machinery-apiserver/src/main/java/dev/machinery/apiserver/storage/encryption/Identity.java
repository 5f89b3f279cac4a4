package dev.machinery.apiserver.storage.encryption;

import java.nio.charset.StandardCharsets;

/**
 * The {@code identity} provider: values stored as they are; a value that starts with {@code
 * k8s:enc:} is encrypted and not its to read (kube's {@code EncryptCheckTransformer}).
 */
final class Identity implements ValueTransformer {
  static final byte[] ENCRYPTED_PREFIX = "k8s:enc:".getBytes(StandardCharsets.US_ASCII);
  static final Identity INSTANCE = new Identity();

  private Identity() {}

  @Override
  public byte[] toStorage(byte[] value, byte[] authenticatedData) {
    return value;
  }

  @Override
  public Read fromStorage(byte[] stored, byte[] authenticatedData) {
    if (Prefixes.startsWith(stored, ENCRYPTED_PREFIX)) {
      throw new ValueTransformException("identity transformer tried to read encrypted data");
    }
    return new Read(stored, false);
  }
}
