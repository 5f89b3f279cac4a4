package dev.machinery.apiserver.negotiation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MediaTypeTest {
  @Test
  void equalByEveryPart() {
    MediaType type = MediaType.parse("application/json;as=Table;q=0.5");
    assertEquals(type, MediaType.parse("Application/JSON; as=Table; q=0.50"));
    assertEquals(type.hashCode(), MediaType.parse("application/json;as=Table;q=0.5").hashCode());
    assertNotEquals(type, MediaType.parse("application/json;as=Table;q=0.6"));
    assertNotEquals(type, MediaType.parse("application/json;as=PartialObjectMetadata;q=0.5"));
    assertNotEquals(type, MediaType.parse("application/yaml;as=Table;q=0.5"));
    assertNotEquals(type, MediaType.parse("text/json;as=Table;q=0.5"));
    assertNotEquals(type, "application/json;as=Table;q=0.5");
  }

  @Test
  void parsesQuotedValuesSuffixesAndWeights() {
    MediaType type =
        MediaType.parse("Application/VND.Example+JSON ; Note=\"a, \\\"b\\\"; c\" ;q=0.250;");
    assertEquals("application", type.type());
    assertEquals("vnd.example+json", type.subtype());
    assertEquals("json", type.suffix());
    assertEquals(Map.of("note", "a, \"b\"; c"), type.parameters());
    assertEquals("a, \"b\"; c", type.parameter("NOTE"));
    assertEquals(0.25, type.quality());
    assertEquals("application/vnd.example+json;note=\"a, \\\"b\\\"; c\"", type.toString());
    assertEquals(type.parameters(), MediaType.parse(type.toString()).parameters());
  }

  @Test
  void specificityOrdersWildcardsBelowTypesBelowParameters() {
    assertEquals(0, MediaType.parse("*/*").specificity());
    assertEquals(1, MediaType.parse("application/*").specificity());
    assertEquals(2, MediaType.parse("application/json").specificity());
    assertEquals(3, MediaType.parse("application/json;as=Table").specificity());
    MediaType range = MediaType.parse("application/*;as=Table");
    assertEquals(true, range.matches(MediaType.parse("application/json;as=Table;g=meta.k8s.io")));
    assertEquals(false, range.matches(MediaType.parse("application/json")));
  }

  @Test
  void commasInsideQuotesDoNotSplitTheHeader() {
    AcceptHeader header =
        AcceptHeader.parse("application/json;note=\"x, y\", application/yaml;q=0.5, bogus");
    assertEquals(2, header.ranges().size());
    assertEquals("x, y", header.ranges().get(0).parameter("note"));
    assertEquals(
        List.of("media type \"bogus\": expected '/' after the type at position 5"),
        header.rejected().stream().map(String::strip).toList());
  }

  @Test
  void namesTheFault() {
    assertEquals(
        "media type \"application/json;as=\"Table\": unterminated quoted string at position 26",
        assertThrows(
                MalformedMediaTypeException.class,
                () -> MediaType.parse("application/json;as=\"Table"))
            .getMessage());
    assertEquals(
        "media type \"application/json;as=a;as=b\": parameter \"as\" given twice at position 26",
        assertThrows(
                MalformedMediaTypeException.class,
                () -> MediaType.parse("application/json;as=a;as=b"))
            .getMessage());
  }
}
