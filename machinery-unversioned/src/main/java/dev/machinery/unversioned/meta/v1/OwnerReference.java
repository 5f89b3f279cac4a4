package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.conversion.ProtoReserved;
import java.util.Objects;

/**
 * An object that owns another: deleting the owner garbage-collects the dependant.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
// Kubernetes' generated.proto leaves 2 unused (a removed field).
@ProtoReserved(2)
@JsonPropertyOrder({"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"})
public final class OwnerReference {
  private String apiVersion;
  private String kind;
  private String name;
  private String uid;
  private Boolean controller;
  private Boolean blockOwnerDeletion;

  /** Creates an empty OwnerReference. */
  public OwnerReference() {}

  /**
   * Returns the owner's api version.
   *
   * @return the owner's api version
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @ProtoField(5)
  public String getApiVersion() {
    return apiVersion;
  }

  /**
   * Sets the owner's api version.
   *
   * @param apiVersion the owner's api version
   */
  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  /**
   * Returns the owner's kind.
   *
   * @return the owner's kind
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @ProtoField(1)
  public String getKind() {
    return kind;
  }

  /**
   * Sets the owner's kind.
   *
   * @param kind the owner's kind
   */
  public void setKind(String kind) {
    this.kind = kind;
  }

  /**
   * Returns the owner's name.
   *
   * @return the owner's name
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @ProtoField(3)
  public String getName() {
    return name;
  }

  /**
   * Sets the owner's name.
   *
   * @param name the owner's name
   */
  public void setName(String name) {
    this.name = name;
  }

  /**
   * Returns the owner's uid.
   *
   * @return the owner's uid
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @ProtoField(4)
  public String getUid() {
    return uid;
  }

  /**
   * Sets the owner's uid.
   *
   * @param uid the owner's uid
   */
  public void setUid(String uid) {
    this.uid = uid;
  }

  /**
   * Returns whether the owner is the managing controller.
   *
   * @return whether the owner is the managing controller
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ProtoField(value = 6, optional = true)
  public Boolean getController() {
    return controller;
  }

  /**
   * Sets whether the owner is the managing controller.
   *
   * @param controller whether the owner is the managing controller
   */
  public void setController(Boolean controller) {
    this.controller = controller;
  }

  /**
   * Returns whether the owner cannot be deleted before this object.
   *
   * @return whether the owner cannot be deleted before this object
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ProtoField(value = 7, optional = true)
  public Boolean getBlockOwnerDeletion() {
    return blockOwnerDeletion;
  }

  /**
   * Sets whether the owner cannot be deleted before this object.
   *
   * @param blockOwnerDeletion whether the owner cannot be deleted before this object
   */
  public void setBlockOwnerDeletion(Boolean blockOwnerDeletion) {
    this.blockOwnerDeletion = blockOwnerDeletion;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof OwnerReference)) {
      return false;
    }
    OwnerReference that = (OwnerReference) other;
    return true
        && Objects.equals(apiVersion, that.apiVersion)
        && Objects.equals(kind, that.kind)
        && Objects.equals(name, that.name)
        && Objects.equals(uid, that.uid)
        && Objects.equals(controller, that.controller)
        && Objects.equals(blockOwnerDeletion, that.blockOwnerDeletion);
  }

  @Override
  public int hashCode() {
    return Objects.hash(apiVersion, kind, name, uid, controller, blockOwnerDeletion);
  }

  @Override
  public String toString() {
    return "OwnerReference{"
        + "apiVersion="
        + apiVersion
        + ", kind="
        + kind
        + ", name="
        + name
        + ", uid="
        + uid
        + ", controller="
        + controller
        + ", blockOwnerDeletion="
        + blockOwnerDeletion
        + "}";
  }
}
