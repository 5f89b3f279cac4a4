package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.machinery.conversion.ProtoField;
import dev.machinery.conversion.ProtoReserved;
import dev.machinery.core.codec.SerializedAsDeclared;
import dev.machinery.core.patch.ListMapKeys;
import dev.machinery.core.patch.ListType;
import dev.machinery.core.patch.PatchMergeKey;
import dev.machinery.core.patch.PatchStrategy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The metadata every persisted object carries ({@code metadata}): names, identity, versions, times,
 * labels, annotations, owners, finalizers, and the managed-fields entries, kept opaque.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonSerialize(using = ObjectMetaSerializer.class)
@SerializedAsDeclared
@JsonPropertyOrder({
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "labels",
  "annotations",
  "ownerReferences",
  "finalizers",
  "managedFields"
})
// Kubernetes' generated.proto leaves 15 and 16 unused (clusterName and initializers, removed).
@ProtoReserved({15, 16})
public final class ObjectMeta implements MetaObject {
  private String name;
  private String generateName;
  private String namespace;
  private String selfLink;
  private String uid;
  private String resourceVersion;
  private long generation;
  private Instant creationTimestamp;
  private Instant deletionTimestamp;
  private Long deletionGracePeriodSeconds;
  private Map<String, String> labels;
  private Map<String, String> annotations;
  private List<OwnerReference> ownerReferences;
  private List<String> finalizers;
  private List<ManagedFieldsEntry> managedFields;

  /** Creates an empty ObjectMeta. */
  public ObjectMeta() {}

  /**
   * Returns the name.
   *
   * @return the name
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(1)
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
   * Returns the prefix the server appends a random suffix to.
   *
   * @return the prefix the server appends a random suffix to
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(2)
  public String getGenerateName() {
    return generateName;
  }

  /**
   * Sets the prefix the server appends a random suffix to.
   *
   * @param generateName the prefix the server appends a random suffix to
   */
  public void setGenerateName(String generateName) {
    this.generateName = generateName;
  }

  /**
   * Returns the namespace.
   *
   * @return the namespace
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(3)
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
   * Returns the deprecated self link.
   *
   * @return the deprecated self link
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(4)
  public String getSelfLink() {
    return selfLink;
  }

  /**
   * Sets the deprecated self link.
   *
   * @param selfLink the deprecated self link
   */
  public void setSelfLink(String selfLink) {
    this.selfLink = selfLink;
  }

  /**
   * Returns the unique id.
   *
   * @return the unique id
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(5)
  public String getUid() {
    return uid;
  }

  /**
   * Sets the unique id.
   *
   * @param uid the unique id
   */
  public void setUid(String uid) {
    this.uid = uid;
  }

  /**
   * Returns the resource version.
   *
   * @return the resource version
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(6)
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
   * Returns the generation of the desired state.
   *
   * @return the generation of the desired state
   */
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  @ProtoField(7)
  public long getGeneration() {
    return generation;
  }

  /**
   * Sets the generation of the desired state.
   *
   * @param generation the generation of the desired state
   */
  public void setGeneration(long generation) {
    this.generation = generation;
  }

  /**
   * Returns the creation time (written as {@code null} when unset, as Kubernetes does).
   *
   * @return the creation time (written as {@code null} when unset, as Kubernetes does)
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonSerialize(using = Rfc3339.Serializer.class)
  @ProtoField(8)
  public Instant getCreationTimestamp() {
    return creationTimestamp;
  }

  /**
   * Sets the creation time (written as {@code null} when unset, as Kubernetes does).
   *
   * @param creationTimestamp the creation time (written as {@code null} when unset, as Kubernetes
   *     does)
   */
  @JsonDeserialize(using = Rfc3339.Deserializer.class)
  public void setCreationTimestamp(Instant creationTimestamp) {
    this.creationTimestamp = creationTimestamp;
  }

  /**
   * Returns when the object is to be deleted.
   *
   * @return when the object is to be deleted
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonSerialize(using = Rfc3339.Serializer.class)
  @ProtoField(value = 9, optional = true)
  public Instant getDeletionTimestamp() {
    return deletionTimestamp;
  }

  /**
   * Sets when the object is to be deleted.
   *
   * @param deletionTimestamp when the object is to be deleted
   */
  @JsonDeserialize(using = Rfc3339.Deserializer.class)
  public void setDeletionTimestamp(Instant deletionTimestamp) {
    this.deletionTimestamp = deletionTimestamp;
  }

  /**
   * Returns the grace period of the pending deletion.
   *
   * @return the grace period of the pending deletion
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ProtoField(value = 10, optional = true)
  public Long getDeletionGracePeriodSeconds() {
    return deletionGracePeriodSeconds;
  }

  /**
   * Sets the grace period of the pending deletion.
   *
   * @param deletionGracePeriodSeconds the grace period of the pending deletion
   */
  public void setDeletionGracePeriodSeconds(Long deletionGracePeriodSeconds) {
    this.deletionGracePeriodSeconds = deletionGracePeriodSeconds;
  }

  /**
   * Returns the labels.
   *
   * @return the labels
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(11)
  public Map<String, String> getLabels() {
    return labels;
  }

  /**
   * Sets the labels.
   *
   * @param labels the labels
   */
  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }

  /**
   * Returns the annotations.
   *
   * @return the annotations
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(12)
  public Map<String, String> getAnnotations() {
    return annotations;
  }

  /**
   * Sets the annotations.
   *
   * @param annotations the annotations
   */
  public void setAnnotations(Map<String, String> annotations) {
    this.annotations = annotations;
  }

  /**
   * Returns the owners.
   *
   * @return the owners
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(13)
  @PatchStrategy("merge")
  @PatchMergeKey("uid")
  @ListType("map")
  @ListMapKeys("uid")
  public List<OwnerReference> getOwnerReferences() {
    return ownerReferences;
  }

  /**
   * Sets the owners.
   *
   * @param ownerReferences the owners
   */
  public void setOwnerReferences(List<OwnerReference> ownerReferences) {
    this.ownerReferences = ownerReferences;
  }

  /**
   * Returns the finalizers.
   *
   * @return the finalizers
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(14)
  @PatchStrategy("merge")
  @ListType("set")
  public List<String> getFinalizers() {
    return finalizers;
  }

  /**
   * Sets the finalizers.
   *
   * @param finalizers the finalizers
   */
  public void setFinalizers(List<String> finalizers) {
    this.finalizers = finalizers;
  }

  /**
   * Returns which manager owns which fields (server-side apply's bookkeeping).
   *
   * @return the managed-fields entries
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(17)
  public List<ManagedFieldsEntry> getManagedFields() {
    return managedFields;
  }

  /**
   * Sets which manager owns which fields.
   *
   * @param managedFields the managed-fields entries
   */
  public void setManagedFields(List<ManagedFieldsEntry> managedFields) {
    this.managedFields = managedFields;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof ObjectMeta)) {
      return false;
    }
    ObjectMeta that = (ObjectMeta) other;
    return true
        && Objects.equals(name, that.name)
        && Objects.equals(generateName, that.generateName)
        && Objects.equals(namespace, that.namespace)
        && Objects.equals(selfLink, that.selfLink)
        && Objects.equals(uid, that.uid)
        && Objects.equals(resourceVersion, that.resourceVersion)
        && Objects.equals(generation, that.generation)
        && Objects.equals(creationTimestamp, that.creationTimestamp)
        && Objects.equals(deletionTimestamp, that.deletionTimestamp)
        && Objects.equals(deletionGracePeriodSeconds, that.deletionGracePeriodSeconds)
        && Objects.equals(labels, that.labels)
        && Objects.equals(annotations, that.annotations)
        && Objects.equals(ownerReferences, that.ownerReferences)
        && Objects.equals(finalizers, that.finalizers)
        && Objects.equals(managedFields, that.managedFields);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        generateName,
        namespace,
        selfLink,
        uid,
        resourceVersion,
        generation,
        creationTimestamp,
        deletionTimestamp,
        deletionGracePeriodSeconds,
        labels,
        annotations,
        ownerReferences,
        finalizers,
        managedFields);
  }

  @Override
  public String toString() {
    return "ObjectMeta{"
        + "name="
        + name
        + ", generateName="
        + generateName
        + ", namespace="
        + namespace
        + ", selfLink="
        + selfLink
        + ", uid="
        + uid
        + ", resourceVersion="
        + resourceVersion
        + ", generation="
        + generation
        + ", creationTimestamp="
        + creationTimestamp
        + ", deletionTimestamp="
        + deletionTimestamp
        + ", deletionGracePeriodSeconds="
        + deletionGracePeriodSeconds
        + ", labels="
        + labels
        + ", annotations="
        + annotations
        + ", ownerReferences="
        + ownerReferences
        + ", finalizers="
        + finalizers
        + ", managedFields="
        + managedFields
        + "}";
  }
}
