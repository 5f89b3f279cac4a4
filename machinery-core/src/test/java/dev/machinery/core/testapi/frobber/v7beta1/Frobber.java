package dev.machinery.core.testapi.frobber.v7beta1;

import dev.machinery.core.testapi.TestObject;
import java.util.List;
import java.util.Objects;

public final class Frobber extends TestObject {
  private String name;
  private int height;
  private int width;
  private List<String> params;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public int getHeight() {
    return height;
  }

  public void setHeight(int height) {
    this.height = height;
  }

  public int getWidth() {
    return width;
  }

  public void setWidth(int width) {
    this.width = width;
  }

  public List<String> getParams() {
    return params;
  }

  public void setParams(List<String> params) {
    this.params = params;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Frobber x
        && Objects.equals(getApiVersion(), x.getApiVersion())
        && Objects.equals(getKind(), x.getKind())
        && Objects.equals(name, x.name)
        && Objects.equals(height, x.height)
        && Objects.equals(width, x.width)
        && Objects.equals(params, x.params);
  }

  @Override
  public int hashCode() {
    return Objects.hash(getApiVersion(), getKind(), name, height, width, params);
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
        + ", params="
        + params
        + "}";
  }
}
