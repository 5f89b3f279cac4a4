package dev.machinery.conversion.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The build refuses protobuf field numbers that repeat or skip a number no {@code @ProtoReserved}
 * explains; record components (whose annotation also lands on the field and accessor) count once.
 * The annotations are machinery-conversion's own, on the test's class path.
 */
class ProtoFieldCheckTest {
  private static Map<String, String> sources(String type) {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put("p.Message", "package p;\nimport dev.machinery.conversion.*;\n" + type);
    return sources;
  }

  @Test
  void aNumberDeclaredTwiceFailsTheBuildNamingBothProperties() {
    CompilerHarness.Result result =
        CompilerHarness.compile(
            sources(
                "public class Message {\n"
                    + "  @ProtoField(1) public String getName() { return null; }\n"
                    + "  @ProtoField(2) public String getUid() { return null; }\n"
                    + "  @ProtoField(2) public String getKind() { return null; }\n"
                    + "}\n"));
    assertFalse(result.success());
    assertEquals(
        List.of("protobuf field number 2 is declared twice in Message: uid and kind"),
        result.errors());
  }

  @Test
  void aSkippedNumberFailsTheBuildUnlessReserved() {
    String body =
        "public class Message {\n"
            + "  @ProtoField(1) public String getName() { return null; }\n"
            + "  @ProtoField(4) public String getUid() { return null; }\n"
            + "}\n";
    CompilerHarness.Result gap = CompilerHarness.compile(sources(body));
    assertFalse(gap.success());
    assertTrue(
        gap.errors().get(0).startsWith("Message skips protobuf field numbers [2, 3]"),
        gap.errors().toString());
    assertTrue(CompilerHarness.compile(sources("@ProtoReserved({2, 3})\n" + body)).success());
    CompilerHarness.Result both =
        CompilerHarness.compile(sources("@ProtoReserved({1, 2, 3})\n" + body));
    assertEquals(
        List.of("protobuf field number 1 is both @ProtoReserved and declared by [name]"),
        both.errors());
  }

  @Test
  void recordComponentsCountOnce() {
    CompilerHarness.Result result =
        CompilerHarness.compile(
            sources(
                "public record Message(@ProtoField(1) String type, @ProtoField(2) String status,"
                    + " @ProtoField(value = 3, optional = true) Integer count) {}\n"));
    assertTrue(result.success(), result.errors().toString());
  }
}
