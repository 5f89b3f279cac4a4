package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import java.util.Objects;

/**
 * The metadata of a list: {@code resourceVersion}, {@code continue} and the count of items left.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"selfLink", "resourceVersion", "continue", "remainingItemCount"})
public final class ListMeta {
  private String selfLink;
  private String resourceVersion;
  private String continueToken;
  private Long remainingItemCount;

  /** Creates an empty ListMeta. */
  public ListMeta() {}

  /**
   * Returns the deprecated self link.
   *
   * @return the deprecated self link
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(1)
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
   * Returns the resource version of the list.
   *
   * @return the resource version of the list
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(2)
  public String getResourceVersion() {
    return resourceVersion;
  }

  /**
   * Sets the resource version of the list.
   *
   * @param resourceVersion the resource version of the list
   */
  public void setResourceVersion(String resourceVersion) {
    this.resourceVersion = resourceVersion;
  }

  /**
   * Returns the token that continues a chunked list.
   *
   * @return the token that continues a chunked list
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonProperty("continue")
  @ProtoField(3)
  public String getContinue() {
    return continueToken;
  }

  /**
   * Sets the token that continues a chunked list.
   *
   * @param continueToken the token that continues a chunked list
   */
  @JsonProperty("continue")
  public void setContinue(String continueToken) {
    this.continueToken = continueToken;
  }

  /**
   * Returns how many items remain after this chunk, if known.
   *
   * @return how many items remain after this chunk, if known
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ProtoField(value = 4, optional = true)
  public Long getRemainingItemCount() {
    return remainingItemCount;
  }

  /**
   * Sets how many items remain after this chunk, if known.
   *
   * @param remainingItemCount how many items remain after this chunk, if known
   */
  public void setRemainingItemCount(Long remainingItemCount) {
    this.remainingItemCount = remainingItemCount;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof ListMeta)) {
      return false;
    }
    ListMeta that = (ListMeta) other;
    return true
        && Objects.equals(selfLink, that.selfLink)
        && Objects.equals(resourceVersion, that.resourceVersion)
        && Objects.equals(continueToken, that.continueToken)
        && Objects.equals(remainingItemCount, that.remainingItemCount);
  }

  @Override
  public int hashCode() {
    return Objects.hash(selfLink, resourceVersion, continueToken, remainingItemCount);
  }

  @Override
  public String toString() {
    return "ListMeta{"
        + "selfLink="
        + selfLink
        + ", resourceVersion="
        + resourceVersion
        + ", continue="
        + continueToken
        + ", remainingItemCount="
        + remainingItemCount
        + "}";
  }
}
