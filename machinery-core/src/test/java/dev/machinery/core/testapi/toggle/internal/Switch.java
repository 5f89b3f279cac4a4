package dev.machinery.core.testapi.toggle.internal;

/** One switch. */
public final class Switch {
  private Mode mode;

  public Mode getMode() {
    return mode;
  }

  public void setMode(Mode mode) {
    this.mode = mode;
  }
}
