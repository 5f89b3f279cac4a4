package dev.machinery.examples.sites;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;

/**
 * A {@code sites.example.dev/v1} Site: namespaced, with a spec, a status written through its {@code
 * status} subresource, and a generation bumped by each change to the spec.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "spec", "status"})
public final class Site extends TypeMeta {
  /** The group. */
  public static final String GROUP = "sites.example.dev";

  /** The group version {@code sites.example.dev/v1}. */
  public static final GroupVersion V1 = GroupVersion.of(GROUP, "v1");

  private ObjectMeta metadata;
  private SiteSpec spec;
  private SiteStatus status;

  /** Creates an empty Site. */
  public Site() {}

  /**
   * Returns the metadata.
   *
   * @return the value
   */
  public ObjectMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the metadata.
   *
   * @param metadata the value
   */
  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the desired state.
   *
   * @return the value
   */
  public SiteSpec getSpec() {
    return spec;
  }

  /**
   * Sets the desired state.
   *
   * @param spec the value
   */
  public void setSpec(SiteSpec spec) {
    this.spec = spec;
  }

  /**
   * Returns the observed state.
   *
   * @return the value
   */
  public SiteStatus getStatus() {
    return status;
  }

  /**
   * Sets the observed state.
   *
   * @param status the value
   */
  public void setStatus(SiteStatus status) {
    this.status = status;
  }
}
