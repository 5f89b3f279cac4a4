package dev.machinery.core.runtime;

import dev.machinery.core.schema.GroupVersionKind;

/**
 * A top-level API object: a value that knows its own {@code apiVersion} and {@code kind}, like
 * Kubernetes' {@code runtime.Object} with its inline {@code TypeMeta}.
 *
 * <p>Implementations are plain mutable classes with a public no-argument constructor, whose {@code
 * apiVersion} and {@code kind} are ordinary JSON properties. The codecs set both when they decode a
 * document and always write them first when they encode one. Thread safety is the implementation's:
 * objects are usually confined to one thread or shared only after they are no longer changed.
 */
public interface ApiObject {
  /**
   * Returns the {@code apiVersion}, such as {@code apps/v1}, or {@code null} if not set.
   *
   * @return the api version
   */
  String getApiVersion();

  /**
   * Sets the {@code apiVersion}.
   *
   * @param apiVersion {@code group/version}, or the bare version for the core group
   */
  void setApiVersion(String apiVersion);

  /**
   * Returns the {@code kind}, such as {@code Deployment}, or {@code null} if not set.
   *
   * @return the kind
   */
  String getKind();

  /**
   * Sets the {@code kind}.
   *
   * @param kind the kind name
   */
  void setKind(String kind);

  /**
   * Returns the group/version/kind that {@code apiVersion} and {@code kind} name; empty parts where
   * they are not set.
   *
   * @return the object's own idea of its kind
   * @throws dev.machinery.core.schema.MalformedIdentifierException if the fields are malformed
   */
  default GroupVersionKind groupVersionKind() {
    String apiVersion = getApiVersion();
    String kind = getKind();
    return GroupVersionKind.fromApiVersionAndKind(
        apiVersion == null ? "" : apiVersion, kind == null ? "" : kind);
  }
}
