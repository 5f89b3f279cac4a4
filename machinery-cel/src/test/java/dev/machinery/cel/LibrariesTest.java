package dev.machinery.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cel.bundle.Cel;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kubernetes' {@code ip}, {@code cidr}, {@code format} and {@code semver} CEL libraries, with the
 * expressions and expectations of Kubernetes' own tables (k8s.io/apiserver pkg/cel/library
 * ip_test.go, cidr_test.go, format_test.go, semver_test.go, Kubernetes 1.33): each row is an
 * expression and its result ({@code = value}, the value as it prints), its runtime error ({@code !
 * message}) or a part of its compile error ({@code compile: text}).
 */
class LibrariesTest {
  private static final Cel CEL = new RuleCompiler(null, true).environment(SimpleType.DYN, false);

  private static String run(String expression) {
    CelValidationResult compiled = CEL.compile(expression);
    if (compiled.hasError()) {
      return "compile: " + compiled.getErrorString();
    }
    try {
      Object result = CEL.createProgram(compiled.getAst()).eval(Map.of("self", Map.of()));
      return "= " + result;
    } catch (CelEvaluationException e) {
      String message = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
      return "! " + message;
    } catch (dev.cel.common.CelValidationException e) {
      return "compile: " + e.getMessage();
    }
  }

  static Stream<Arguments> ip() {
    return Stream.of(
        Arguments.of("ip(\"192.168.0.1\")", "= 192.168.0.1"),
        Arguments.of(
            "ip(\"192.168.0.1.0\")",
            "! IP Address \"192.168.0.1.0\" parse error during conversion from string:"
                + " ParseAddr(\"192.168.0.1.0\"): IPv4 address too long"),
        Arguments.of("isIP(\"192.168.0.1\")", "= true"),
        Arguments.of("isIP(\"192.168.0.1.0\")", "= false"),
        Arguments.of("ip.isCanonical(\"127.0.0.1\")", "= true"),
        Arguments.of(
            "ip.isCanonical(\"127.0.0.1.0\")",
            "! IP Address \"127.0.0.1.0\" parse error during conversion from string:"
                + " ParseAddr(\"127.0.0.1.0\"): IPv4 address too long"),
        Arguments.of("ip(\"192.168.0.1\").family()", "= 4"),
        Arguments.of("ip(\"0.0.0.0\").isUnspecified()", "= true"),
        Arguments.of("ip(\"127.0.0.1\").isUnspecified()", "= false"),
        Arguments.of("ip(\"127.0.0.1\").isLoopback()", "= true"),
        Arguments.of("ip(\"1.2.3.4\").isLoopback()", "= false"),
        Arguments.of("ip(\"224.0.0.1\").isLinkLocalMulticast()", "= true"),
        Arguments.of("ip(\"224.0.1.1\").isLinkLocalMulticast()", "= false"),
        Arguments.of("ip(\"169.254.169.254\").isLinkLocalUnicast()", "= true"),
        Arguments.of("ip(\"192.168.0.1\").isLinkLocalUnicast()", "= false"),
        Arguments.of("ip(\"192.168.0.1\").isGlobalUnicast()", "= true"),
        Arguments.of("ip(\"255.255.255.255\").isGlobalUnicast()", "= false"),
        Arguments.of("ip(\"2001:db8::68\")", "= 2001:db8::68"),
        Arguments.of(
            "ip(\"2001:db8:::68\")",
            "! IP Address \"2001:db8:::68\" parse error during conversion from string:"
                + " ParseAddr(\"2001:db8:::68\"): each colon-separated field must have at least"
                + " one digit (at \":68\")"),
        Arguments.of("isIP(\"2001:db8::68\")", "= true"),
        Arguments.of("isIP(\"2001:db8:::68\")", "= false"),
        Arguments.of("ip.isCanonical(\"2001:db8::68\")", "= true"),
        Arguments.of("ip.isCanonical(\"2001:DB8::68\")", "= false"),
        Arguments.of(
            "ip.isCanonical(\"2001:db8:::68\")",
            "! IP Address \"2001:db8:::68\" parse error during conversion from string:"
                + " ParseAddr(\"2001:db8:::68\"): each colon-separated field must have at least"
                + " one digit (at \":68\")"),
        Arguments.of("ip(\"2001:db8::68\").family()", "= 6"),
        Arguments.of("ip(\"::\").isUnspecified()", "= true"),
        Arguments.of("ip(\"::1\").isUnspecified()", "= false"),
        Arguments.of("ip(\"::1\").isLoopback()", "= true"),
        Arguments.of("ip(\"2001:db8::abcd\").isLoopback()", "= false"),
        Arguments.of("ip(\"ff02::1\").isLinkLocalMulticast()", "= true"),
        Arguments.of("ip(\"fd00::1\").isLinkLocalMulticast()", "= false"),
        Arguments.of("ip(\"fe80::1\").isLinkLocalUnicast()", "= true"),
        Arguments.of("ip(\"fd80::1\").isLinkLocalUnicast()", "= false"),
        Arguments.of("ip(\"2001:db8::abcd\").isGlobalUnicast()", "= true"),
        Arguments.of("ip(\"ff00::1\").isGlobalUnicast()", "= false"),
        Arguments.of(
            "isIP(cidr(\"192.168.0.0/24\"))",
            "compile: found no matching overload for 'isIP' applied to '(net.CIDR)'"),
        Arguments.of("string(ip(\"192.168.0.1\"))", "= 192.168.0.1"),
        // Go's netip beyond Kubernetes' table: leading zeros, zones, IPv4-mapped addresses,
        // canonical IPv6 text.
        Arguments.of("isIP(\"127.0.0.01\")", "= false"),
        Arguments.of(
            "ip(\"fe80::1%eth0\")", "! IP address \"fe80::1%eth0\" with zone value is not allowed"),
        Arguments.of(
            "ip(\"::ffff:1.2.3.4\")",
            "! IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed"),
        Arguments.of("string(ip(\"2001:0DB8:0:0:1:0:0:1\")) == \"2001:db8::1:0:0:1\"", "= true"),
        Arguments.of("string(ip(\"::1.2.3.4\"))", "= ::102:304"),
        Arguments.of(
            "ip(\"\")",
            "! IP Address \"\" parse error during conversion from string: ParseAddr(\"\"):"
                + " unable to parse IP"),
        Arguments.of("ip(\"10.0.0.1\") == ip(\"10.0.0.1\")", "= true"),
        Arguments.of("ip(\"10.0.0.1\") == ip(\"10.0.0.2\")", "= false"),
        // Kubernetes' table has type(ip("192.168.0.1")) == net.IP; the type is no name here.
        Arguments.of("type(ip(\"192.168.0.1\")) == net.IP", "compile: undeclared reference"));
  }

  static Stream<Arguments> cidr() {
    return Stream.of(
        Arguments.of("cidr(\"192.168.0.0/24\")", "= 192.168.0.0/24"),
        Arguments.of(
            "cidr(\"192.168.0.0/\")",
            "! network address parse error during conversion from string: network address parse"
                + " error during conversion from string: netip.ParsePrefix(\"192.168.0.0/\"): bad"
                + " bits after slash: \"\""),
        Arguments.of("cidr(\"192.168.0.0/24\").containsIP(ip(\"192.168.0.1\"))", "= true"),
        Arguments.of("cidr(\"192.168.0.0/24\").containsIP(ip(\"192.168.1.1\"))", "= false"),
        Arguments.of("cidr(\"192.168.0.0/24\").containsIP(\"192.168.0.1\")", "= true"),
        Arguments.of("cidr(\"192.168.0.0/24\").containsIP(\"192.168.1.1\")", "= false"),
        Arguments.of("cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.0/25\"))", "= true"),
        Arguments.of("cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.1/32\"))", "= true"),
        Arguments.of("cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.0/23\"))", "= false"),
        Arguments.of("cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.169.0.1/32\"))", "= false"),
        Arguments.of("cidr(\"192.168.0.0/24\").containsCIDR(\"192.168.0.0/25\")", "= true"),
        Arguments.of("cidr(\"192.168.0.0/24\").containsCIDR(\"192.168.0.0/23\")", "= false"),
        Arguments.of("cidr(\"192.168.0.0/24\").ip()", "= 192.168.0.0"),
        Arguments.of("cidr(\"192.168.0.0/24\").masked()", "= 192.168.0.0/24"),
        Arguments.of("cidr(\"192.168.0.1/24\").masked()", "= 192.168.0.0/24"),
        Arguments.of("cidr(\"192.168.0.0/24\").prefixLength()", "= 24"),
        Arguments.of("cidr(\"2001:db8::/32\")", "= 2001:db8::/32"),
        Arguments.of(
            "cidr(\"2001:db8::/\")",
            "! network address parse error during conversion from string: network address parse"
                + " error during conversion from string: netip.ParsePrefix(\"2001:db8::/\"): bad"
                + " bits after slash: \"\""),
        Arguments.of("cidr(\"2001:db8::/32\").containsIP(ip(\"2001:db8::1\"))", "= true"),
        Arguments.of("cidr(\"2001:db8::/32\").containsIP(ip(\"2001:dc8::1\"))", "= false"),
        Arguments.of("cidr(\"2001:db8::/32\").containsIP(\"2001:db8::1\")", "= true"),
        Arguments.of("cidr(\"2001:db8::/32\").containsIP(\"2001:dc8::1\")", "= false"),
        Arguments.of("cidr(\"2001:db8::/32\").containsCIDR(cidr(\"2001:db8::/33\"))", "= true"),
        Arguments.of("cidr(\"2001:db8::/32\").containsCIDR(cidr(\"2001:db8::/31\"))", "= false"),
        Arguments.of("cidr(\"2001:db8::/32\").containsCIDR(\"2001:db8::/33\")", "= true"),
        Arguments.of("cidr(\"2001:db8::/32\").containsCIDR(\"2001:db8::/31\")", "= false"),
        Arguments.of("cidr(\"2001:db8::/32\").ip()", "= 2001:db8::"),
        Arguments.of("cidr(\"2001:db8::/32\").masked()", "= 2001:db8::/32"),
        Arguments.of("cidr(\"2001:db8:1::/32\").masked()", "= 2001:db8::/32"),
        Arguments.of("cidr(\"2001:db8::/32\").prefixLength()", "= 32"),
        Arguments.of("string(cidr(\"192.168.0.0/24\"))", "= 192.168.0.0/24"),
        // Beyond Kubernetes' table: Go's prefix errors, families, equality, isCIDR.
        Arguments.of("isCIDR(\"10.0.0.0/8\") && !isCIDR(\"10.0.0.0/33\")", "= true"),
        Arguments.of(
            "cidr(\"10.0.0.0/33\")",
            "! network address parse error during conversion from string: network address parse"
                + " error during conversion from string: netip.ParsePrefix(\"10.0.0.0/33\"):"
                + " prefix length out of range"),
        Arguments.of(
            "cidr(\"10.0.0.0\")",
            "! network address parse error during conversion from string: network address parse"
                + " error during conversion from string: netip.ParsePrefix(\"10.0.0.0\"): no '/'"),
        Arguments.of("isCIDR(\"10.0.0.0/08\")", "= false"),
        Arguments.of("cidr(\"10.0.0.0/8\").containsIP(\"::1\")", "= false"),
        Arguments.of("cidr(\"0.0.0.0/0\").containsIP(\"255.1.2.3\")", "= true"),
        Arguments.of("cidr(\"192.168.0.1/24\").masked() == cidr(\"192.168.0.0/24\")", "= true"),
        Arguments.of("cidr(\"192.168.0.1/24\") == cidr(\"192.168.0.0/24\")", "= false"));
  }

  private static final String DNS1123_LABEL =
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and"
          + " must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc',"
          + " regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  private static final String DNS1123_SUBDOMAIN =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or"
          + " '.', and must start and end with an alphanumeric character (e.g. 'example.com',"
          + " regex used for validation is"
          + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  private static final String DNS1035_LABEL =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an"
          + " alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or"
          + " 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

  static Stream<Arguments> format() {
    return Stream.of(
        Arguments.of("format.dns1123Label().validate(\"my-label-name\")", "= Optional.empty"),
        Arguments.of(
            "format.dns1123Subdomain().validate(\"apiextensions.k8s.io\")", "= Optional.empty"),
        Arguments.of(
            "format.qualifiedName().validate(\"apiextensions.k8s.io/v1beta1\")",
            "= Optional.empty"),
        Arguments.of(
            "format.dns1123LabelPrefix().validate(\"my-label-prefix-\")", "= Optional.empty"),
        Arguments.of(
            "format.dns1123SubdomainPrefix().validate(\"mysubdomain.prefix.-\")",
            "= Optional.empty"),
        Arguments.of(
            "format.dns1035LabelPrefix().validate(\"my-label-prefix-\")", "= Optional.empty"),
        Arguments.of("format.uri().validate(\"http://example.com\")", "= Optional.empty"),
        Arguments.of(
            "format.uuid().validate(\"123e4567-e89b-12d3-a456-426614174000\")", "= Optional.empty"),
        Arguments.of("format.byte().validate(\"aGVsbG8=\")", "= Optional.empty"),
        Arguments.of("format.date().validate(\"2021-01-01\")", "= Optional.empty"),
        Arguments.of("format.datetime().validate(\"2021-01-01T00:00:00Z\")", "= Optional.empty"),
        Arguments.of(
            "format.dns1123Label().validate(\"contains a space\")",
            "= Optional[[" + DNS1123_LABEL + "]]"),
        Arguments.of(
            "format.dns1123Subdomain().validate(\"contains a space\")",
            "= Optional[[" + DNS1123_SUBDOMAIN + "]]"),
        Arguments.of(
            "format.dns1035Label().validate(\"contains a space\")",
            "= Optional[[" + DNS1035_LABEL + "]]"),
        Arguments.of(
            "format.qualifiedName().validate(\"contains a space\")",
            "= Optional[[name part must consist of alphanumeric characters, '-', '_' or '.', and"
                + " must start and end with an alphanumeric character (e.g. 'MyName',  or"
                + " 'my.name',  or '123-abc', regex used for validation is"
                + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]]"),
        Arguments.of(
            "format.dns1123LabelPrefix().validate(\"contains a space-\")",
            "= Optional[[" + DNS1123_LABEL + "]]"),
        Arguments.of(
            "format.dns1123SubdomainPrefix().validate(\"contains a space-\")",
            "= Optional[[" + DNS1123_SUBDOMAIN + "]]"),
        Arguments.of(
            "format.dns1035LabelPrefix().validate(\"contains a space-\")",
            "= Optional[[" + DNS1035_LABEL + "]]"),
        Arguments.of("format.dns1123Label().validate(\"my-label-name\")", "= Optional.empty"),
        Arguments.of("format.dns1123Subdomain().validate(\"example.com\")", "= Optional.empty"),
        Arguments.of("format.dns1035Label().validate(\"my-label-name\")", "= Optional.empty"),
        Arguments.of("format.qualifiedName().validate(\"my.name\")", "= Optional.empty"),
        Arguments.of("format.byte().validate(\"aGVsbG8\")", "= Optional[[invalid base64]]"),
        Arguments.of("format.date().validate(\"2020-01-01\")", "= Optional.empty"),
        Arguments.of("format.date().validate(\"2020-01-32\")", "= Optional[[invalid date]]"),
        Arguments.of("format.datetime().validate(\"2020-01-01T00:00:00Z\")", "= Optional.empty"),
        Arguments.of(
            "format.datetime().validate(\"2020-01-32T00:00:00Z\")",
            "= Optional[[invalid datetime]]"),
        Arguments.of("format.named(\"unknown\").hasValue()", "= false"),
        Arguments.of("format.labelValue().validate(\"my-cool-label-Value\")", "= Optional.empty"),
        Arguments.of(
            "format.labelValue().validate(\"my-cool-label-Value!!\\n\\n!!!\")",
            "= Optional[[a valid label must be an empty string or consist of alphanumeric"
                + " characters, '-', '_' or '.', and must start and end with an alphanumeric"
                + " character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for"
                + " validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]]"),
        // Beyond Kubernetes' table.
        Arguments.of(
            "format.uuid().validate(\"nope\")", "= Optional[[does not match the UUID format]]"),
        Arguments.of(
            "format.uri().validate(\"example.com\")",
            "= Optional[[parse \"example.com\": invalid URI for request]]"),
        Arguments.of(
            "format.datetime().validate(\"2020-01-01T24:00:00Z\")",
            "= Optional[[invalid datetime]]"),
        Arguments.of(
            "format.named(\"dns1123Label\").value().validate(\"x\").hasValue()", "= false"));
  }

  static Stream<Arguments> semver() {
    return Stream.of(
        Arguments.of("semver(\"1.2.3\")", "= 1.2.3"),
        Arguments.of("semver(\"v1.0\")", "! No Major.Minor.Patch elements found"),
        Arguments.of("isSemver(\"1.2.3-beta.1+build.1\")", "= true"),
        Arguments.of("isSemver(\"\")", "= false"),
        Arguments.of("isSemver(\"v1.0.0\")", "= false"),
        Arguments.of("isSemver(\" 1.0.0\")", "= false"),
        Arguments.of("isSemver(\"1. 0.0\")", "= false"),
        Arguments.of("isSemver(\"1.0.0 \")", "= false"),
        Arguments.of("isSemver(\"01.01.01\")", "= false"),
        Arguments.of("isSemver(\"1\")", "= false"),
        Arguments.of("isSemver(\"1.1\")", "= false"),
        Arguments.of("isSemver(\"\", true)", "= false"),
        Arguments.of("isSemver(\" 1.0.0\", true)", "= false"),
        Arguments.of("isSemver(\"1. 0.0\", true)", "= false"),
        Arguments.of("isSemver(\"1.0.0 \", true)", "= false"),
        Arguments.of("isSemver(\"v1.0.0\", true)", "= true"),
        Arguments.of("isSemver(\"01.01.01\", true)", "= true"),
        Arguments.of("isSemver(\"1\", true)", "= true"),
        Arguments.of("isSemver(\"1.1\", true)", "= true"),
        Arguments.of(
            "isSemver([1, 2, 3])", "compile: found no matching overload for 'isSemver' applied to"),
        Arguments.of("semver(\"v01.01\", true) == semver(\"1.1.0\")", "= true"),
        Arguments.of("semver(\"1.2.3\") == semver(\"1.2.3\")", "= true"),
        Arguments.of("semver(\"1.2.3\") == semver(\"1.0.0\")", "= false"),
        Arguments.of("semver(\"1.0.0\").isLessThan(semver(\"1.2.3\"))", "= true"),
        Arguments.of("semver(\"1.0.0\").isLessThan(semver(\"1.0.0\"))", "= false"),
        Arguments.of("semver(\"1.2.3\").isGreaterThan(semver(\"1.0.0\"))", "= true"),
        Arguments.of("semver(\"1.0.0\").isGreaterThan(semver(\"1.0.0\"))", "= false"),
        Arguments.of("semver(\"1.2.3\").compareTo(semver(\"1.2.3\"))", "= 0"),
        Arguments.of("semver(\"1.0.0\").compareTo(semver(\"1.2.3\"))", "= -1"),
        Arguments.of("semver(\"1.2.3\").compareTo(semver(\"1.0.0\"))", "= 1"),
        Arguments.of("semver(\"1.2.3\").major()", "= 1"),
        Arguments.of("semver(\"1.2.3\").minor()", "= 2"),
        Arguments.of("semver(\"1.2.3\").patch()", "= 3"),
        // Beyond Kubernetes' table: semver.org's precedence, the library's other errors.
        Arguments.of("semver(\"1.0.0-alpha\").isLessThan(semver(\"1.0.0\"))", "= true"),
        Arguments.of(
            "semver(\"1.0.0-alpha.1\").isLessThan(semver(\"1.0.0-alpha.beta\"))", "= true"),
        Arguments.of("semver(\"1.0.0-beta.2\").isLessThan(semver(\"1.0.0-beta.11\"))", "= true"),
        Arguments.of("semver(\"1.0.0-alpha\").isLessThan(semver(\"1.0.0-alpha.1\"))", "= true"),
        Arguments.of("semver(\"1.0.0+a\") == semver(\"1.0.0+b\")", "= true"),
        Arguments.of("semver(\"01.0.0\")", "! Major number must not contain leading zeroes \"01\""),
        Arguments.of("semver(\"1.0.x\")", "! Invalid character(s) found in patch number \"x\""),
        Arguments.of("semver(\"1.0.0-\")", "! Prerelease is empty"),
        Arguments.of(
            "semver(\"1.0\", true) == semver(\"1.0.0\") && semver(\"1\", true).major() == 1",
            "= true"),
        Arguments.of(
            "semver(\"1.0-beta\", true)",
            "! short version cannot contain PreRelease/Build meta data"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"ip", "cidr", "format", "semver"})
  void evaluatesAsKubernetes(String expression, String expected) {
    String actual = run(expression);
    if (expected.startsWith("compile: ")) {
      assertTrue(
          actual.startsWith("compile: ") && actual.contains(expected.substring(9)),
          () -> expression + " gave " + actual);
    } else {
      assertEquals(expected, actual, expression);
    }
  }

  @Test
  void everyFormatIsNamedAndEqualOnlyToItself() {
    for (String left : NamedFormat.FORMATS.keySet()) {
      assertEquals("= true", run("format.named('" + left + "').hasValue()"), left);
      assertEquals(
          "= true", run("format.named('" + left + "').value() == format." + left + "()"), left);
      for (String right : NamedFormat.FORMATS.keySet()) {
        if (!left.equals(right)) {
          assertEquals("= false", run("format." + left + "() == format." + right + "()"));
        }
      }
      // Kubernetes' limit on a format's name (cel.MaxFormatSize).
      assertTrue(left.length() <= 64, left);
    }
  }

  private static final JSONSchemaProps SEMVER_RULE =
      Schemas.spec(
          """
          type: object
          properties:
            version: {type: string, maxLength: 64}
          x-kubernetes-validations:
          - rule: semver(self.version).isGreaterThan(semver('1.0.0'))
            message: version must be after 1.0.0
          """);

  @Test
  void semverIsOnlyForStoredRulesByDefaultAsInKubernetes133() {
    List<FieldError> refused =
        CelValidationRules.create().check(SEMVER_RULE, FieldPath.of("openAPIV3Schema"));
    assertEquals(1, refused.size(), refused::toString);
    assertTrue(
        refused.get(0).toString().contains("undeclared reference to 'semver'"),
        refused.get(0)::toString);
    CelValidationRules rules = CelValidationRules.create().withSemverInNewRules();
    assertEquals(List.of(), rules.check(SEMVER_RULE, FieldPath.of("openAPIV3Schema")));
    assertEquals(
        List.of("spec: Invalid value: \"object\": version must be after 1.0.0"),
        rules.compile(SEMVER_RULE).validate(Schemas.object("spec: {version: 0.9.0}"), null).stream()
            .map(FieldError::toString)
            .toList());
    assertEquals(
        List.of(),
        CelValidationRules.create()
            .compile(SEMVER_RULE)
            .validate(Schemas.object("spec: {version: 1.2.0}"), null));
  }

  @Test
  void formatRulesRunOnObjects() {
    JSONSchemaProps schema =
        Schemas.spec(
            """
            type: object
            properties:
              name: {type: string, maxLength: 253}
              cidr: {type: string, maxLength: 64}
            x-kubernetes-validations:
            - rule: "!format.dns1123Label().validate(self.name).hasValue()"
              messageExpression: format.dns1123Label().validate(self.name).value()[0]
            - rule: cidr(self.cidr).containsIP('10.0.0.1')
              message: cidr must contain 10.0.0.1
            """);
    CelValidationRules rules = CelValidationRules.create();
    assertEquals(List.of(), rules.check(schema, FieldPath.of("openAPIV3Schema")));
    assertEquals(
        List.of(
            "spec: Invalid value: \"object\": " + DNS1123_LABEL,
            "spec: Invalid value: \"object\": cidr must contain 10.0.0.1"),
        rules
            .compile(schema)
            .validate(Schemas.object("spec: {name: Not_A_Label, cidr: 192.168.0.0/16}"), null)
            .stream()
            .map(FieldError::toString)
            .toList());
    assertEquals(
        Optional.empty(),
        rules
            .compile(schema)
            .validate(Schemas.object("spec: {name: ok, cidr: 10.0.0.0/8}"), null)
            .stream()
            .findFirst());
  }
}
