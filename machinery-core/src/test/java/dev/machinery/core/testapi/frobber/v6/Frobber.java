package dev.machinery.core.testapi.frobber.v6;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.machinery.core.testapi.TestObject;
import java.util.List;
import java.util.Objects;

public final class Frobber extends TestObject {
  private String name;
  private Integer height;
  private Integer width;
  private Integer heightInInches;
  private Integer widthInInches;
  private String param;
  private List<String> extraParams;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public Integer getHeight() {
    return height;
  }

  public void setHeight(Integer height) {
    this.height = height;
  }

  public Integer getWidth() {
    return width;
  }

  public void setWidth(Integer width) {
    this.width = width;
  }

  public Integer getHeightInInches() {
    return heightInInches;
  }

  public void setHeightInInches(Integer heightInInches) {
    this.heightInInches = heightInInches;
  }

  public Integer getWidthInInches() {
    return widthInInches;
  }

  public void setWidthInInches(Integer widthInInches) {
    this.widthInInches = widthInInches;
  }

  public String getParam() {
    return param;
  }

  public void setParam(String param) {
    this.param = param;
  }

  @JsonProperty("params")
  public List<String> getExtraParams() {
    return extraParams;
  }

  @JsonProperty("params")
  public void setExtraParams(List<String> extraParams) {
    this.extraParams = extraParams;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Frobber x
        && Objects.equals(getApiVersion(), x.getApiVersion())
        && Objects.equals(getKind(), x.getKind())
        && Objects.equals(name, x.name)
        && Objects.equals(height, x.height)
        && Objects.equals(width, x.width)
        && Objects.equals(heightInInches, x.heightInInches)
        && Objects.equals(widthInInches, x.widthInInches)
        && Objects.equals(param, x.param)
        && Objects.equals(extraParams, x.extraParams);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        getApiVersion(),
        getKind(),
        name,
        height,
        width,
        heightInInches,
        widthInInches,
        param,
        extraParams);
  }

  @Override
  public String toString() {
    return "Frobber{"
        + getApiVersion()
        + ", "
        + getKind()
        + ", name="
        + name
        + ", height="
        + height
        + ", width="
        + width
        + ", heightInInches="
        + heightInInches
        + ", widthInInches="
        + widthInInches
        + ", param="
        + param
        + ", extraParams="
        + extraParams
        + "}";
  }
}
