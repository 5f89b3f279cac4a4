package dev.machinery.apiserver.registry.rest;

import dev.machinery.conversion.ProtoField;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.ListMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * The list the server answers a list request with, for every kind: {@code apiVersion}, {@code kind}
 * ({@code DeploymentList}), list metadata and the items. One class serves every list kind; the
 * Scheme tells them apart by {@code apiVersion} and {@code kind}, so each served version's list
 * kind is registered with {@link #addToScheme}. In protobuf every Kubernetes list is the same
 * message (metadata 1, items 2), so this class declares it too.
 *
 * <p>Mutable; confined to the request that builds it.
 */
public final class ResourceList implements ApiObject {
  private String apiVersion;
  private String kind;
  private ListMeta metadata = new ListMeta();
  private List<Object> items = new ArrayList<>();

  /** Creates an empty list. */
  public ResourceList() {}

  /**
   * Registers {@code <Kind>List} in each version for this class, as the server needs it for every
   * version a resource is served in. The list serves as it is in every version, so a scheme that
   * {@linkplain Scheme.Builder#requireInternalVersions() requires internal versions} asks none of
   * it.
   *
   * @param builder the scheme builder
   * @param kind the item kind's name, such as {@code Deployment}
   * @param versions the versions the kind is served in
   * @return the builder
   */
  public static Scheme.Builder addToScheme(
      Scheme.Builder builder, String kind, GroupVersion... versions) {
    for (GroupVersion version : versions) {
      builder.addSharedType(version.withKind(kind + "List"), ResourceList.class);
    }
    return builder;
  }

  /**
   * Creates a list of a kind.
   *
   * @param kind the list's kind, such as {@code apps/v1, Kind=DeploymentList}
   * @param metadata the list metadata
   * @param items the items
   * @return the list
   */
  public static ResourceList of(GroupVersionKind kind, ListMeta metadata, List<Object> items) {
    ResourceList list = new ResourceList();
    list.setApiVersion(kind.apiVersion());
    list.setKind(kind.kind());
    list.setMetadata(metadata);
    list.setItems(items);
    return list;
  }

  @Override
  public String getApiVersion() {
    return apiVersion;
  }

  @Override
  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  @Override
  public String getKind() {
    return kind;
  }

  @Override
  public void setKind(String kind) {
    this.kind = kind;
  }

  /**
   * Returns the list metadata.
   *
   * @return the metadata
   */
  @ProtoField(1)
  public ListMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the list metadata.
   *
   * @param metadata the metadata
   */
  public void setMetadata(ListMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the items.
   *
   * @return the items
   */
  @ProtoField(2)
  public List<Object> getItems() {
    return items;
  }

  /**
   * Sets the items.
   *
   * @param items the items
   */
  public void setItems(List<Object> items) {
    this.items = items;
  }
}
