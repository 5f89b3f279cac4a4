package dev.machinery.core.testapi.catchall;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import dev.machinery.core.codec.PreserveUnknownFields;
import dev.machinery.core.testapi.TestObject;
import java.util.LinkedHashMap;
import java.util.Map;

/** A kind that holds unknown fields on purpose. */
@PreserveUnknownFields
public final class Open extends TestObject {
  private final Map<String, Object> rest = new LinkedHashMap<>();

  @JsonAnyGetter
  public Map<String, Object> getRest() {
    return rest;
  }

  @JsonAnySetter
  public void put(String name, Object value) {
    rest.put(name, value);
  }
}
