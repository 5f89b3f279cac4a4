package dev.machinery.apiserver.negotiation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.schema.GroupVersion;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The cases of Kubernetes' {@code TestNegotiate} (k8s.io/apiserver, package
 * endpoints/handlers/negotiation), replayed against a negotiator that serves {@code
 * application/json} only, as Go's test server does. Each row: Accept header, {@code pretty} query
 * parameter, User-Agent, the media type chosen ({@code 406} when none) and whether output is
 * indented. Go's rows that name {@code application/protobuf}, or a server that serves no or an
 * invalid media type, are left out: this negotiator serves no protobuf yet and cannot be built so.
 */
class GoNegotiationTableTest {
  private static final Negotiator JSON_ONLY =
      Negotiator.builder(NegotiationTest.SCHEME).serving("application/json").build();
  private static final Endpoint POD =
      new Endpoint(GroupVersion.of("", "v1").withKind("Pod"), false);

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        // Accept | pretty | User-Agent | chosen | pretty output
        "-|-|-|application/json|false",
        "''|-|-|application/json|false",
        "*/*|-|-|application/json|false",
        "application/*|-|-|application/json|false",
        "application/json|-|-|application/json|false",
        "application/json; pretty=1|-|-|application/json|true",
        "unrecognized/stuff,application/json; pretty=1|-|-|application/json|true",
        "application/json|1|-|application/json|true",
        "application/json|-|curl|application/json|true",
        "application/json|-|Wget|application/json|true",
        "application/json|-|Mozilla/5.0|application/json|true",
        "application/json;as=BOGUS;v=v1beta1;g=meta.k8s.io, application/json|-|-|application/json|false",
        "application/BOGUS, application/json|-|-|application/json|false",
        // Go's strconv.ParseBool decides a pretty parameter; the User-Agent only without one.
        "application/json|0|curl|application/json|false",
        "application/json|true|-|application/json|true",
        "application/json|yes|-|application/json|false",
        "application/json|''|curl|application/json|true",
      })
  void negotiatesAsKubeApiserver(
      String accept, String pretty, String userAgent, String chosen, boolean indented) {
    Negotiation negotiation = JSON_ONLY.negotiate(accept, POD, pretty, userAgent);
    assertEquals(chosen, negotiation.representation().contentType().toString());
    assertEquals(indented, negotiation.representation().pretty());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "application/json;v=V_1",
        "application/json;g=Not_A_Group;v=v1",
        "application/json;v=",
        "application/json;g=",
        "application/json;as=",
        "application/json;as=Table;v=",
        "application/json;as=Table;g=meta.k8s.io;v=v1;pretty=yes",
        "application/json;export=maybe",
        "application/yaml",
        "application/json;charset=latin-1",
      })
  void malformedOrUnservedParametersAre406NotExceptionsIssue12(String accept) {
    Negotiation negotiation = JSON_ONLY.negotiate(accept, POD);
    assertNull(negotiation.representation(), accept);
    assertEquals(406, negotiation.status().getCode());
    assertTrue(
        negotiation
            .status()
            .getMessage()
            .startsWith("only the following media types are accepted: application/json"),
        negotiation.status().getMessage());
    assertEquals(1, negotiation.dropped().size(), negotiation.dropped().toString());
  }
}
