package dev.machinery.apiserver.storage.encryption;

/**
 * Turns a value into the bytes a storage keeps and back, as kube-apiserver's {@code
 * value.Transformer}: the identity, one cipher under one key, or a list of them chosen by the
 * prefix of the stored bytes. Implementations are immutable and thread-safe.
 */
public interface ValueTransformer {
  /**
   * The bytes to store for a value.
   *
   * @param value the value (an object's encoding)
   * @param authenticatedData what the value is bound to (its storage key), for ciphers that
   *     authenticate it
   * @return the bytes to store
   */
  byte[] toStorage(byte[] value, byte[] authenticatedData);

  /**
   * The value of stored bytes.
   *
   * @param stored the stored bytes
   * @param authenticatedData what the value is bound to (its storage key)
   * @return the value, and whether it was stored in a form this transformer would no longer write
   *     (another key, or another provider, than the first)
   * @throws ValueTransformException when no provider or key can read the bytes
   */
  Read fromStorage(byte[] stored, byte[] authenticatedData);

  /**
   * A value read back.
   *
   * @param value the value
   * @param stale whether it should be written again with the current first provider and key
   */
  record Read(byte[] value, boolean stale) {}
}
