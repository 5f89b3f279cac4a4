package dev.machinery.core.testapi;

import dev.machinery.core.runtime.ApiObject;

/** Holds apiVersion and kind for the test API's kinds. */
public abstract class TestObject implements ApiObject {
  private String apiVersion;
  private String kind;

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
}
