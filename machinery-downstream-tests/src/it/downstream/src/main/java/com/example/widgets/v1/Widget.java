package com.example.widgets.v1;

import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;
import java.util.Objects;

/** A widget, with the library's own ObjectMeta. */
public class Widget extends TypeMeta {
  private ObjectMeta metadata = new ObjectMeta();
  private WidgetSpec spec;

  public ObjectMeta getMetadata() {
    return metadata;
  }

  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  public WidgetSpec getSpec() {
    return spec;
  }

  public void setSpec(WidgetSpec spec) {
    this.spec = spec;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Widget w
        && Objects.equals(getApiVersion(), w.getApiVersion())
        && Objects.equals(getKind(), w.getKind())
        && Objects.equals(metadata, w.metadata)
        && Objects.equals(spec, w.spec);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), metadata, spec);
  }
}
