package dev.machinery.core.testapi.workload;

import dev.machinery.core.testapi.TestObject;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;

/** A kind whose fields are fabric8's value types, read by fabric8's own Jackson deserializers. */
public final class Workload extends TestObject {
  private Map<String, Quantity> limits;
  private IntOrString maxSurge;
  private IntOrString maxUnavailable;
  private List<IntOrString> ports;

  public Map<String, Quantity> getLimits() {
    return limits;
  }

  public void setLimits(Map<String, Quantity> limits) {
    this.limits = limits;
  }

  public IntOrString getMaxSurge() {
    return maxSurge;
  }

  public void setMaxSurge(IntOrString maxSurge) {
    this.maxSurge = maxSurge;
  }

  public IntOrString getMaxUnavailable() {
    return maxUnavailable;
  }

  public void setMaxUnavailable(IntOrString maxUnavailable) {
    this.maxUnavailable = maxUnavailable;
  }

  public List<IntOrString> getPorts() {
    return ports;
  }

  public void setPorts(List<IntOrString> ports) {
    this.ports = ports;
  }
}
