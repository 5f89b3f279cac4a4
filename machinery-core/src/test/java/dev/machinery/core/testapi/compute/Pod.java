package dev.machinery.core.testapi.compute;

import dev.machinery.core.testapi.TestObject;

/** A Pod of group compute: identically named kinds in different groups. */
public final class Pod extends TestObject {
  private String node;

  public String getNode() {
    return node;
  }

  public void setNode(String node) {
    this.node = node;
  }
}
