package dev.machinery.examples.frobber.v6;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.List;

/**
 * The {@code frobbers.example.dev/v6} Frobber of api-changes.md: one {@code param}, and the {@code
 * params} added compatibly later for the rest.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
public final class Frobber implements ApiObject {
  private String apiVersion;
  private String kind;
  private ObjectMeta metadata;
  private Integer height;
  private Integer width;
  private String param;
  private List<String> extraParams;

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
   * Returns the first param.
   *
   * @return the value
   */
  public String getParam() {
    return param;
  }

  /**
   * Sets the first param.
   *
   * @param param the value
   */
  public void setParam(String param) {
    this.param = param;
  }

  /**
   * Returns the params after the first, {@code params} on the wire.
   *
   * @return the value
   */
  @JsonProperty("params")
  public List<String> getExtraParams() {
    return extraParams;
  }

  /**
   * Sets the params after the first, {@code params} on the wire.
   *
   * @param extraParams the value
   */
  @JsonProperty("params")
  public void setExtraParams(List<String> extraParams) {
    this.extraParams = extraParams;
  }
}
