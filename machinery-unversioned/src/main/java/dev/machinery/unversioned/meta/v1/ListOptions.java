package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * The query of a list or watch: selectors, resource version, paging, timeouts.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({
  "labelSelector",
  "fieldSelector",
  "watch",
  "allowWatchBookmarks",
  "resourceVersion",
  "resourceVersionMatch",
  "timeoutSeconds",
  "limit",
  "continue",
  "sendInitialEvents"
})
public final class ListOptions extends TypeMeta {
  private String labelSelector;
  private String fieldSelector;
  private boolean watch;
  private boolean allowWatchBookmarks;
  private String resourceVersion;
  private String resourceVersionMatch;
  private Long timeoutSeconds;
  private long limit;
  private String continueToken;
  private Boolean sendInitialEvents;

  /** Creates an empty ListOptions. */
  public ListOptions() {}

  /**
   * Returns the label selector, such as {@code app=web,tier!=db}.
   *
   * @return the label selector, such as {@code app=web,tier!=db}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getLabelSelector() {
    return labelSelector;
  }

  /**
   * Sets the label selector, such as {@code app=web,tier!=db}.
   *
   * @param labelSelector the label selector, such as {@code app=web,tier!=db}
   */
  public void setLabelSelector(String labelSelector) {
    this.labelSelector = labelSelector;
  }

  /**
   * Returns the field selector, such as {@code metadata.name=web}.
   *
   * @return the field selector, such as {@code metadata.name=web}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getFieldSelector() {
    return fieldSelector;
  }

  /**
   * Sets the field selector, such as {@code metadata.name=web}.
   *
   * @param fieldSelector the field selector, such as {@code metadata.name=web}
   */
  public void setFieldSelector(String fieldSelector) {
    this.fieldSelector = fieldSelector;
  }

  /**
   * Returns whether to watch.
   *
   * @return whether to watch
   */
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  public boolean isWatch() {
    return watch;
  }

  /**
   * Sets whether to watch.
   *
   * @param watch whether to watch
   */
  public void setWatch(boolean watch) {
    this.watch = watch;
  }

  /**
   * Returns whether bookmarks may be sent.
   *
   * @return whether bookmarks may be sent
   */
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  public boolean isAllowWatchBookmarks() {
    return allowWatchBookmarks;
  }

  /**
   * Sets whether bookmarks may be sent.
   *
   * @param allowWatchBookmarks whether bookmarks may be sent
   */
  public void setAllowWatchBookmarks(boolean allowWatchBookmarks) {
    this.allowWatchBookmarks = allowWatchBookmarks;
  }

  /**
   * Returns the resource version.
   *
   * @return the resource version
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
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
   * Returns how to match the resource version.
   *
   * @return how to match the resource version
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getResourceVersionMatch() {
    return resourceVersionMatch;
  }

  /**
   * Sets how to match the resource version.
   *
   * @param resourceVersionMatch how to match the resource version
   */
  public void setResourceVersionMatch(String resourceVersionMatch) {
    this.resourceVersionMatch = resourceVersionMatch;
  }

  /**
   * Returns the timeout.
   *
   * @return the timeout
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public Long getTimeoutSeconds() {
    return timeoutSeconds;
  }

  /**
   * Sets the timeout.
   *
   * @param timeoutSeconds the timeout
   */
  public void setTimeoutSeconds(Long timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }

  /**
   * Returns the page size.
   *
   * @return the page size
   */
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  public long getLimit() {
    return limit;
  }

  /**
   * Sets the page size.
   *
   * @param limit the page size
   */
  public void setLimit(long limit) {
    this.limit = limit;
  }

  /**
   * Returns the continue token.
   *
   * @return the continue token
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonProperty("continue")
  public String getContinue() {
    return continueToken;
  }

  /**
   * Sets the continue token.
   *
   * @param continueToken the continue token
   */
  @JsonProperty("continue")
  public void setContinue(String continueToken) {
    this.continueToken = continueToken;
  }

  /**
   * Returns whether a watch starts with the current state.
   *
   * @return whether a watch starts with the current state
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public Boolean getSendInitialEvents() {
    return sendInitialEvents;
  }

  /**
   * Sets whether a watch starts with the current state.
   *
   * @param sendInitialEvents whether a watch starts with the current state
   */
  public void setSendInitialEvents(Boolean sendInitialEvents) {
    this.sendInitialEvents = sendInitialEvents;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof ListOptions)) {
      return false;
    }
    ListOptions that = (ListOptions) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(labelSelector, that.labelSelector)
        && Objects.equals(fieldSelector, that.fieldSelector)
        && Objects.equals(watch, that.watch)
        && Objects.equals(allowWatchBookmarks, that.allowWatchBookmarks)
        && Objects.equals(resourceVersion, that.resourceVersion)
        && Objects.equals(resourceVersionMatch, that.resourceVersionMatch)
        && Objects.equals(timeoutSeconds, that.timeoutSeconds)
        && Objects.equals(limit, that.limit)
        && Objects.equals(continueToken, that.continueToken)
        && Objects.equals(sendInitialEvents, that.sendInitialEvents);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        getApiVersion(),
        getKind(),
        labelSelector,
        fieldSelector,
        watch,
        allowWatchBookmarks,
        resourceVersion,
        resourceVersionMatch,
        timeoutSeconds,
        limit,
        continueToken,
        sendInitialEvents);
  }

  @Override
  public String toString() {
    return "ListOptions{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", labelSelector="
        + labelSelector
        + ", fieldSelector="
        + fieldSelector
        + ", watch="
        + watch
        + ", allowWatchBookmarks="
        + allowWatchBookmarks
        + ", resourceVersion="
        + resourceVersion
        + ", resourceVersionMatch="
        + resourceVersionMatch
        + ", timeoutSeconds="
        + timeoutSeconds
        + ", limit="
        + limit
        + ", continue="
        + continueToken
        + ", sendInitialEvents="
        + sendInitialEvents
        + "}";
  }
}
