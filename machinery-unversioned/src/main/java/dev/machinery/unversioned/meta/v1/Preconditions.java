package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * What must hold for a delete to proceed: the uid and resource version.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"uid", "resourceVersion"})
public final class Preconditions {
  private String uid;
  private String resourceVersion;

  /** Creates an empty Preconditions. */
  public Preconditions() {}

  /**
   * Returns the uid the object must have.
   *
   * @return the uid the object must have
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getUid() {
    return uid;
  }

  /**
   * Sets the uid the object must have.
   *
   * @param uid the uid the object must have
   */
  public void setUid(String uid) {
    this.uid = uid;
  }

  /**
   * Returns the resource version the object must have.
   *
   * @return the resource version the object must have
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getResourceVersion() {
    return resourceVersion;
  }

  /**
   * Sets the resource version the object must have.
   *
   * @param resourceVersion the resource version the object must have
   */
  public void setResourceVersion(String resourceVersion) {
    this.resourceVersion = resourceVersion;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof Preconditions)) {
      return false;
    }
    Preconditions that = (Preconditions) other;
    return true
        && Objects.equals(uid, that.uid)
        && Objects.equals(resourceVersion, that.resourceVersion);
  }

  @Override
  public int hashCode() {
    return Objects.hash(uid, resourceVersion);
  }

  @Override
  public String toString() {
    return "Preconditions{" + "uid=" + uid + ", resourceVersion=" + resourceVersion + "}";
  }
}
