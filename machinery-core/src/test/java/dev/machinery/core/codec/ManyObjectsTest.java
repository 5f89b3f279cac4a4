package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.apps.Deployment;
import dev.machinery.core.testapi.core.Service;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 11: several objects from one body: concatenated JSON objects, and a {@code v1 List} (what
 * {@code kubectl get -o json} prints) in JSON or YAML, its items decoded as the kinds they name.
 */
class ManyObjectsTest {
  private static final CodecFactory CODECS = CodecFactory.create(TestApi.scheme());
  private static final String SERVICE = "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"port\":80}";
  private static final String DEPLOYMENT =
      "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"spec\":{\"replicas\":2}}";

  private static List<Class<?>> classes(List<Decoded<Object>> all) {
    return all.stream().<Class<?>>map(d -> d.object().getClass()).toList();
  }

  @Test
  void decodesConcatenatedJsonObjects() {
    List<Decoded<Object>> all =
        CODECS.json().decodeAll(SERVICE + "\n" + DEPLOYMENT + "  " + SERVICE + "\n");
    assertEquals(List.of(Service.class, Deployment.class, Service.class), classes(all));
    assertEquals(2, ((Deployment) all.get(1).object()).getSpec().replicas());
  }

  @Test
  void decodesTheItemsOfAListInJsonAndYaml() {
    String list =
        "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"\"},"
            + "\"items\":["
            + DEPLOYMENT
            + ","
            + SERVICE
            + "]}";
    assertEquals(List.of(Deployment.class, Service.class), classes(CODECS.json().decodeAll(list)));
    String yaml =
        "apiVersion: v1\nkind: List\nitems:\n"
            + "- {apiVersion: apps/v1, kind: Deployment, spec: {replicas: 2}}\n"
            + "- {apiVersion: v1, kind: Service, port: 80}\n"
            + "---\napiVersion: v1\nkind: Service\nport: 81\n";
    List<Decoded<Object>> all = CODECS.yaml().decodeAll(yaml);
    assertEquals(List.of(Deployment.class, Service.class, Service.class), classes(all));
    assertEquals(81, ((Service) all.get(2).object()).getPort());
  }

  @Test
  void aFailingItemSaysWhereItStands() {
    StrictDecodingException json =
        assertThrows(
            StrictDecodingException.class,
            () ->
                CODECS
                    .json()
                    .decodeAll(
                        SERVICE
                            + "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
                            + SERVICE
                            + ",{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"prot\":1}]}"));
    assertEquals(
        "document 2 of 2, item 2 of 2 of the List: strict decoding error: unknown field \"prot\"",
        json.getMessage());
    assertEquals(2, json.document());
    DecodeException yaml =
        assertThrows(
            DecodeException.class,
            () ->
                CODECS
                    .yaml()
                    .decodeAll(
                        "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service}\n"
                            + "- {apiVersion: v1, kind: Service, port: x}\n"));
    assertEquals(
        "item 2 of 2 of the List: field \"port\": expected an integer (int), found string \"x\""
            + " (line 5, column 41)",
        yaml.getMessage());
  }

  @Test
  void aScalarBetweenObjectsIsAnError() {
    DecodeException e =
        assertThrows(DecodeException.class, () -> CODECS.json().decodeAll(SERVICE + " 3"));
    assertEquals(
        "the body must be a JSON object, found number \"3\" (line 1, column 48)", e.getMessage());
  }
}
