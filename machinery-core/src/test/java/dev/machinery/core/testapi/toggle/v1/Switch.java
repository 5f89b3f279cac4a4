package dev.machinery.core.testapi.toggle.v1;

/** One switch. */
public final class Switch {
  private String mode;

  public String getMode() {
    return mode;
  }

  public void setMode(String mode) {
    this.mode = mode;
  }
}
