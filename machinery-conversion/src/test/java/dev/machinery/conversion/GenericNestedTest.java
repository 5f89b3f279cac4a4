package dev.machinery.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 11: one declaration serves a third-party model: nested classes, shared mutable classes and
 * {@code Map<String, Object>} catch-alls need no registration of their own.
 */
class GenericNestedTest {
  /** A mutable class both sides use. */
  public static final class Shared {
    private List<String> names = new ArrayList<>();

    public List<String> getNames() {
      return names;
    }

    public void setNames(List<String> names) {
      this.names = names;
    }
  }

  /** The third party's nested class. */
  public static final class TheirPort {
    private int port;
    private Map<String, Object> additionalProperties = new LinkedHashMap<>();

    public int getPort() {
      return port;
    }

    public void setPort(int port) {
      this.port = port;
    }

    public Map<String, Object> getAdditionalProperties() {
      return additionalProperties;
    }

    public void setAdditionalProperties(Map<String, Object> additionalProperties) {
      this.additionalProperties = additionalProperties;
    }
  }

  /** The third party's top-level class. */
  public static final class TheirService {
    private TheirPort main;
    private List<TheirPort> ports;
    private Shared shared;
    private TheirService next;

    public TheirPort getMain() {
      return main;
    }

    public void setMain(TheirPort main) {
      this.main = main;
    }

    public List<TheirPort> getPorts() {
      return ports;
    }

    public void setPorts(List<TheirPort> ports) {
      this.ports = ports;
    }

    public Shared getShared() {
      return shared;
    }

    public void setShared(Shared shared) {
      this.shared = shared;
    }

    public TheirService getNext() {
      return next;
    }

    public void setNext(TheirService next) {
      this.next = next;
    }
  }

  /** Our nested record. */
  public record MyPort(int port, Map<String, Object> additionalProperties) {}

  /** Our top-level class. */
  public static final class MyService {
    private MyPort main;
    private List<MyPort> ports;
    private Shared shared;
    private MyService next;

    public MyPort getMain() {
      return main;
    }

    public void setMain(MyPort main) {
      this.main = main;
    }

    public List<MyPort> getPorts() {
      return ports;
    }

    public void setPorts(List<MyPort> ports) {
      this.ports = ports;
    }

    public Shared getShared() {
      return shared;
    }

    public void setShared(Shared shared) {
      this.shared = shared;
    }

    public MyService getNext() {
      return next;
    }

    public void setNext(MyService next) {
      this.next = next;
    }
  }

  @Test
  void oneDeclarationConvertsNestedClassesSharedClassesAndCatchAlls() {
    Converter converter =
        Converter.builder().addGenericConversion(TheirService.class, MyService.class).build();
    TheirPort port = new TheirPort();
    port.setPort(8080);
    port.getAdditionalProperties().put("x", new ArrayList<>(List.of(1, Map.of("y", "z"))));
    TheirService service = new TheirService();
    service.setMain(port);
    service.setPorts(List.of(port));
    service.setShared(new Shared());
    service.getShared().getNames().add("a");
    TheirService next = new TheirService();
    next.setMain(port);
    service.setNext(next);

    MyService mine = converter.convert(service, MyService.class);
    assertEquals(8080, mine.getMain().port());
    assertEquals(port.getAdditionalProperties(), mine.getMain().additionalProperties());
    assertNotSame(
        port.getAdditionalProperties().get("x"), mine.getMain().additionalProperties().get("x"));
    assertEquals(List.of(new MyPort(8080, mine.getMain().additionalProperties())), mine.getPorts());
    assertEquals(List.of("a"), mine.getShared().getNames());
    assertNotSame(service.getShared(), mine.getShared());
    assertNotSame(service.getShared().getNames(), mine.getShared().getNames());
    assertEquals(8080, mine.getNext().getMain().port());
    assertEquals(List.of(TheirService.class), List.copyOf(converter.conversionPairs().keySet()));
  }

  /** A nested class missing a property of the other side. */
  public static final class TheirLossyPort {
    private int port;
    private String protocol;

    public int getPort() {
      return port;
    }

    public void setPort(int port) {
      this.port = port;
    }

    public String getProtocol() {
      return protocol;
    }

    public void setProtocol(String protocol) {
      this.protocol = protocol;
    }
  }

  /** Holds a lossy nested class. */
  public static final class TheirHolder {
    private TheirLossyPort port;

    public TheirLossyPort getPort() {
      return port;
    }

    public void setPort(TheirLossyPort port) {
      this.port = port;
    }
  }

  /** Our holder. */
  public record MyHolder(MyPort port) {}

  @Test
  void aLossInANestedPairIsStillABuildProblem() {
    ConverterBuildException e =
        assertThrows(
            ConverterBuildException.class,
            () ->
                Converter.builder()
                    .addGenericConversion(TheirHolder.class, MyHolder.class)
                    .build());
    assertTrue(
        e.problems()
            .contains(
                "property protocol of "
                    + TheirLossyPort.class.getName()
                    + " has no counterpart in "
                    + MyPort.class.getName()
                    + " and would be lost; mark it @NotConverted(reason = ...) or register a"
                    + " conversion function for the pair"),
        e.problems().toString());
  }
}
