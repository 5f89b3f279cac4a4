package dev.machinery.unversioned.testapi.gadget.internal;

import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.List;
import java.util.Map;

public final class Gadget extends TypeMeta {
  private ObjectMeta metadata = new ObjectMeta();
  private List<OwnerReference> related;
  private Map<String, Object> settings;

  public ObjectMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  public List<OwnerReference> getRelated() {
    return related;
  }

  public void setRelated(List<OwnerReference> related) {
    this.related = related;
  }

  public Map<String, Object> getSettings() {
    return settings;
  }

  public void setSettings(Map<String, Object> settings) {
    this.settings = settings;
  }
}
