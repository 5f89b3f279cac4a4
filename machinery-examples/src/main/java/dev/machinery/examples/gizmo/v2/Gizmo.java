package dev.machinery.examples.gizmo.v2;

import dev.machinery.core.runtime.ApiObject;
import java.util.List;
import java.util.Objects;

/** The {@code gizmos.example.dev/v2} Gizmo. Mutable; confine an instance to one thread. */
public final class Gizmo implements ApiObject {
  private String apiVersion;
  private String kind;
  private String name;
  private String maintainer;
  private Integer size;
  private List<String> tags;

  /** Creates an empty gizmo. */
  public Gizmo() {}

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
   * Returns the name.
   *
   * @return the name
   */
  public String getName() {
    return name;
  }

  /**
   * Sets the name.
   *
   * @param name the name
   */
  public void setName(String name) {
    this.name = name;
  }

  /**
   * Returns who maintains the gizmo.
   *
   * @return who maintains the gizmo
   */
  public String getMaintainer() {
    return maintainer;
  }

  /**
   * Sets who maintains the gizmo.
   *
   * @param maintainer who maintains the gizmo
   */
  public void setMaintainer(String maintainer) {
    this.maintainer = maintainer;
  }

  /**
   * Returns the size, or {@code null} for the default.
   *
   * @return the size, or {@code null} for the default
   */
  public Integer getSize() {
    return size;
  }

  /**
   * Sets the size, or {@code null} for the default.
   *
   * @param size the size, or {@code null} for the default
   */
  public void setSize(Integer size) {
    this.size = size;
  }

  /**
   * Returns the tags.
   *
   * @return the tags
   */
  public List<String> getTags() {
    return tags;
  }

  /**
   * Sets the tags.
   *
   * @param tags the tags
   */
  public void setTags(List<String> tags) {
    this.tags = tags;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Gizmo that
        && Objects.equals(apiVersion, that.apiVersion)
        && Objects.equals(kind, that.kind)
        && Objects.equals(name, that.name)
        && Objects.equals(maintainer, that.maintainer)
        && Objects.equals(size, that.size)
        && Objects.equals(tags, that.tags);
  }

  @Override
  public int hashCode() {
    return Objects.hash(apiVersion, kind, name, maintainer, size, tags);
  }
}
