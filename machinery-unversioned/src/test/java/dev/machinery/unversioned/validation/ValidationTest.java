package dev.machinery.unversioned.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The good and bad values of Kubernetes' util/validation tests, and its exact messages. */
class ValidationTest {
  private static final String A63 = "a".repeat(63);

  private static void check(
      Function<String, List<String>> rule, List<String> good, List<String> bad) {
    List<String> wrong = new ArrayList<>();
    for (String value : good) {
      if (!rule.apply(value).isEmpty()) {
        wrong.add("rejected '" + value + "': " + rule.apply(value));
      }
    }
    for (String value : bad) {
      if (rule.apply(value).isEmpty()) {
        wrong.add("accepted '" + value + "'");
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void dns1123Labels() {
    check(
        Validation::isDNS1123Label,
        List.of(
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            A63),
        List.of(
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a.b",
            "1.",
            ".1",
            "1.2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
            "a".repeat(64)));
  }

  @Test
  void dns1123Subdomains() {
    check(
        Validation::isDNS1123Subdomain,
        List.of(
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "a.a",
            "ab.a",
            "abc.a",
            "a1.a",
            "a-1.a",
            "a--1--2--b.a",
            "a.1",
            "ab.1",
            "abc.1",
            "a1.1",
            "a-1.1",
            "a--1--2--b.1",
            "0.a",
            "01.a",
            "012.a",
            "1a.a",
            "1-a.a",
            "0.1",
            "01.1",
            "012.1",
            "1a.1",
            "1-a.1",
            "1--a--b--2.1",
            "a.b.c.d.e",
            "aa.bb.cc.dd.ee",
            "1.2.3.4.5",
            "11.22.33.44.55",
            "a".repeat(253)),
        List.of(
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a..b",
            "1.",
            ".1",
            "1..2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
            "A.a",
            "aB.a",
            "ab.A",
            "A1.a",
            "a1.A",
            "A.1",
            "aB.1",
            "A1.1",
            "1A.1",
            "0.A",
            "01.A",
            "012.A",
            "1A.a",
            "1a.A",
            "A.B.C.D.E",
            "AA.BB.CC.DD.EE",
            "a.B.c.d.e",
            "aa.bB.cc.dd.ee",
            "a@b",
            "a,b",
            "a_b",
            "a;b",
            "a:b",
            "a%b",
            "a?b",
            "a$b",
            "a".repeat(254)));
  }

  @Test
  void dns1035Labels() {
    check(
        Validation::isDNS1035Label,
        List.of("a", "ab", "abc", "a1", "a-1", "a--1--2--b", A63),
        List.of(
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a.b",
            "1.",
            ".1",
            "1.2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
            "a".repeat(64)));
  }

  @Test
  void qualifiedNames() {
    check(
        Validation::isQualifiedName,
        List.of(
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "1234",
            "simple/simple",
            "now-with-dashes/simple",
            "now-with-dashes/now-with-dashes",
            "now.with.dots/simple",
            "now-with.dashes-and.dots/simple",
            "1-num.2-num/3-num",
            "1234/5678",
            "1.2.3.4/5678",
            "Uppercase_Is_OK_123",
            "example.com/Uppercase_Is_OK_123",
            "requests.storage-foo",
            A63,
            "a".repeat(253) + "/" + "b".repeat(63)),
        List.of(
            "nospecialchars%^=@",
            "cantendwithadash-",
            "-cantstartwithadash-",
            "only/one/slash",
            "Example.com/abc",
            "example_com/abc",
            "example.com/",
            "/simple",
            "a".repeat(64),
            "a".repeat(254) + "/abc"));
  }

  @Test
  void labelValues() {
    check(
        Validation::isValidLabelValue,
        List.of(
            "simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", A63, ""),
        List.of(
            "nospecialchars%^=@",
            "Tama-nui-te-rā.is.Māori.sun",
            "\\backslashes\\are\\bad",
            "-starts-with-dash",
            "ends-with-dash-",
            ".starts.with.dot",
            "ends.with.dot.",
            "a".repeat(64)));
  }

  @Test
  void messagesAreKubernetes() {
    assertEquals(
        List.of(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters,"
                + " '-' or '.', and must start and end with an alphanumeric character (e.g."
                + " 'example.com', regex used for validation is"
                + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
        Validation.isDNS1123Subdomain("My_Name"));
    assertEquals(List.of("must not contain dots"), Validation.isDNS1123Label("a.b"));
    assertEquals(
        List.of("must be no more than 63 characters"),
        Validation.isValidLabelValue("a".repeat(64)));
    assertEquals(List.of("prefix part must be non-empty"), Validation.isQualifiedName("/simple"));
    assertEquals(List.of("may not be '..'"), Validation.isValidPathSegmentName(".."));
    assertEquals(
        List.of("may not contain '/'", "may not contain '%'"),
        Validation.isValidPathSegmentName("a/%"));
    // A generateName may end in '-' (Kubernetes masks it before checking).
    assertTrue(Validation.nameIsDNSSubdomain("web-", true).isEmpty());
    assertEquals(1, Validation.nameIsDNSSubdomain("web-", false).size());
  }

  @Test
  void hostileLengthsStayLinear() {
    String huge = "a".repeat(1_000_000) + "!";
    assertEquals(2, Validation.isDNS1123Subdomain(huge).size());
    assertEquals(2, Validation.isValidLabelValue(huge).size());
    assertEquals(3, Validation.isQualifiedName(huge).size() + 1);
  }
}
