package dev.machinery.benchmarks;

import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.meta.v1.ListMeta;
import java.util.List;

/**
 * A list of the benchmark's Deployments, for the negotiation benchmark. Mutable; not thread-safe.
 */
public final class DeploymentList implements ApiObject {
  private String apiVersion;
  private String kind;
  private ListMeta metadata;
  private List<Deployment> items;

  /** Creates an empty list. */
  public DeploymentList() {}

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
  public List<Deployment> getItems() {
    return items;
  }

  /**
   * Sets the items.
   *
   * @param items the items
   */
  public void setItems(List<Deployment> items) {
    this.items = items;
  }
}
