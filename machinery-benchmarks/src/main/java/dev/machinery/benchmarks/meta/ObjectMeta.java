package dev.machinery.benchmarks.meta;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/** The metadata fields the benchmark document uses. Mutable; not thread-safe. */
public final class ObjectMeta {
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String name;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String namespace;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String uid;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private String resourceVersion;

  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  private long generation;

  @JsonInclude(JsonInclude.Include.ALWAYS)
  private String creationTimestamp;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private java.util.Map<String, String> labels;

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  private java.util.Map<String, String> annotations;

  /** Creates an empty value. */
  public ObjectMeta() {}

  /**
   * Returns the name.
   *
   * @return the name
   */
  public String getName() {
    return name;
  }

  /**
   * Sets the name.
   *
   * @param name the name
   */
  public void setName(String name) {
    this.name = name;
  }

  /**
   * Returns the namespace.
   *
   * @return the namespace
   */
  public String getNamespace() {
    return namespace;
  }

  /**
   * Sets the namespace.
   *
   * @param namespace the namespace
   */
  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  /**
   * Returns the uid.
   *
   * @return the uid
   */
  public String getUid() {
    return uid;
  }

  /**
   * Sets the uid.
   *
   * @param uid the uid
   */
  public void setUid(String uid) {
    this.uid = uid;
  }

  /**
   * Returns the resource version.
   *
   * @return the resource version
   */
  public String getResourceVersion() {
    return resourceVersion;
  }

  /**
   * Sets the resource version.
   *
   * @param resourceVersion the resource version
   */
  public void setResourceVersion(String resourceVersion) {
    this.resourceVersion = resourceVersion;
  }

  /**
   * Returns the generation.
   *
   * @return the generation
   */
  public long getGeneration() {
    return generation;
  }

  /**
   * Sets the generation.
   *
   * @param generation the generation
   */
  public void setGeneration(long generation) {
    this.generation = generation;
  }

  /**
   * Returns the creation time (RFC 3339), or null.
   *
   * @return the creation time (RFC 3339), or null
   */
  public String getCreationTimestamp() {
    return creationTimestamp;
  }

  /**
   * Sets the creation time (RFC 3339), or null.
   *
   * @param creationTimestamp the creation time (RFC 3339), or null
   */
  public void setCreationTimestamp(String creationTimestamp) {
    this.creationTimestamp = creationTimestamp;
  }

  /**
   * Returns the labels.
   *
   * @return the labels
   */
  public java.util.Map<String, String> getLabels() {
    return labels;
  }

  /**
   * Sets the labels.
   *
   * @param labels the labels
   */
  public void setLabels(java.util.Map<String, String> labels) {
    this.labels = labels;
  }

  /**
   * Returns the annotations.
   *
   * @return the annotations
   */
  public java.util.Map<String, String> getAnnotations() {
    return annotations;
  }

  /**
   * Sets the annotations.
   *
   * @param annotations the annotations
   */
  public void setAnnotations(java.util.Map<String, String> annotations) {
    this.annotations = annotations;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ObjectMeta)) {
      return false;
    }
    ObjectMeta that = (ObjectMeta) o;
    return Objects.equals(name, that.name)
        && Objects.equals(namespace, that.namespace)
        && Objects.equals(uid, that.uid)
        && Objects.equals(resourceVersion, that.resourceVersion)
        && generation == that.generation
        && Objects.equals(creationTimestamp, that.creationTimestamp)
        && Objects.equals(labels, that.labels)
        && Objects.equals(annotations, that.annotations);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name, namespace, uid, resourceVersion, generation, creationTimestamp, labels, annotations);
  }
}
