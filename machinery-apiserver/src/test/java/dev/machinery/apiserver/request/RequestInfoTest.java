package dev.machinery.apiserver.request;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Paths and verbs as kube-apiserver's request-info resolver reads them: the success and error cases
 * of Kubernetes' {@code TestGetAPIRequestInfo} (its proxy paths excepted: this server has no proxy
 * verb), as facts.
 */
class RequestInfoTest {
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      value = {
        // method | path | watch param | verb | group | version | namespace | resource | sub | name
        "GET | /api/v1/namespaces | - | list | '' | v1 | - | namespaces | - | -",
        "GET | /api/v1/namespaces/other | - | get | '' | v1 | other | namespaces | - | other",
        "GET | /api/v1/namespaces/other/pods | - | list | '' | v1 | other | pods | - | -",
        "GET | /api/v1/namespaces/other/pods/foo | - | get | '' | v1 | other | pods | - | foo",
        "HEAD | /api/v1/namespaces/other/pods/foo | - | get | '' | v1 | other | pods | - | foo",
        "GET | /api/v1/pods | - | list | '' | v1 | - | pods | - | -",
        "HEAD | /api/v1/pods | - | list | '' | v1 | - | pods | - | -",
        "GET | /api/v1/watch/pods | - | watch | '' | v1 | - | pods | - | -",
        "GET | /api/v1/pods | true | watch | '' | v1 | - | pods | - | -",
        "GET | /api/v1/pods | false | list | '' | v1 | - | pods | - | -",
        "GET | /api/v1/watch/namespaces/other/pods | - | watch | '' | v1 | other | pods | - | -",
        "GET | /api/v1/namespaces/other/pods | 1 | watch | '' | v1 | other | pods | - | -",
        "GET | /api/v1/namespaces/other/pods | 0 | list | '' | v1 | other | pods | - | -",
        "GET | /api/v1/namespaces/other/pods/foo/status | - | get | '' | v1 | other | pods | status | foo",
        "PUT | /api/v1/namespaces/other/finalize | - | update | '' | v1 | other | namespaces | finalize | other",
        "PUT | /api/v1/namespaces/other/status | - | update | '' | v1 | other | namespaces | status | other",
        "PATCH | /api/v1/namespaces/other/pods/foo | - | patch | '' | v1 | other | pods | - | foo",
        "DELETE | /api/v1/namespaces/other/pods/foo | - | delete | '' | v1 | other | pods | - | foo",
        "POST | /api/v1/namespaces/other/pods | - | create | '' | v1 | other | pods | - | -",
        "DELETE | /api/v1/nodes | - | deletecollection | '' | v1 | - | nodes | - | -",
        "DELETE | /api/v1/namespaces | - | deletecollection | '' | v1 | - | namespaces | - | -",
        "DELETE | /api/v1/namespaces/other/pods | - | deletecollection | '' | v1 | other | pods | - | -",
        "DELETE | /apis/extensions/v1/namespaces/other/pods | - | deletecollection | extensions | v1 | other | pods | - | -",
        "POST | /apis/extensions/v1/namespaces/other/pods | - | create | extensions | v1 | other | pods | - | -",
        "POST | /apis/extensions/v1beta3/namespaces/other/pods | - | create | extensions | v1beta3 | other | pods | - | -",
      })
  void readsPathsAsKubeApiserverDoes(
      String method,
      String path,
      String watch,
      String verb,
      String group,
      String version,
      String namespace,
      String resource,
      String subresource,
      String name) {
    RequestInfo info = RequestInfo.parse(path).orElseThrow();
    assertEquals(verb, info.verb(method, watch));
    assertEquals(group, info.group());
    assertEquals(version, info.version());
    assertEquals(namespace, info.namespace());
    assertEquals(resource, info.resource());
    assertEquals(subresource, info.subresource());
    assertEquals(name, info.name());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/",
        "/api/version/",
        "/apis/group/version/",
        "/badprefix/version/resource",
        "/apis/version/resource",
        "/api/v1/namespaces/a/pods/b/c/d",
      })
  void nonResourcePathsAreNotResourceRequests(String path) {
    assertTrue(RequestInfo.parse(path).isEmpty(), path);
  }
}
