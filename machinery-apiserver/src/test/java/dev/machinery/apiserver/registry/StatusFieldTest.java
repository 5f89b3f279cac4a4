package dev.machinery.apiserver.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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

  /** A kind whose new instances have a null status of a class of the model. */
  public static final class WithNullStatus {
    private Phase status;

    /** Required by the property model. */
    public WithNullStatus() {}

    public Phase getStatus() {
      return status;
    }

    public void setStatus(Phase status) {
      this.status = status;
    }
  }

  /** A kind whose new instances have a null status held as a map. */
  public static final class WithNullMapStatus {
    private Map<String, Object> status;

    /** Required by the property model. */
    public WithNullMapStatus() {}

    public Map<String, Object> getStatus() {
      return status;
    }

    public void setStatus(Map<String, Object> status) {
      this.status = status;
    }
  }

  /** A status class. */
  public static final class Phase {
    private String phase;

    /** Required by the property model. */
    public Phase() {}

    public String getPhase() {
      return phase;
    }

    public void setPhase(String phase) {
      this.phase = phase;
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
  void aCreatedObjectWhoseClassStartsWithoutAStatusGetsAnEmptyOne() {
    // kube-apiserver resets a created object's status to its Go zero value, written status: {}.
    WithNullStatus typed = new WithNullStatus();
    Phase running = new Phase();
    running.setPhase("Running");
    typed.setStatus(running);
    StatusField.of(WithNullStatus.class).reset(typed);
    assertNotNull(typed.getStatus());
    assertNull(typed.getStatus().getPhase());

    WithNullMapStatus map = new WithNullMapStatus();
    map.setStatus(Map.of("phase", "Running"));
    StatusField.of(WithNullMapStatus.class).reset(map);
    assertEquals(Map.of(), map.getStatus());
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
