package dev.machinery.core.testapi.meta;

import dev.machinery.core.testapi.TestObject;

/** An unversioned Status. */
public final class Status extends TestObject {
  private String message;
  private int code;

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }

  public int getCode() {
    return code;
  }

  public void setCode(int code) {
    this.code = code;
  }
}
