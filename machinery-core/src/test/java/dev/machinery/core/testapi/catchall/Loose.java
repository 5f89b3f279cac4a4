package dev.machinery.core.testapi.catchall;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import dev.machinery.core.testapi.TestObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** A kind whose spec has a catch-all, as every fabric8 class does. */
public final class Loose extends TestObject {
  private Spec spec;

  public Spec getSpec() {
    return spec;
  }

  public void setSpec(Spec spec) {
    this.spec = spec;
  }

  /** The spec: one field and a catch-all. */
  public static final class Spec {
    private int replicas;
    private final Map<String, Object> additionalProperties = new LinkedHashMap<>();

    public int getReplicas() {
      return replicas;
    }

    public void setReplicas(int replicas) {
      this.replicas = replicas;
    }

    @JsonAnyGetter
    public Map<String, Object> getAdditionalProperties() {
      return additionalProperties;
    }

    @JsonAnySetter
    public void setAdditionalProperty(String name, Object value) {
      additionalProperties.put(name, value);
    }
  }
}
