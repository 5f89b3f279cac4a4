package dev.machinery.core.testapi.podinternal;

import dev.machinery.core.testapi.TestObject;

/** One internal Pod shared by groups compute and experimental: the declared convertibility. */
public final class Pod extends TestObject {
  private String node;

  public String getNode() {
    return node;
  }

  public void setNode(String node) {
    this.node = node;
  }
}
