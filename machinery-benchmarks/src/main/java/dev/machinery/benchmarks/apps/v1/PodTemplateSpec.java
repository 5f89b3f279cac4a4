package dev.machinery.benchmarks.apps.v1;

import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.Objects;

/** A pod template. Mutable; not thread-safe. */
public final class PodTemplateSpec {
  private ObjectMeta metadata;
  private PodSpec spec;

  /** Creates an empty value. */
  public PodTemplateSpec() {}

  /**
   * Returns the template metadata.
   *
   * @return the template metadata
   */
  @ProtoField(1)
  public ObjectMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the template metadata.
   *
   * @param metadata the template metadata
   */
  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the pod spec.
   *
   * @return the pod spec
   */
  @ProtoField(2)
  public PodSpec getSpec() {
    return spec;
  }

  /**
   * Sets the pod spec.
   *
   * @param spec the pod spec
   */
  public void setSpec(PodSpec spec) {
    this.spec = spec;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof PodTemplateSpec)) {
      return false;
    }
    PodTemplateSpec that = (PodTemplateSpec) o;
    return Objects.equals(metadata, that.metadata) && Objects.equals(spec, that.spec);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metadata, spec);
  }
}
