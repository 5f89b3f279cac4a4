package dev.machinery.apiserver.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A status subresource goes through the storage class's status property, which it must have. */
class StatusFieldTest {
  /** A kind with a status. */
  public static final class WithStatus {
    private Map<String, String> status = Map.of("phase", "New");

    /** Required by the property model. */
    public WithStatus() {}

    public Map<String, String> getStatus() {
      return status;
    }

    public void setStatus(Map<String, String> status) {
      this.status = status;
    }
  }

  /** A kind without one. */
  public static final class WithoutStatus {
    private String spec;

    /** Required by the property model. */
    public WithoutStatus() {}

    public String getSpec() {
      return spec;
    }

    public void setSpec(String spec) {
      this.spec = spec;
    }
  }

  @Test
  void readsWritesAndResetsTheStatus() {
    StatusField field = StatusField.of(WithStatus.class);
    WithStatus object = new WithStatus();
    field.set(object, Map.of("phase", "Running"));
    assertEquals(Map.of("phase", "Running"), field.get(object));
    field.reset(object);
    assertEquals(Map.of("phase", "New"), field.get(object));
  }

  @Test
  void aClassWithoutAStatusPropertyIsRefusedByName() {
    assertEquals(
        "a status subresource needs a status property with a getter and a setter; "
            + WithoutStatus.class.getName()
            + " has none",
        assertThrows(IllegalArgumentException.class, () -> StatusField.of(WithoutStatus.class))
            .getMessage());
  }
}
