package dev.machinery.conversion.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 11, item 1: a type from a package the generator does not own (such as the library's own
 * {@code ObjectMeta}) is copied through its {@code deepCopy()} method, and untyped JSON values
 * ({@code Object}, {@code Map<String, Object>}) are copied as JSON.
 */
class DeepCopyHooksTest {
  private static Map<String, String> sources() {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put("q.meta.package-info", "package q.meta;\n");
    sources.put(
        "q.meta.Meta",
        "package q.meta;\n"
            + "public class Meta {\n"
            + "  public java.util.List<String> names = new java.util.ArrayList<>();\n"
            + "  public Meta deepCopy() {\n"
            + "    Meta copy = new Meta();\n"
            + "    copy.names = new java.util.ArrayList<>(names);\n"
            + "    return copy;\n"
            + "  }\n"
            + "}\n");
    sources.put(
        "q.api.package-info", "@dev.machinery.conversion.GenerateDeepCopy\npackage q.api;\n");
    sources.put(
        "q.api.Thing",
        "package q.api;\n"
            + "public class Thing {\n"
            + "  private q.meta.Meta meta;\n"
            + "  private java.util.Map<String, Object> extra;\n"
            + "  private Object raw;\n"
            + "  public q.meta.Meta getMeta() { return meta; }\n"
            + "  public void setMeta(q.meta.Meta v) { meta = v; }\n"
            + "  public java.util.Map<String, Object> getExtra() { return extra; }\n"
            + "  public void setExtra(java.util.Map<String, Object> v) { extra = v; }\n"
            + "  public Object getRaw() { return raw; }\n"
            + "  public void setRaw(Object v) { raw = v; }\n"
            + "}\n");
    return sources;
  }

  @Test
  void copiesThroughADeepCopyMethodAndCopiesJsonValues() throws Exception {
    CompilerHarness.Result result = CompilerHarness.compile(sources(), "-Xlint:all");
    assertEquals(List.of(), result.errors());
    assertEquals(List.of(), result.generatedWarnings());
    try (URLClassLoader loader =
        new URLClassLoader(
            new URL[] {result.output().toUri().toURL()}, getClass().getClassLoader())) {
      Class<?> thing = loader.loadClass("q.api.Thing");
      Class<?> meta = loader.loadClass("q.meta.Meta");
      Object original = thing.getConstructor().newInstance();
      Object metaValue = meta.getConstructor().newInstance();
      @SuppressWarnings("unchecked")
      List<String> names = (List<String>) meta.getField("names").get(metaValue);
      names.add("a");
      thing.getMethod("setMeta", meta).invoke(original, metaValue);
      Map<String, Object> extra = new LinkedHashMap<>();
      List<Object> list = new ArrayList<>(List.of(1, "two"));
      extra.put("list", list);
      thing.getMethod("setExtra", Map.class).invoke(original, extra);
      Map<String, Object> raw = new LinkedHashMap<>(Map.of("k", new ArrayList<>(List.of(true))));
      thing.getMethod("setRaw", Object.class).invoke(original, raw);

      Method deepCopy = loader.loadClass("q.api.GeneratedDeepCopy").getMethod("deepCopy", thing);
      Object copy = deepCopy.invoke(null, original);

      Object copiedMeta = thing.getMethod("getMeta").invoke(copy);
      assertNotSame(metaValue, copiedMeta);
      assertEquals(List.of("a"), meta.getField("names").get(copiedMeta));
      assertNotSame(names, meta.getField("names").get(copiedMeta));
      Object copiedExtra = thing.getMethod("getExtra").invoke(copy);
      assertEquals(extra, copiedExtra);
      assertNotSame(list, ((Map<?, ?>) copiedExtra).get("list"));
      Object copiedRaw = thing.getMethod("getRaw").invoke(copy);
      assertEquals(raw, copiedRaw);
      assertNotSame(raw.get("k"), ((Map<?, ?>) copiedRaw).get("k"));
      assertTrue(copiedRaw instanceof LinkedHashMap);
    }
  }
}
