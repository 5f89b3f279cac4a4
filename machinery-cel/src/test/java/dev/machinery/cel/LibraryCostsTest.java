package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cel.bundle.Cel;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.SimpleType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The estimated costs of Kubernetes' library functions, against Kubernetes' own tables
 * (k8s.io/apiserver pkg/cel/library cost_test.go, Kubernetes 1.33: TestURLsCost, TestIPCost,
 * TestIPIsCanonicalCost, TestCIDRCost, TestQuantityCost, TestNameFormatCost, TestSemverCost, and
 * TestStringLibrary but for the JSON patch function definitions do not have), with their sizes: a
 * string or bytes value of unknown size has 0 to 12 elements. Only the estimates are carried over;
 * the runtime cost here is counted differently.
 */
class LibraryCostsTest {
  private static final Cel CEL = new RuleCompiler(null, true).environment(SimpleType.DYN, false);

  private static String estimate(String expression) {
    CelValidationResult compiled = CEL.compile(expression);
    if (compiled.hasError()) {
      return compiled.getErrorString();
    }
    try {
      CostEstimator.Range cost =
          CostEstimator.estimate(
              compiled.getAst(),
              (path, type) ->
                  type.kind() == CelKind.STRING || type.kind() == CelKind.BYTES
                      ? new CostEstimator.Range(0, 12)
                      : null);
      return cost.min() + ".." + cost.max();
    } catch (dev.cel.common.CelValidationException e) {
      return e.getMessage();
    }
  }

  private static void add(List<Arguments> rows, String expression, long min, long max) {
    rows.add(Arguments.of(expression, min + ".." + max));
  }

  static Stream<Arguments> kubernetesTables() {
    List<Arguments> rows = new ArrayList<>();
    String url = "url('https:://kubernetes.io/')";
    for (String op :
        List.of(
            ".getScheme()",
            ".getHostname()",
            ".getHost()",
            ".getPort()",
            ".getEscapedPath()",
            ".getQuery()")) {
      add(rows, url + op, 4, 4);
    }
    add(rows, url + " == url('https:://kubernetes.io/')", 7, 9);
    add(rows, url + " == url('http://x.b')", 5, 5);

    for (String[] ip :
        new String[][] {
          {"ip('192.168.0.1')", "2"}, {"ip('2001:db8:3333:4444:5555:6666:7777:8888')", "4"}
        }) {
      long base = Long.parseLong(ip[1]);
      add(rows, ip[0], base, base);
      for (String op :
          List.of(
              ".family()",
              ".isUnspecified()",
              ".isLoopback()",
              ".isLinkLocalMulticast()",
              ".isLinkLocalUnicast()",
              ".isGlobalUnicast()")) {
        add(rows, ip[0] + op, base + 1, base + 1);
      }
      add(rows, ip[0] + " == ip('192.168.0.1')", base + 3, base + 3);
    }
    add(rows, "ip.isCanonical('192.168.0.1')", 3, 3);
    add(rows, "ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')", 8, 8);
    add(rows, "ip.isCanonical('2001:db8::abcd')", 3, 3);

    for (String cidr : List.of("cidr('192.168.0.0/16')", "cidr('2001:db8::/32')")) {
      add(rows, cidr, 2, 2);
      for (String op : List.of(".ip()", ".prefixLength()", ".masked()")) {
        add(rows, cidr + op, 3, 3);
      }
      add(rows, cidr + " == cidr('2001:db8::/32')", 5, 5);
    }
    for (String op :
        List.of(
            ".containsCIDR(cidr('192.0.0.0/30'))",
            ".containsCIDR(cidr('192.168.0.0/16'))",
            ".containsCIDR('192.0.0.0/30')",
            ".containsCIDR('192.168.0.0/16')")) {
      add(rows, "cidr('192.168.0.0/16')" + op, 7, 11);
    }
    add(rows, "cidr('192.168.0.0/16').containsIP(ip('192.0.0.1'))", 4, 7);
    add(rows, "cidr('192.168.0.0/16').containsIP(ip('192.169.0.1'))", 5, 8);
    add(rows, "cidr('192.168.0.0/16').containsIP(ip('192.169.169.250'))", 5, 8);
    add(rows, "cidr('192.168.0.0/16').containsIP('192.0.0.1')", 4, 7);
    add(rows, "cidr('192.168.0.0/16').containsIP('192.169.0.1')", 5, 8);
    for (String op :
        List.of(
            ".containsCIDR(cidr('2001:db8::/126'))",
            ".containsCIDR(cidr('2001:db8::/32'))",
            ".containsCIDR('2001:db8::/126')",
            ".containsCIDR('2001:db8::/32')")) {
      add(rows, "cidr('2001:db8::/32')" + op, 7, 11);
    }

    add(rows, "quantity(\"12Mi\")", 1, 1);
    add(rows, "isQuantity(\"20\")", 1, 1);
    add(rows, "isQuantity(\"20M\")", 1, 1);
    add(rows, "quantity(\"200M\") == quantity(\"200M\")", 3, 3);
    add(
        rows,
        "quantity(\"200M\") == quantity(\"0.2G\") && quantity(\"0.2G\") == quantity(\"200M\")",
        3,
        6);
    add(
        rows,
        "quantity(\"2M\") == quantity(\"0.002G\") && quantity(\"2000k\") == quantity(\"2M\") &&"
            + " quantity(\"0.002G\") == quantity(\"2000k\")",
        3,
        9);
    add(rows, "quantity(\"50M\").isLessThan(quantity(\"50Mi\"))", 3, 3);
    add(rows, "quantity(\"50Mi\").isGreaterThan(quantity(\"50M\"))", 3, 3);
    add(rows, "quantity(\"200M\").compareTo(quantity(\"0.2G\")) > 0", 4, 4);
    add(rows, "quantity(\"50k\").add(quantity(\"20\")) == quantity(\"50.02k\")", 5, 5);
    add(rows, "quantity(\"50k\").sub(quantity(\"20\")) == quantity(\"49.98k\")", 5, 5);
    add(rows, "quantity(\"50k\").sub(20) == quantity(\"49980\")", 4, 4);
    add(rows, "quantity(\"50k\").add(20).sub(quantity(\"100k\")).asInteger() > 0", 6, 6);
    add(
        rows,
        "quantity(\"50k\").add(20).sub(quantity(\"100k\")).sub(-50000).asInteger() > 0",
        7,
        7);
    add(rows, "quantity(\"50k\").asInteger() > 0", 3, 3);
    add(rows, "quantity(\"50\").isInteger()", 2, 2);
    add(rows, "quantity(\"50.703k\").asApproximateFloat() > 0.0", 3, 3);

    add(rows, "format.named(\"dns1123subdomain\")", 1, 1);
    add(rows, "format.named(\"dns1123Subdomain\").value().validate(\"my-name\")", 34, 34);

    add(rows, "semver(\"1.0.0\")", 1, 1);
    add(rows, "semver(\"1234.56789012345.67890123456789\")", 4, 4);
    add(rows, "isSemver(\"1.0.0\")", 1, 1);
    add(rows, "isSemver(\"1234.56789012345.67890123456789\")", 4, 4);
    add(rows, "semver(\"1.2.3\").major()", 2, 2);
    add(rows, "semver(\"1.2.3\").minor()", 2, 2);
    add(rows, "semver(\"1.2.3\").patch()", 2, 2);
    add(rows, "semver(\"1.0.0\").isLessThan(semver(\"1.1.0\"))", 3, 3);
    add(rows, "semver(\"1.1.0\").isGreaterThan(semver(\"1.0.0\"))", 3, 3);
    add(rows, "semver(\"1.0.0\").compareTo(semver(\"1.2.3\"))", 3, 3);
    // TestStringLibrary
    add(rows, "'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3, 3);
    add(rows, "'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()", 7, 9);
    add(rows, "'ABCDEFGHIJ abcdefghij'.upperAscii()", 3, 3);
    add(rows, "'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()", 7, 9);
    add(rows, "strings.quote('ABCDEFGHIJ abcdefghij')", 3, 3);
    add(
        rows,
        "strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')",
        7,
        11);
    add(rows, "'abc 123 def 123'.replace('123', '456')", 3, 3);
    add(rows, "'abc 123 def 123'.replace('', 'x')", 3, 3);
    add(rows, "'abc 123 def 123'.replace('123', '')", 3, 3);
    add(rows, "'abc 123 def 123'.replace('123', '456', 1)", 3, 3);
    add(rows, "'abc 123 def 123'.split(' ')", 3, 3);
    add(rows, "'abc 123 def 123'.split(' ', 1)", 3, 3);
    add(rows, "'abc 123 def 123'.substring(5)", 2, 2);
    add(rows, "'abc 123 def 123'.substring(5, 8)", 2, 2);
    add(rows, "'  abc 123 def 123  '.trim()", 2, 2);
    add(rows, "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')", 11, 23);
    add(rows, "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()", 10, 22);
    add(rows, "'abc 123 def 123'.find('123')", 2, 2);
    add(rows, "'abc 123 def 123'.findAll('123')", 2, 2);
    add(rows, "'abc 123 def 123'.findAll('123', 1)", 2, 2);
    return rows.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubernetesTables")
  void estimatesAsKubernetes(String expression, String expected) {
    assertEquals(expected, estimate(expression), expression);
  }
}
