package dev.machinery.core.runtime;

import dev.machinery.core.testapi.TestObject;

/** Holds a second type whose simple name is Status. */
public final class OtherStatus {
  private OtherStatus() {}

  /** Another Status. */
  public static final class Status extends TestObject {}
}
