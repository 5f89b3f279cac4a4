package dev.machinery.apiserver.storage;

import java.util.Objects;

/**
 * One stored value at one revision, as etcd v3 reports it ({@code mvccpb.KeyValue}): the key, the
 * bytes, the revision that created the key, the revision that last changed it, and how many times
 * it has been written since it was created.
 *
 * <p>Immutable; the value array is never changed after construction and must not be changed by
 * callers.
 *
 * @param key the key
 * @param value the stored bytes
 * @param createRevision the revision of the write that created the key
 * @param modRevision the revision of the last write to the key (Kubernetes' {@code
 *     resourceVersion})
 * @param version the number of writes since creation, starting at 1
 */
public record KeyValue(
    String key, byte[] value, long createRevision, long modRevision, long version) {
  /**
   * Checks the arguments.
   *
   * @param key see the record description
   * @param value see the record description
   * @param createRevision see the record description
   * @param modRevision see the record description
   * @param version see the record description
   */
  public KeyValue {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    if (createRevision <= 0 || modRevision < createRevision || version <= 0) {
      throw new IllegalArgumentException(
          "revisions of "
              + key
              + " are inconsistent: create "
              + createRevision
              + ", mod "
              + modRevision
              + ", version "
              + version);
    }
  }
}
