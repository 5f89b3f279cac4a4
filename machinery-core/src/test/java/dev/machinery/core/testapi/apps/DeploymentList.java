package dev.machinery.core.testapi.apps;

import dev.machinery.core.testapi.TestObject;
import java.util.List;

/** A list of Deployments. */
public final class DeploymentList extends TestObject {
  private List<Deployment> items;

  public List<Deployment> getItems() {
    return items;
  }

  public void setItems(List<Deployment> items) {
    this.items = items;
  }
}
