package dev.machinery.unversioned.meta.v1;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The metadata every persisted object has, read and written the same way whatever holds it ({@code
 * metav1.Object}): {@link ObjectMeta} itself (so typed objects and {@code PartialObjectMetadata}
 * through their {@code metadata}), and {@code Unstructured} objects through their {@code metadata}
 * map. Generic code (a server's storage, a cache, a garbage collector) uses this interface through
 * {@link Accessor#of(Object)}.
 *
 * <p>Collections returned may be live or copies depending on the holder; change them through the
 * setters. Thread safety is the holder's: the library's holders are mutable and must be confined or
 * published safely.
 */
public interface MetaObject {
  /**
   * Returns the name.
   *
   * @return the name, or null
   */
  String getName();

  /**
   * Sets the name.
   *
   * @param name the name
   */
  void setName(String name);

  /**
   * Returns the prefix a server completes into a unique name.
   *
   * @return the prefix, or null
   */
  String getGenerateName();

  /**
   * Sets the prefix a server completes into a unique name.
   *
   * @param generateName the prefix
   */
  void setGenerateName(String generateName);

  /**
   * Returns the namespace.
   *
   * @return the namespace, or null
   */
  String getNamespace();

  /**
   * Sets the namespace.
   *
   * @param namespace the namespace
   */
  void setNamespace(String namespace);

  /**
   * Returns the unique id the server assigned.
   *
   * @return the uid, or null
   */
  String getUid();

  /**
   * Sets the unique id.
   *
   * @param uid the uid
   */
  void setUid(String uid);

  /**
   * Returns the resource version.
   *
   * @return the resource version, or null
   */
  String getResourceVersion();

  /**
   * Sets the resource version.
   *
   * @param resourceVersion the resource version
   */
  void setResourceVersion(String resourceVersion);

  /**
   * Returns the generation of the desired state.
   *
   * @return the generation, 0 when absent
   */
  long getGeneration();

  /**
   * Sets the generation.
   *
   * @param generation the generation
   */
  void setGeneration(long generation);

  /**
   * Returns when the object was created.
   *
   * @return the time, or null
   */
  Instant getCreationTimestamp();

  /**
   * Sets when the object was created.
   *
   * @param creationTimestamp the time
   */
  void setCreationTimestamp(Instant creationTimestamp);

  /**
   * Returns when deletion was requested.
   *
   * @return the time, or null when the object is not being deleted
   */
  Instant getDeletionTimestamp();

  /**
   * Sets when deletion was requested.
   *
   * @param deletionTimestamp the time
   */
  void setDeletionTimestamp(Instant deletionTimestamp);

  /**
   * Returns the grace period of a requested deletion.
   *
   * @return the seconds, or null
   */
  Long getDeletionGracePeriodSeconds();

  /**
   * Sets the grace period of a requested deletion.
   *
   * @param seconds the seconds
   */
  void setDeletionGracePeriodSeconds(Long seconds);

  /**
   * Returns the labels.
   *
   * @return the labels, or null or empty when there are none
   */
  Map<String, String> getLabels();

  /**
   * Replaces the labels.
   *
   * @param labels the labels
   */
  void setLabels(Map<String, String> labels);

  /**
   * Returns the annotations.
   *
   * @return the annotations, or null or empty when there are none
   */
  Map<String, String> getAnnotations();

  /**
   * Replaces the annotations.
   *
   * @param annotations the annotations
   */
  void setAnnotations(Map<String, String> annotations);

  /**
   * Returns the objects this one depends on.
   *
   * @return the owner references, or null or empty when there are none
   */
  List<OwnerReference> getOwnerReferences();

  /**
   * Replaces the owner references.
   *
   * @param ownerReferences the owner references
   */
  void setOwnerReferences(List<OwnerReference> ownerReferences);

  /**
   * Returns the finalizers that must finish before the object is deleted.
   *
   * @return the finalizers, or null or empty when there are none
   */
  List<String> getFinalizers();

  /**
   * Replaces the finalizers.
   *
   * @param finalizers the finalizers
   */
  void setFinalizers(List<String> finalizers);

  /**
   * Returns who owns which fields, as server-side apply records it.
   *
   * @return the entries, or null when there are none
   */
  List<ManagedFieldsEntry> getManagedFields();

  /**
   * Replaces the managed fields.
   *
   * @param managedFields the entries, or null for none
   */
  void setManagedFields(List<ManagedFieldsEntry> managedFields);
}
