package dev.machinery.conversion.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessorDiagnosticsTest {
  private static final String V1_PACKAGE =
      "@dev.machinery.conversion.GenerateConversions(internalPackage = \"p.internal\")\n"
          + "package p.v1;\n";

  private static String bean(String pkg, String name, String body) {
    return "package " + pkg + ";\n" + body.replace("CLASS", "public class " + name) + "\n";
  }

  private static String property(String type, String name) {
    String upper = Character.toUpperCase(name.charAt(0)) + name.substring(1);
    return "  private "
        + type
        + " "
        + name
        + ";\n  public "
        + type
        + " get"
        + upper
        + "() { return "
        + name
        + "; }\n  public void set"
        + upper
        + "("
        + type
        + " v) { this."
        + name
        + " = v; }\n";
  }

  private static Map<String, String> frobbers(String v1Body, String internalBody) {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put("p.v1.package-info", V1_PACKAGE);
    sources.put("p.internal.package-info", "package p.internal;\n");
    sources.put("p.v1.Frobber", bean("p.v1", "Frobber", "CLASS {\n" + v1Body + "}"));
    sources.put(
        "p.internal.Frobber", bean("p.internal", "Frobber", "CLASS {\n" + internalBody + "}"));
    return sources;
  }

  @Test
  void failsOnAFieldThatWouldBeLostAndNamesIt() {
    CompilerHarness.Result result =
        CompilerHarness.compile(
            frobbers(
                property("int", "height") + property("String", "param"),
                property("int", "height")));
    assertFalse(result.success());
    assertEquals(
        List.of(
            "Frobber.param (p.v1.Frobber) has no counterpart in p.internal.Frobber and would be"
                + " lost; write a hand-written conversion convertV1FrobberToInternalFrobber(Frobber"
                + " in, ConversionScope scope) in package p.v1, or mark the property"
                + " @NotConverted(reason = \"...\")"),
        result.errors());
  }

  @Test
  void failsOnAnInternalFieldThatWouldBeLostOnTheWayOut() {
    CompilerHarness.Result result =
        CompilerHarness.compile(
            frobbers(
                property("int", "height"),
                property("int", "height") + property("java.util.List<String>", "params")));
    assertEquals(
        List.of(
            "Frobber.params (p.internal.Frobber) has no counterpart in p.v1.Frobber and would be"
                + " lost; write a hand-written conversion convertInternalFrobberToV1Frobber(Frobber"
                + " in, ConversionScope scope) in package p.v1, or mark the property"
                + " @NotConverted(reason = \"...\")"),
        result.errors());
  }

  @Test
  void acceptsAnOptOutWithAReason() {
    CompilerHarness.Result result =
        CompilerHarness.compile(
            frobbers(
                property("int", "height")
                    + "  @dev.machinery.conversion.NotConverted(reason = \"kept in an"
                    + " annotation\")\n"
                    + property("String", "param"),
                property("int", "height")));
    assertEquals(List.of(), result.errors());
    assertTrue(result.success());
  }

  @Test
  void rejectsAnOptOutWithoutAReason() {
    CompilerHarness.Result result =
        CompilerHarness.compile(
            frobbers(
                property("int", "height")
                    + "  @dev.machinery.conversion.NotConverted(reason = \" \")\n"
                    + property("String", "param"),
                property("int", "height")));
    assertEquals(List.of("@NotConverted on Frobber.param must give a reason"), result.errors());
  }

  private static Map<String, String> handWrittenFrobbers(
      String toInternalAnnotation, String toV1Annotation, String extraField) {
    Map<String, String> sources =
        frobbers(
            property("int", "height") + property("String", "param") + extraField,
            property("int", "height") + property("java.util.List<String>", "params") + extraField);
    sources.put(
        "p.v1.FrobberConversions",
        "package p.v1;\n"
            + "import dev.machinery.conversion.ConversionScope;\n"
            + "final class FrobberConversions {\n"
            + toInternalAnnotation
            + "  static p.internal.Frobber convertV1FrobberToInternalFrobber(Frobber in,"
            + " ConversionScope scope) {\n"
            + "    p.internal.Frobber out = GeneratedConversions"
            + ".autoConvertV1FrobberToInternalFrobber(in, scope);\n"
            + "    out.setParams(java.util.List.of(in.getParam()));\n"
            + "    return out;\n  }\n"
            + toV1Annotation
            + "  static Frobber convertInternalFrobberToV1Frobber(p.internal.Frobber in,"
            + " ConversionScope scope) {\n"
            + "    Frobber out = GeneratedConversions.autoConvertInternalFrobberToV1Frobber(in,"
            + " scope);\n"
            + "    out.setParam(in.getParams().get(0));\n"
            + "    return out;\n  }\n}\n");
    return sources;
  }

  @Test
  void aHandWrittenConversionDeclaresThePropertiesItConverts() {
    CompilerHarness.Result result =
        CompilerHarness.compile(
            handWrittenFrobbers(
                "  @dev.machinery.conversion.ConvertsProperties(\"param\")\n",
                "  @dev.machinery.conversion.ConvertsProperties(\"params\")\n",
                ""),
            "-Xlint:all",
            "-Werror");
    assertEquals(List.of(), result.errors());
  }

  @Test
  void aPropertyAHandWrittenConversionDoesNotDeclareIsACompileErrorIssue11() {
    // The hand-written pair exists, yet nothing converts "param"/"params": they would be lost.
    CompilerHarness.Result result =
        CompilerHarness.compile(handWrittenFrobbers("", "", ""), "-Xlint:all");
    assertEquals(
        List.of(
            "Frobber.param (p.v1.Frobber) has no counterpart in p.internal.Frobber and would be"
                + " lost; the hand-written p.v1.FrobberConversions.convertV1FrobberToInternalFrobber"
                + " must convert it and say so with @ConvertsProperties({\"param\", ...}), or mark"
                + " the property @NotConverted(reason = \"...\")",
            "Frobber.params (p.internal.Frobber) has no counterpart in p.v1.Frobber and would be"
                + " lost; the hand-written p.v1.FrobberConversions.convertInternalFrobberToV1Frobber"
                + " must convert it and say so with @ConvertsProperties({\"params\", ...}), or mark"
                + " the property @NotConverted(reason = \"...\")"),
        result.errors());
  }

  @Test
  void aPropertyAddedLaterToBothFormsIsStillConvertedOrFlagged() {
    // Added to both forms with the same type: the automatic part converts it, nothing to declare.
    assertEquals(
        List.of(),
        CompilerHarness.compile(
                handWrittenFrobbers(
                    "  @dev.machinery.conversion.ConvertsProperties(\"param\")\n",
                    "  @dev.machinery.conversion.ConvertsProperties(\"params\")\n",
                    property("String", "colour")))
            .errors());
  }

  @Test
  void aDeclaredPropertyTheSourceLacksIsACompileError() {
    CompilerHarness.Result result =
        CompilerHarness.compile(
            handWrittenFrobbers(
                "  @dev.machinery.conversion.ConvertsProperties({\"param\", \"parm\"})\n",
                "  @dev.machinery.conversion.ConvertsProperties(\"params\")\n",
                ""));
    assertEquals(
        List.of(
            "@ConvertsProperties of p.v1.FrobberConversions.convertV1FrobberToInternalFrobber"
                + " names \"parm\", which is not a property of p.v1.Frobber; its properties:"
                + " height, param"),
        result.errors());
  }

  @Test
  void rejectsAHandWrittenConversionThatBreaksTheNamingConvention() {
    Map<String, String> sources = frobbers(property("int", "height"), property("int", "height"));
    sources.put(
        "p.v1.FrobberConversions",
        "package p.v1;\n"
            + "final class FrobberConversions {\n"
            + "  static p.internal.Frobber convertFrobber(Frobber in,"
            + " dev.machinery.conversion.ConversionScope scope) { return null; }\n}\n");
    assertEquals(
        List.of(
            "hand-written conversion from p.v1.Frobber to p.internal.Frobber must be named"
                + " convertV1FrobberToInternalFrobber, not convertFrobber"),
        CompilerHarness.compile(sources).errors());
  }

  @Test
  void failsOnAnUnboxingWithoutAConversion() {
    CompilerHarness.Result result =
        CompilerHarness.compile(frobbers(property("Integer", "height"), property("int", "height")));
    assertEquals(
        List.of(
            "Frobber.height: no conversion from java.lang.Integer to int (Frobber.height): write a"
                + " hand-written conversion for the pair (for example"
                + " StandardConversions.convertIntegerToInt, named in @GenerateConversions(uses ="
                + " ...))"),
        result.errors());
  }

  @Test
  void usesStandardConversionsWhenNamed() {
    Map<String, String> sources =
        frobbers(property("Integer", "height"), property("int", "height"));
    sources.put(
        "p.v1.package-info",
        "@dev.machinery.conversion.GenerateConversions(internalPackage = \"p.internal\","
            + " uses = dev.machinery.conversion.StandardConversions.class)\npackage p.v1;\n");
    assertEquals(List.of(), CompilerHarness.compile(sources).errors());
  }

  @Test
  void rejectsAUsesMethodItCannotCall() {
    Map<String, String> sources =
        frobbers(property("Integer", "height"), property("int", "height"));
    sources.put(
        "p.v1.package-info",
        "@dev.machinery.conversion.GenerateConversions(internalPackage = \"p.internal\","
            + " uses = p.util.Numbers.class)\npackage p.v1;\n");
    sources.put(
        "p.util.Numbers",
        "package p.util;\npublic final class Numbers {\n"
            + "  static int convertIntegerToInt(Integer in,"
            + " dev.machinery.conversion.ConversionScope scope) { return in == null ? 0 : in; }\n"
            + "}\n");
    List<String> errors = CompilerHarness.compile(sources).errors();
    assertEquals(
        "hand-written conversion p.util.Numbers.convertIntegerToInt is named in"
            + " @GenerateConversions(uses = ...) of package p.v1 and must be public, in a public"
            + " class, to be called from it",
        errors.get(0));
  }

  @Test
  void failsOnAnEnumConstantWithNoCounterpart() {
    Map<String, String> sources = frobbers(property("Shape", "shape"), property("Shape", "shape"));
    sources.put("p.v1.Shape", "package p.v1;\npublic enum Shape { ROUND, SQUARE }\n");
    sources.put("p.internal.Shape", "package p.internal;\npublic enum Shape { ROUND }\n");
    assertEquals(
        List.of(
            "enum p.v1.Shape has constants with no counterpart in p.internal.Shape: SQUARE; they"
                + " would be lost: write a hand-written conversion convertV1ShapeToInternalShape(Shape"
                + " in, ConversionScope scope) in package p.v1"),
        CompilerHarness.compile(sources).errors());
  }

  @Test
  void failsWhenTheInternalPackageDoesNotExist() {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put(
        "p.v1.package-info",
        "@dev.machinery.conversion.GenerateConversions(internalPackage = \"p.nowhere\")\n"
            + "package p.v1;\n");
    sources.put("p.v1.Frobber", bean("p.v1", "Frobber", "CLASS {\n" + property("int", "a") + "}"));
    assertEquals(
        List.of("internal package \"p.nowhere\" of @GenerateConversions does not exist"),
        CompilerHarness.compile(sources).errors());
  }

  @Test
  void failsOnAFieldTypeItCannotDeepCopy() {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put(
        "p.shared.package-info", "@dev.machinery.conversion.GenerateDeepCopy\npackage p.shared;\n");
    sources.put(
        "p.shared.Holder",
        bean("p.shared", "Holder", "CLASS {\n" + property("StringBuilder", "buffer") + "}"));
    assertEquals(
        List.of(
            "Holder.buffer: cannot deep-copy java.lang.StringBuilder: java.lang.StringBuilder is"
                + " neither immutable, nor an API class of a package marked @GenerateDeepCopy, nor"
                + " a class with a public deepCopy() method returning its own type"),
        CompilerHarness.compile(sources).errors());
  }

  @Test
  void generatedCodePassesLintAndDoclint() throws Exception {
    Map<String, String> sources =
        frobbers(
            property("int", "height")
                + property("java.util.List<String>", "params")
                + property("java.util.Map<String, java.util.List<Integer>>", "sizes"),
            property("int", "height")
                + property("java.util.List<String>", "params")
                + property("java.util.Map<String, java.util.List<Integer>>", "sizes"));
    sources.put(
        "p.internal.package-info",
        "/** Internal. */\n@dev.machinery.conversion.GenerateDeepCopy\npackage p.internal;\n");
    CompilerHarness.Result result =
        CompilerHarness.compile(sources, "-Xlint:all", "-Xdoclint:all/protected");
    assertEquals(List.of(), result.errors());
    assertEquals(List.of(), result.generatedWarnings());
    assertTrue(Files.exists(result.output().resolve("p/v1/GeneratedConversions.java")));
    assertTrue(Files.exists(result.output().resolve("p/v1/GeneratedDeepCopy.java")));
    assertTrue(Files.exists(result.output().resolve("p/internal/GeneratedDeepCopy.java")));
  }
}
