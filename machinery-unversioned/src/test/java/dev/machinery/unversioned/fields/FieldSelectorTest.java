package dev.machinery.unversioned.fields;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.runtime.FieldLabel;
import dev.machinery.core.runtime.FieldLabelNotSupportedException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.testapi.Pod;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Rows of Kubernetes' pkg/fields tests, and conversion through a Scheme's field labels. */
class FieldSelectorTest {
  @Test
  void parsesAndReprintsAsKubernetes() {
    for (String text : List.of("x=a,y=b,z=c", "", "x!=a,y=b", "x=a||y\\=b", "x=a\\=\\=b")) {
      assertEquals(text, FieldSelector.parse(text).toString(), text);
    }
    for (String text : List.of("x=a||y=b", "x==a==b", "x=a,b", "x in (a)", "x in (a,b,c)", "x")) {
      assertThrows(FieldSelectorParseException.class, () -> FieldSelector.parse(text), text);
    }
    assertEquals(
        "invalid selector: 'x=a,b'; can't understand 'b'",
        assertThrows(FieldSelectorParseException.class, () -> FieldSelector.parse("x=a,b"))
            .getMessage());
    assertEquals("x=a", FieldSelector.parse("x==a").toString());
    assertEquals("a=1,b=2", FieldSelector.parse("b=2,a=1").toString());
  }

  @Test
  void escapesAndUnescapesValues() {
    Map<String, String> cases =
        Map.of(
            "",
            "",
            "a",
            "a",
            "=",
            "\\=",
            ",",
            "\\,",
            "\\",
            "\\\\",
            "\\=\\,\\",
            "\\\\\\=\\\\\\,\\\\");
    cases.forEach(
        (plain, escaped) -> {
          assertEquals(escaped, FieldSelector.escapeValue(plain));
          assertEquals(plain, FieldSelector.parse("f=" + escaped).terms().get(0).value());
        });
    for (String bad : List.of("\\", "\\\\\\", "\\a")) {
      assertTrue(
          assertThrows(FieldSelectorParseException.class, () -> FieldSelector.parse("f=" + bad))
              .getMessage()
              .startsWith("invalid field selector: invalid escape sequence: "));
    }
  }

  @Test
  void matchesFieldSets() {
    Object[][] rows = {
      {"", Map.of("x", "y"), true},
      {"x=y", Map.of("x", "y"), true},
      {"x=y,z=w", Map.of("x", "y", "z", "w"), true},
      {"x!=y,z!=w", Map.of("x", "z", "z", "a"), true},
      {"notin=in", Map.of("notin", "in"), true},
      {"x=y", Map.of("x", "z"), false},
      {"x=y,z=w", Map.of("x", "w", "z", "w"), false},
      {"x!=y,z!=w", Map.of("x", "z", "z", "w"), false},
    };
    for (Object[] row : rows) {
      @SuppressWarnings("unchecked")
      Map<String, String> fields = (Map<String, String>) row[1];
      assertEquals(row[2], FieldSelector.parse((String) row[0]).matches(fields), (String) row[0]);
    }
    Map<String, String> set = Map.of("foo", "bar", "baz", "blah", "complex", "=value\\,\\");
    assertTrue(FieldSelector.parse("foo=bar,baz=blah,complex=\\=value\\\\\\,\\\\").matches(set));
    assertEquals(false, FieldSelector.parse("foo=bar,foobar=bar,baz=blah").matches(set));
    assertEquals(
        Optional.of("web"),
        FieldSelector.parse("metadata.name=web").requiresExactMatch("metadata.name"));
    // A nil Set has no fields: each reads as the empty string, as in Kubernetes.
    assertTrue(FieldSelector.everything().matches(null));
    assertTrue(FieldSelector.parse("x=").matches(null));
    assertTrue(FieldSelector.parse("x!=y").matches(null));
    assertFalse(FieldSelector.parse("x=y").matches(null));
  }

  @Test
  void convertsThroughTheSchemeAndMatchesObjectMetadata() {
    GroupVersion v1 = GroupVersion.of("", "v1");
    GroupVersionKind pod = v1.withKind("Pod");
    Scheme scheme =
        Scheme.builder()
            .addKnownTypes(v1, Pod.class)
            .addFieldLabelConversion(
                pod,
                (label, value) ->
                    label.equals("spec.nodeName")
                            || label.equals("metadata.name")
                            || label.equals("metadata.namespace")
                        ? Optional.of(new FieldLabel(label, value))
                        : Optional.empty())
            .build();
    FieldSelector selector =
        FieldSelector.parse("metadata.namespace=default,spec.nodeName=node-1")
            .convertLabels(scheme, pod);
    ObjectMeta meta = new ObjectMeta();
    meta.setName("web");
    meta.setNamespace("default");
    Map<String, String> fields = FieldSets.of(meta, true);
    fields.put("spec.nodeName", "node-1");
    assertTrue(selector.matches(fields));
    assertThrows(
        FieldLabelNotSupportedException.class,
        () -> FieldSelector.parse("status.phase=Running").convertLabels(scheme, pod));
  }
}
