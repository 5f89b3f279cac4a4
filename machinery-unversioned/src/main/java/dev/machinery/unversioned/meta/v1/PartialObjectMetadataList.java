package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Objects;

/**
 * A list of objects reduced to their metadata.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "items"})
public final class PartialObjectMetadataList extends TypeMeta {
  private ListMeta metadata = new ListMeta();
  private List<PartialObjectMetadata> items;

  /** Creates an empty PartialObjectMetadataList. */
  public PartialObjectMetadataList() {}

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
   * Returns the items.
   *
   * @return the items
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonSerialize(contentUsing = PartialObjectMetadataItemSerializer.class)
  public List<PartialObjectMetadata> getItems() {
    return items;
  }

  /**
   * Sets the items.
   *
   * @param items the items
   */
  public void setItems(List<PartialObjectMetadata> items) {
    this.items = items;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof PartialObjectMetadataList)) {
      return false;
    }
    PartialObjectMetadataList that = (PartialObjectMetadataList) other;
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
    return "PartialObjectMetadataList{"
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
