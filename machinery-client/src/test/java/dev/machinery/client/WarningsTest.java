package dev.machinery.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code Warning} headers as RFC 7234 writes them and client-go reads them. */
class WarningsTest {
  private static List<Warnings.Warning> parse(String... headers) {
    return Warnings.parse(List.of(headers));
  }

  @Test
  void oneWarning() {
    assertEquals(
        List.of(new Warnings.Warning(299, "-", "unknown field \"spec.x\"")),
        parse("299 - \"unknown field \\\"spec.x\\\"\""));
  }

  @Test
  void severalInOneHeaderAndAcrossHeaders() {
    assertEquals(
        List.of(
            new Warnings.Warning(299, "-", "a"),
            new Warnings.Warning(299, "kube-apiserver", "b, c"),
            new Warnings.Warning(199, "-", "d")),
        parse("299 - \"a\", 299 kube-apiserver \"b, c\"", "199 - \"d\""));
  }

  @Test
  void aDateIsSkipped() {
    assertEquals(
        List.of(new Warnings.Warning(299, "-", "old"), new Warnings.Warning(299, "-", "new")),
        parse("299 - \"old\" \"Sat, 25 Aug 2012 23:34:45 GMT\", 299 - \"new\""));
  }

  @Test
  void escapesAreRead() {
    assertEquals(
        List.of(new Warnings.Warning(299, "-", "back\\slash \"quoted\"")),
        parse("299 - \"back\\\\slash \\\"quoted\\\"\""));
  }

  @Test
  void malformedWarningsAreDropped() {
    assertEquals(List.of(), parse("29 - \"short code\""));
    assertEquals(List.of(), parse("299 -"));
    assertEquals(List.of(), parse("299 - unquoted"));
    assertEquals(List.of(), parse("299 - \"unterminated"));
    assertEquals(List.of(), parse("abc - \"x\""));
    assertEquals(List.of(), parse(""));
    assertEquals(
        List.of(new Warnings.Warning(299, "-", "kept")),
        parse("299 - \"kept\" junk"),
        "what came before the garbage is kept");
  }
}
