package dev.machinery.unversioned.testapi;

import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;

public final class PodList extends TypeMeta {
  private ListMeta metadata;
  private List<Pod> items;

  public ListMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(ListMeta metadata) {
    this.metadata = metadata;
  }

  public List<Pod> getItems() {
    return items;
  }

  public void setItems(List<Pod> items) {
    this.items = items;
  }
}
