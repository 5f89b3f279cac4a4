package dev.machinery.core.testapi.toggle.internal;

import dev.machinery.core.testapi.TestObject;
import java.util.List;

public final class Toggle extends TestObject {
  private List<Switch> switches;

  public List<Switch> getSwitches() {
    return switches;
  }

  public void setSwitches(List<Switch> switches) {
    this.switches = switches;
  }
}
