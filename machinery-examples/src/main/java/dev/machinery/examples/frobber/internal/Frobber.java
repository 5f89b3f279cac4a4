package dev.machinery.examples.frobber.internal;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.List;

/**
 * The internal Frobber, which both versions convert through: every param in one list.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
public final class Frobber implements ApiObject {
  private String apiVersion;
  private String kind;
  private ObjectMeta metadata;
  private Integer height;
  private Integer width;
  private List<String> params;

  /** Creates an empty Frobber. */
  public Frobber() {}

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
   * Returns the height.
   *
   * @return the value
   */
  public Integer getHeight() {
    return height;
  }

  /**
   * Sets the height.
   *
   * @param height the value
   */
  public void setHeight(Integer height) {
    this.height = height;
  }

  /**
   * Returns the width.
   *
   * @return the value
   */
  public Integer getWidth() {
    return width;
  }

  /**
   * Sets the width.
   *
   * @param width the value
   */
  public void setWidth(Integer width) {
    this.width = width;
  }

  /**
   * Returns the params.
   *
   * @return the value
   */
  public List<String> getParams() {
    return params;
  }

  /**
   * Sets the params.
   *
   * @param params the value
   */
  public void setParams(List<String> params) {
    this.params = params;
  }
}
