package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.storage.MemoryStorage;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which requests a server declared {@link ApiServer.Builder#readsWithoutWaiting} says it answers
 * without waiting: GETs of one object (or one namespace), never lists, watches or writes; and none
 * at all when not declared.
 */
class ReadsWithoutWaitingTest {
  private static final Scheme SCHEME = MetaV1.addToScheme(Scheme.builder()).build();

  private static ApiRequest request(String method, String path, String query) {
    Map<String, List<String>> parameters =
        query.isEmpty() ? Map.of() : Map.of(query.split("=")[0], List.of(query.split("=")[1]));
    return new ApiRequest(
        method, path, parameters, Map.of(), new ByteArrayInputStream(new byte[0]));
  }

  @ParameterizedTest
  @CsvSource({
    "GET, /api/v1/namespaces/default/configmaps/one, '', true",
    "GET, /api/v1/namespaces/default, '', true",
    "GET, /apis/apps/v1/namespaces/default/deployments/web, '', true",
    "GET, /apis/rbac.authorization.k8s.io/v1/clusterroles/admin, '', true",
    "GET, /api/v1/namespaces/default/configmaps/one, watch=false, true",
    "GET, /api/v1/namespaces/default/configmaps, '', false",
    "GET, /api/v1/configmaps, '', false",
    "GET, /apis/apps/v1/namespaces/default/deployments, '', false",
    "GET, /api/v1/namespaces/default/configmaps/one, watch=true, false",
    "GET, /api/v1/namespaces/default/configmaps/one, watch=1, false",
    "GET, /api/v1/watch/namespaces/default/configmaps, '', false",
    "GET, /apis/apps/v1/watch/namespaces/default/deployments/web, '', false",
    "GET, /apis/apps/v1/namespaces/default/deployments/web/scale, '', false",
    "GET, /openapi/v3, '', false",
    "GET, /version, '', false",
    "PUT, /api/v1/namespaces/default/configmaps/one, '', false",
    "DELETE, /api/v1/namespaces/default/configmaps/one, '', false",
  })
  void onlyGetsOfOneObject(String method, String path, String query, boolean expected) {
    ApiServer declared =
        ApiServer.builder(SCHEME).storage(new MemoryStorage()).readsWithoutWaiting(true).build();
    assertEquals(expected, declared.answersWithoutWaiting(request(method, path, query)));
    ApiServer undeclared = ApiServer.builder(SCHEME).storage(new MemoryStorage()).build();
    assertFalse(undeclared.answersWithoutWaiting(request(method, path, query)));
  }

  @Test
  void memoryStorageSaysItAnswersFromMemory() {
    assertTrue(new MemoryStorage().answersFromMemory());
  }
}
