package dev.machinery.unversioned.testapi;

import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;

/** A kind with metadata, registered under several names in the discovery tests. */
public class Thing extends TypeMeta {
  private ObjectMeta metadata;

  public ObjectMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }
}
