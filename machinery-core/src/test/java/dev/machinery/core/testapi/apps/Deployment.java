package dev.machinery.core.testapi.apps;

import dev.machinery.core.testapi.Meta;
import dev.machinery.core.testapi.TestObject;
import java.util.Objects;

/** apps/v1 Deployment of the test API. */
public final class Deployment extends TestObject {
  private Meta metadata;
  private DeploymentSpec spec;

  public Meta getMetadata() {
    return metadata;
  }

  public void setMetadata(Meta metadata) {
    this.metadata = metadata;
  }

  public DeploymentSpec getSpec() {
    return spec;
  }

  public void setSpec(DeploymentSpec spec) {
    this.spec = spec;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Deployment
        && Objects.equals(getApiVersion(), ((Deployment) o).getApiVersion())
        && Objects.equals(getKind(), ((Deployment) o).getKind())
        && Objects.equals(metadata, ((Deployment) o).metadata)
        && Objects.equals(spec, ((Deployment) o).spec);
  }

  @Override
  public int hashCode() {
    return Objects.hash(metadata, spec);
  }
}
