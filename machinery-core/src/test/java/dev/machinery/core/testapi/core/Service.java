package dev.machinery.core.testapi.core;

import dev.machinery.core.testapi.Meta;
import dev.machinery.core.testapi.TestObject;

/** Core group (v1) Service of the test API. */
public final class Service extends TestObject {
  private Meta metadata;
  private int port;

  public Meta getMetadata() {
    return metadata;
  }

  public void setMetadata(Meta metadata) {
    this.metadata = metadata;
  }

  public int getPort() {
    return port;
  }

  public void setPort(int port) {
    this.port = port;
  }
}
