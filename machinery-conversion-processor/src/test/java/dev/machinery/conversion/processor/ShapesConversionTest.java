package dev.machinery.conversion.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.conversion.ConversionException;
import dev.machinery.conversion.Converter;
import dev.machinery.conversion.ConverterBuildException;
import dev.machinery.conversion.NoConversionException;
import dev.machinery.conversion.StandardConversions;
import dev.machinery.conversion.processor.shapes.internal.Protocol;
import dev.machinery.conversion.processor.shapes.internal.RestartPolicy;
import dev.machinery.conversion.processor.shapes.meta.Meta;
import dev.machinery.conversion.processor.shapes.v1.Gadget;
import dev.machinery.conversion.processor.shapes.v1.GadgetConversions;
import dev.machinery.conversion.processor.shapes.v1.GeneratedConversions;
import dev.machinery.conversion.processor.shapes.v1.GeneratedDeepCopy;
import dev.machinery.conversion.processor.shapes.v1.Mode;
import dev.machinery.conversion.processor.shapes.v1.Port;
import dev.machinery.conversion.processor.shapes.v1.Widget;
import dev.machinery.conversion.processor.shapes.v1.WidgetSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ShapesConversionTest {
  private static final Converter CONVERTER =
      Converter.builder()
          .add(new GeneratedConversions())
          .add(new GeneratedDeepCopy())
          .add(new dev.machinery.conversion.processor.shapes.internal.GeneratedDeepCopy())
          .add(new dev.machinery.conversion.processor.shapes.meta.GeneratedDeepCopy())
          .build();

  /** The same pairs served by the runtime converter, with hand-written Gadget functions. */
  private static final Converter GENERIC =
      Converter.builder()
          .addGenericConversion(
              Widget.class, dev.machinery.conversion.processor.shapes.internal.Widget.class)
          .addGenericConversion(
              dev.machinery.conversion.processor.shapes.internal.Widget.class, Widget.class)
          .addGenericConversion(
              WidgetSpec.class, dev.machinery.conversion.processor.shapes.internal.WidgetSpec.class)
          .addGenericConversion(
              dev.machinery.conversion.processor.shapes.internal.WidgetSpec.class, WidgetSpec.class)
          .addGenericConversion(
              Port.class, dev.machinery.conversion.processor.shapes.internal.Port.class)
          .addGenericConversion(
              dev.machinery.conversion.processor.shapes.internal.Port.class, Port.class)
          .addConversion(
              Gadget.class,
              dev.machinery.conversion.processor.shapes.internal.Gadget.class,
              GadgetConversions::convertV1GadgetToInternalGadget)
          .addConversion(
              dev.machinery.conversion.processor.shapes.internal.Gadget.class,
              Gadget.class,
              GadgetConversions::convertInternalGadgetToV1Gadget)
          .add(new dev.machinery.conversion.processor.shapes.meta.GeneratedDeepCopy())
          .add(StandardConversions.registration())
          .build();

  static Widget widget(Random random) {
    Widget widget = new Widget();
    if (random.nextInt(5) > 0) {
      Meta meta = new Meta();
      meta.setName("w-" + random.nextInt(1000));
      meta.setGeneration(random.nextLong());
      meta.setCreated(random.nextBoolean() ? null : Instant.ofEpochSecond(random.nextInt()));
      meta.setLabels(random.nextBoolean() ? null : Map.of("app", "a" + random.nextInt(9)));
      widget.setMeta(meta);
    }
    if (random.nextInt(5) > 0) {
      WidgetSpec spec = new WidgetSpec();
      spec.setReplicas(random.nextInt(4));
      spec.setRestartPolicy(
          random.nextBoolean() ? null : RestartPolicy.values()[random.nextInt(3)].name());
      spec.setPorts(random.nextBoolean() ? null : ports(random));
      spec.setMode(random.nextBoolean() ? null : Mode.values()[random.nextInt(2)]);
      spec.setTimeoutSeconds(random.nextBoolean() ? null : random.nextLong());
      widget.setSpec(spec);
    }
    widget.setTags(random.nextBoolean() ? null : strings(random));
    if (random.nextBoolean()) {
      Map<String, List<Port>> zones = new LinkedHashMap<>();
      for (int i = random.nextInt(3); i > 0; i--) {
        zones.put("zone-" + random.nextInt(100), random.nextBoolean() ? null : ports(random));
      }
      widget.setPortsByZone(zones);
    }
    if (random.nextBoolean()) {
      byte[] checksum = new byte[random.nextInt(4)];
      random.nextBytes(checksum);
      widget.setChecksum(checksum);
    }
    widget.setOwners(random.nextBoolean() ? null : new LinkedHashSet<>(strings(random)));
    widget.setEnabled(random.nextBoolean());
    widget.setGadget(random.nextBoolean() ? null : gadget(random));
    if (random.nextBoolean()) {
      List<Gadget> spares = new ArrayList<>();
      for (int i = random.nextInt(3); i > 0; i--) {
        spares.add(random.nextInt(4) == 0 ? null : gadget(random));
      }
      widget.setSpares(spares);
    }
    return widget;
  }

  private static Gadget gadget(Random random) {
    return new Gadget(random.nextInt(100) + "x" + random.nextInt(100));
  }

  private static List<String> strings(Random random) {
    List<String> strings = new ArrayList<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      strings.add(random.nextInt(6) == 0 ? null : "s" + random.nextInt(50));
    }
    return strings;
  }

  private static List<Port> ports(Random random) {
    List<Port> ports = new ArrayList<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      ports.add(
          random.nextInt(6) == 0
              ? null
              : new Port(
                  random.nextBoolean() ? null : "p" + random.nextInt(9),
                  random.nextInt(65536),
                  random.nextBoolean() ? null : Protocol.values()[random.nextInt(3)].name()));
    }
    return ports;
  }

  private static Widget roundTrip(Converter converter, Widget widget) {
    dev.machinery.conversion.processor.shapes.internal.Widget hub =
        converter.convert(widget, dev.machinery.conversion.processor.shapes.internal.Widget.class);
    return converter.convert(hub, Widget.class);
  }

  @Test
  void versionedToInternalAndBackLosesNothing() {
    for (long seed = 0; seed < 300; seed++) {
      Widget widget = widget(new Random(seed));
      assertEquals(widget, roundTrip(CONVERTER, widget), "seed " + seed);
    }
  }

  @Test
  void theGenericConverterAgreesWithGeneratedCode() {
    for (long seed = 0; seed < 300; seed++) {
      Widget widget = widget(new Random(seed));
      assertEquals(
          CONVERTER.convert(
              widget, dev.machinery.conversion.processor.shapes.internal.Widget.class),
          GENERIC.convert(widget, dev.machinery.conversion.processor.shapes.internal.Widget.class),
          "seed " + seed);
      assertEquals(widget, roundTrip(GENERIC, widget), "seed " + seed);
    }
  }

  @Test
  void deepCopyIsEqualAndShareNothing() {
    for (long seed = 0; seed < 100; seed++) {
      Widget widget = widget(new Random(seed));
      Widget copy = GeneratedDeepCopy.deepCopy(widget);
      assertEquals(widget, copy, "seed " + seed);
      assertNotSame(widget, copy);
      if (widget.getTags() != null) {
        assertNotSame(widget.getTags(), copy.getTags());
      }
      if (widget.getChecksum() != null) {
        assertNotSame(widget.getChecksum(), copy.getChecksum());
      }
      if (widget.getMeta() != null) {
        assertNotSame(widget.getMeta(), copy.getMeta());
      }
      if (widget.getSpec() != null && widget.getSpec().getPorts() != null) {
        assertNotSame(widget.getSpec().getPorts(), copy.getSpec().getPorts());
      }
    }
    assertNull(GeneratedDeepCopy.deepCopy((Widget) null));
  }

  @Test
  void conversionDoesNotShareMutableStateWithItsInput() {
    Widget widget = widget(new Random(7));
    widget.setTags(new ArrayList<>(List.of("a")));
    dev.machinery.conversion.processor.shapes.internal.Widget hub =
        CONVERTER.convert(widget, dev.machinery.conversion.processor.shapes.internal.Widget.class);
    widget.getTags().add("b");
    assertEquals(List.of("a"), hub.getTags());
  }

  @Test
  void keepsNullAndEmptyApart() {
    Widget widget = new Widget();
    widget.setTags(List.of());
    Widget back = roundTrip(CONVERTER, widget);
    assertEquals(List.of(), back.getTags());
    assertNull(back.getOwners());
    assertNull(back.getSpec());
  }

  @Test
  void convertsStringsToEnumsByName() {
    WidgetSpec spec = new WidgetSpec();
    spec.setRestartPolicy("OnFailure");
    spec.setPorts(List.of(new Port("http", 80, "UDP")));
    dev.machinery.conversion.processor.shapes.internal.WidgetSpec hub =
        CONVERTER.convert(
            spec, dev.machinery.conversion.processor.shapes.internal.WidgetSpec.class);
    assertEquals(RestartPolicy.OnFailure, hub.getRestartPolicy());
    assertEquals(Protocol.UDP, hub.getPorts().get(0).protocol());
  }

  @Test
  void anUnknownEnumStringFailsWithItsPath() {
    Widget widget = new Widget();
    WidgetSpec spec = new WidgetSpec();
    spec.setPorts(List.of(new Port("a", 1, "TCP"), new Port("b", 2, "tcp")));
    widget.setSpec(spec);
    ConversionException error =
        assertThrows(
            ConversionException.class,
            () ->
                CONVERTER.convert(
                    widget, dev.machinery.conversion.processor.shapes.internal.Widget.class));
    assertEquals("spec.ports[1].protocol", error.path());
    assertEquals(
        "spec.ports[1].protocol: \"tcp\" is not one of TCP, UDP, SCTP", error.getMessage());
  }

  @Test
  void pathsRunThroughMapKeys() {
    Widget widget = new Widget();
    widget.setPortsByZone(Map.of("eu", List.of(new Port("a", 1, "QUIC"))));
    ConversionException error =
        assertThrows(
            ConversionException.class,
            () ->
                GENERIC.convert(
                    widget, dev.machinery.conversion.processor.shapes.internal.Widget.class));
    assertEquals(
        "portsByZone[eu][0].protocol: \"QUIC\" is not one of SCTP, TCP, UDP", error.getMessage());
    ConversionException generated =
        assertThrows(
            ConversionException.class,
            () ->
                CONVERTER.convert(
                    widget, dev.machinery.conversion.processor.shapes.internal.Widget.class));
    assertEquals("portsByZone[eu][0].protocol", generated.path());
  }

  @Test
  void generatedCodeCallsHandWrittenConversionsForTheFieldsTheyCover() {
    Widget widget = new Widget();
    widget.setGadget(new Gadget("3x4"));
    widget.setSpares(List.of(new Gadget("1x2"), new Gadget("5by6")));
    ConversionException error =
        assertThrows(
            ConversionException.class,
            () ->
                CONVERTER.convert(
                    widget, dev.machinery.conversion.processor.shapes.internal.Widget.class));
    assertEquals("spares[1]: size \"5by6\" is not WIDTHxHEIGHT", error.getMessage());
    widget.setSpares(null);
    assertEquals(
        new dev.machinery.conversion.processor.shapes.internal.Gadget(3, 4),
        CONVERTER
            .convert(widget, dev.machinery.conversion.processor.shapes.internal.Widget.class)
            .getGadget());
  }

  @Test
  void optionalBecomesPlainThroughStandardConversions() {
    WidgetSpec spec = new WidgetSpec();
    dev.machinery.conversion.processor.shapes.internal.WidgetSpec hub =
        CONVERTER.convert(
            spec, dev.machinery.conversion.processor.shapes.internal.WidgetSpec.class);
    assertEquals(0, hub.getReplicas());
    assertEquals(0, CONVERTER.convert(hub, WidgetSpec.class).getReplicas());
  }

  @Test
  void aPropertyMarkedNotConvertedIsDropped() {
    WidgetSpec spec = new WidgetSpec();
    spec.setLegacyOwner("ops");
    assertNull(roundTripSpec(CONVERTER, spec).getLegacyOwner());
    assertNull(roundTripSpec(GENERIC, spec).getLegacyOwner());
  }

  private static WidgetSpec roundTripSpec(Converter converter, WidgetSpec spec) {
    return converter.convert(
        converter.convert(
            spec, dev.machinery.conversion.processor.shapes.internal.WidgetSpec.class),
        WidgetSpec.class);
  }

  @Test
  void namesBothClassesWhenNoConversionIsRegistered() {
    NoConversionException error =
        assertThrows(NoConversionException.class, () -> CONVERTER.convert(new Meta(), Port.class));
    assertEquals(
        "no conversion from dev.machinery.conversion.processor.shapes.meta.Meta to"
            + " dev.machinery.conversion.processor.shapes.v1.Port is registered; nothing converts"
            + " from dev.machinery.conversion.processor.shapes.meta.Meta",
        error.getMessage());
    assertEquals(Meta.class, error.source());
    assertEquals(Port.class, error.target());
    NoConversionException nearby =
        assertThrows(
            NoConversionException.class,
            () -> CONVERTER.convert(new Port("a", 1, null), Widget.class));
    assertEquals(
        "no conversion from dev.machinery.conversion.processor.shapes.v1.Port to"
            + " dev.machinery.conversion.processor.shapes.v1.Widget is registered;"
            + " dev.machinery.conversion.processor.shapes.v1.Port converts to:"
            + " dev.machinery.conversion.processor.shapes.internal.Port",
        nearby.getMessage());
    assertTrue(
        CONVERTER.canConvert(
            Port.class, dev.machinery.conversion.processor.shapes.internal.Port.class));
    assertFalse(CONVERTER.canConvert(Port.class, Widget.class));
  }

  @Test
  void reportsEveryConflictAtBuild() {
    ConverterBuildException error =
        assertThrows(
            ConverterBuildException.class,
            () ->
                Converter.builder()
                    .add(new GeneratedConversions())
                    .add(new GeneratedConversions())
                    .addGenericConversion(
                        Gadget.class,
                        dev.machinery.conversion.processor.shapes.internal.Gadget.class)
                    .addGenericConversion(Meta.class, Widget.class)
                    .build());
    List<String> problems = error.problems();
    assertTrue(
        problems.contains(
            "two conversion functions are registered from"
                + " dev.machinery.conversion.processor.shapes.v1.Port to"
                + " dev.machinery.conversion.processor.shapes.internal.Port"),
        problems.toString());
    assertTrue(
        problems.contains(
            "a generic conversion is declared from"
                + " dev.machinery.conversion.processor.shapes.v1.Gadget to"
                + " dev.machinery.conversion.processor.shapes.internal.Gadget, which already has a"
                + " conversion function; remove the declaration"),
        problems.toString());
    assertTrue(
        problems.contains(
            "property name of dev.machinery.conversion.processor.shapes.meta.Meta has no"
                + " counterpart in dev.machinery.conversion.processor.shapes.v1.Widget and would"
                + " be lost; mark it @NotConverted(reason = ...) or register a conversion function"
                + " for the pair"),
        problems.toString());
  }

  @Test
  void theGenericConverterRefusesToLoseAField() {
    ConverterBuildException error =
        assertThrows(
            ConverterBuildException.class,
            () ->
                Converter.builder()
                    .addGenericConversion(
                        Gadget.class,
                        dev.machinery.conversion.processor.shapes.internal.Gadget.class)
                    .build());
    assertEquals(
        List.of(
            "property size of dev.machinery.conversion.processor.shapes.v1.Gadget has no"
                + " counterpart in dev.machinery.conversion.processor.shapes.internal.Gadget and"
                + " would be lost; mark it @NotConverted(reason = ...) or register a conversion"
                + " function for the pair"),
        error.problems());
  }

  @Test
  void convertsFromManyThreadsAtOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        long base = t * 1000L;
        results.add(
            pool.submit(
                () -> {
                  for (long seed = base; seed < base + 200; seed++) {
                    Widget widget = widget(new Random(seed));
                    if (!widget.equals(roundTrip(CONVERTER, widget))
                        || !widget.equals(roundTrip(GENERIC, widget))) {
                      return false;
                    }
                  }
                  return true;
                }));
      }
      for (Future<Boolean> result : results) {
        assertTrue(result.get());
      }
    } finally {
      pool.shutdown();
    }
  }
}
