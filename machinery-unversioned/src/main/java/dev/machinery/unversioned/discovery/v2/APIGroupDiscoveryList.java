package dev.machinery.unversioned.discovery.v2;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;
import java.util.Objects;

/**
 * Aggregated discovery ({@code apidiscovery.k8s.io/v2}): every group, version and resource in one
 * document.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "items"})
public final class APIGroupDiscoveryList extends TypeMeta {
  private ListMeta metadata = new ListMeta();
  private List<APIGroupDiscovery> items;

  /** Creates an empty APIGroupDiscoveryList. */
  public APIGroupDiscoveryList() {}

  /**
   * Returns the list metadata.
   *
   * @return the list metadata
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public ListMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the list metadata.
   *
   * @param metadata the list metadata
   */
  public void setMetadata(ListMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the groups.
   *
   * @return the groups
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public List<APIGroupDiscovery> getItems() {
    return items;
  }

  /**
   * Sets the groups.
   *
   * @param items the groups
   */
  public void setItems(List<APIGroupDiscovery> items) {
    this.items = items;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof APIGroupDiscoveryList)) {
      return false;
    }
    APIGroupDiscoveryList that = (APIGroupDiscoveryList) other;
    return true
        && Objects.equals(getApiVersion(), that.getApiVersion())
        && Objects.equals(getKind(), that.getKind())
        && Objects.equals(metadata, that.metadata)
        && Objects.equals(items, that.items);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), metadata, items);
  }

  @Override
  public String toString() {
    return "APIGroupDiscoveryList{"
        + "apiVersion="
        + getApiVersion()
        + ", kind="
        + getKind()
        + ", metadata="
        + metadata
        + ", items="
        + items
        + "}";
  }
}
