package dev.machinery.conversion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

public class ConverterTest {
  public enum Color {
    RED,
    GREEN
  }

  public enum Shade {
    RED
  }

  public record Label(String text, String color) {}

  public record LabelInternal(String text, Color color) {}

  public record Box(String name, List<Label> labels, Map<String, Label> byKey, Integer size) {}

  public record BoxInternal(
      String name, List<LabelInternal> labels, Map<String, LabelInternal> byKey, int size) {}

  public record Painted(Color color) {}

  public record Shaded(Shade color) {}

  public record Holder(Label label) {}

  public record HolderInternal(Object label) {}

  /** A mutable class, for the bean side of the runtime converter. */
  public static final class Note {
    private String text;
    private boolean pinned;

    public String getText() {
      return text;
    }

    public void setText(String text) {
      this.text = text;
    }

    public boolean isPinned() {
      return pinned;
    }

    public void setPinned(boolean pinned) {
      this.pinned = pinned;
    }
  }

  public record NoteRecord(String text, boolean pinned) {}

  private static Converter boxes() {
    return Converter.builder()
        .add(StandardConversions.registration())
        .addGenericConversion(Box.class, BoxInternal.class)
        .addGenericConversion(Label.class, LabelInternal.class)
        .build();
  }

  @Test
  void rendersPathsFromTheOutermostField() {
    ConversionException error = new ConversionException("\"SCTP\" is not one of TCP, UDP");
    error.within("protocol").withinIndex(0).within("ports").withinIndex(1);
    error.within("containers").within("spec");
    assertEquals("spec.containers[1].ports[0].protocol", error.path());
    assertEquals(
        "spec.containers[1].ports[0].protocol: \"SCTP\" is not one of TCP, UDP",
        error.getMessage());
    assertEquals("\"SCTP\" is not one of TCP, UDP", error.problem());
    assertEquals("x", new ConversionException("x").getMessage());
    assertEquals(
        "labels[app]", new ConversionException("p").withinKey("app").within("labels").path());
  }

  @Test
  void theGenericConverterConvertsRecordsListsMapsEnumsAndUnboxing() {
    Box box =
        new Box(
            "b",
            List.of(new Label("a", "RED"), new Label("b", null)),
            Map.of("k", new Label("c", "GREEN")),
            null);
    BoxInternal converted = boxes().convert(box, BoxInternal.class);
    assertEquals(
        new BoxInternal(
            "b",
            List.of(new LabelInternal("a", Color.RED), new LabelInternal("b", null)),
            Map.of("k", new LabelInternal("c", Color.GREEN)),
            0),
        converted);
  }

  @Test
  void theGenericConverterReportsTheFieldPathOfABadValue() {
    Box box = new Box("b", List.of(new Label("a", "RED"), new Label("b", "BLUE")), null, 1);
    ConversionException error =
        assertThrows(ConversionException.class, () -> boxes().convert(box, BoxInternal.class));
    assertEquals("labels[1].color: \"BLUE\" is not one of GREEN, RED", error.getMessage());
  }

  @Test
  void convertsBetweenBeansAndRecords() {
    Note note = new Note();
    note.setText("t");
    note.setPinned(true);
    Converter converter =
        Converter.builder()
            .addGenericConversion(Note.class, NoteRecord.class)
            .addGenericConversion(NoteRecord.class, Note.class)
            .build();
    NoteRecord record = converter.convert(note, NoteRecord.class);
    assertEquals(new NoteRecord("t", true), record);
    Note back = converter.convert(record, Note.class);
    assertEquals("t", back.getText());
    assertTrue(back.isPinned());
  }

  @Test
  void rejectsAnEnumWhoseConstantsWouldBeLost() {
    ConverterBuildException error =
        assertThrows(
            ConverterBuildException.class,
            () -> Converter.builder().addGenericConversion(Painted.class, Shaded.class).build());
    assertEquals(
        List.of(
            "dev.machinery.conversion.ConverterTest$Painted.color: constants [GREEN] have no"
                + " counterpart in dev.machinery.conversion.ConverterTest$Shade"),
        error.problems());
  }

  @Test
  void rejectsAFieldWithNoConversionAtBuild() {
    // Nested record pairs (Label -> LabelInternal) are derived; unboxing needs a function.
    ConverterBuildException error =
        assertThrows(
            ConverterBuildException.class,
            () -> Converter.builder().addGenericConversion(Box.class, BoxInternal.class).build());
    assertEquals(
        List.of(
            "dev.machinery.conversion.ConverterTest$Box.size: no conversion from"
                + " java.lang.Integer to int is registered"),
        error.problems());
    Converter converter =
        Converter.builder()
            .add(StandardConversions.registration())
            .addGenericConversion(Box.class, BoxInternal.class)
            .build();
    BoxInternal box =
        converter.convert(
            new Box("b", List.of(new Label("t", "RED")), Map.of("k", new Label("u", "RED")), null),
            BoxInternal.class);
    assertEquals(
        new BoxInternal(
            "b",
            List.of(new LabelInternal("t", Color.RED)),
            Map.of("k", new LabelInternal("u", Color.RED)),
            0),
        box);
  }

  @Test
  void aMissingNestedPairNamesBothClassesAndThePath() {
    Converter converter =
        Converter.builder()
            .addConversion(Label.class, LabelInternal.class, (in, scope) -> null)
            .addConversion(
                Holder.class,
                HolderInternal.class,
                (in, scope) -> {
                  try {
                    return new HolderInternal(scope.convert(in.label(), Painted.class));
                  } catch (ConversionException e) {
                    throw e.within("label");
                  }
                })
            .build();
    NoConversionException error =
        assertThrows(
            NoConversionException.class,
            () -> converter.convert(new Holder(new Label("a", "RED")), HolderInternal.class));
    assertEquals(
        "label: no conversion from dev.machinery.conversion.ConverterTest$Label to"
            + " dev.machinery.conversion.ConverterTest$Painted is registered;"
            + " dev.machinery.conversion.ConverterTest$Label converts to:"
            + " dev.machinery.conversion.ConverterTest$LabelInternal",
        error.getMessage());
    assertEquals(Label.class, error.source());
    assertEquals(Painted.class, error.target());
  }

  @Test
  void functionsSeeTheCallersFlags() {
    Converter converter =
        Converter.builder()
            .addConversion(
                Label.class,
                LabelInternal.class,
                (in, scope) ->
                    new LabelInternal(scope.hasFlag("storage") ? "stored" : in.text(), null))
            .build();
    Label label = new Label("a", null);
    assertEquals("a", converter.convert(label, LabelInternal.class).text());
    assertEquals("stored", converter.convert(label, LabelInternal.class, Set.of("storage")).text());
    assertEquals(Set.of("x"), converter.scope(Set.of("x")).flags());
  }

  @Test
  void deepCopyNeedsARegisteredFunction() {
    Converter converter =
        Converter.builder()
            .addDeepCopy(
                Note.class,
                in -> {
                  Note copy = new Note();
                  copy.setText(in.getText());
                  return copy;
                })
            .build();
    Note note = new Note();
    note.setText("t");
    assertEquals("t", converter.deepCopy(note).getText());
    assertTrue(converter.canDeepCopy(Note.class));
    NoConversionException error =
        assertThrows(
            NoConversionException.class, () -> converter.deepCopy(new NoteRecord("t", false)));
    assertEquals(
        "no deep-copy function is registered for dev.machinery.conversion.ConverterTest$NoteRecord;"
            + " annotate its package with @GenerateDeepCopy and add its GeneratedDeepCopy",
        error.getMessage());
  }

  @Test
  void reportsDuplicateRegistrations() {
    ConverterBuildException error =
        assertThrows(
            ConverterBuildException.class,
            () ->
                Converter.builder()
                    .addConversion(Label.class, LabelInternal.class, (in, s) -> null)
                    .addConversion(Label.class, LabelInternal.class, (in, s) -> null)
                    .addDeepCopy(Label.class, in -> in)
                    .addDeepCopy(Label.class, in -> in)
                    .build());
    assertEquals(
        List.of(
            "two conversion functions are registered from"
                + " dev.machinery.conversion.ConverterTest$Label to"
                + " dev.machinery.conversion.ConverterTest$LabelInternal",
            "two deep-copy functions are registered for dev.machinery.conversion.ConverterTest$Label"),
        error.problems());
    assertTrue(error.getMessage().startsWith("2 problems in the conversion registrations:\n  - "));
  }

  @Test
  void standardConversionsTurnNullIntoZero() {
    assertEquals(0, StandardConversions.convertIntegerToInt(null, null));
    assertEquals(5, StandardConversions.convertIntegerToInt(5, null));
    assertEquals(0L, StandardConversions.convertLongToLong(null, null));
    assertFalse(StandardConversions.convertBooleanToBoolean(null, null));
    assertEquals(0.0, StandardConversions.convertDoubleToDouble(null, null));
    Converter converter = Converter.builder().add(StandardConversions.registration()).build();
    assertEquals(7, converter.convert(7, int.class));
    assertTrue(converter.canConvert(Integer.class, int.class));
    assertEquals(Set.of(int.class), converter.conversionPairs().get(Integer.class));
  }
}
