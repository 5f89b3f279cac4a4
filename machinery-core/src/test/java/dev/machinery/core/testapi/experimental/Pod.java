package dev.machinery.core.testapi.experimental;

import dev.machinery.core.testapi.TestObject;

/** A Pod of group experimental: identically named kinds in different groups. */
public final class Pod extends TestObject {
  private String node;

  public String getNode() {
    return node;
  }

  public void setNode(String node) {
    this.node = node;
  }
}
