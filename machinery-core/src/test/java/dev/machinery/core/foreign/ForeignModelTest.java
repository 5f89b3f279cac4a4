package dev.machinery.core.foreign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.FieldValidation;
import dev.machinery.core.codec.StrictDecodingException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.runtime.SchemeBuildException;
import dev.machinery.core.runtime.TypeAccessor;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 11: a model written elsewhere (fabric8's, whose classes carry {@code apiVersion} and {@code
 * kind} accessors but do not implement {@code ApiObject}) registers as it is; its objects decode
 * from Kubernetes' own fully populated fixtures and from real manifests, and encode, objects built
 * by its builders included.
 */
class ForeignModelTest {
  static final Scheme SCHEME =
      Scheme.builder()
          .addKnownTypes(GroupVersion.of("", "v1"), ConfigMap.class)
          .addKnownTypes(GroupVersion.of("apps", "v1"), Deployment.class)
          .addKnownTypes(
              GroupVersion.of("extensions", "v1beta1"),
              io.fabric8.kubernetes.api.model.extensions.Deployment.class)
          .build();
  static final CodecFactory CODECS = CodecFactory.create(SCHEME);

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in =
        ForeignModelTest.class.getResourceAsStream("/k8s-api-testdata/v1.33.0/" + name)) {
      return in.readAllBytes();
    }
  }

  /**
   * Kubernetes v1.33.0's fully populated objects, decoded into fabric8 7.4's classes: every field
   * fabric8 models binds, and the ones it lacks land in its catch-all, which the codec reports as
   * unknown (listed here as facts) and keeps, so nothing is lost on the way back out.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "core.v1.ConfigMap|",
        "apps.v1.Deployment|",
        "extensions.v1beta1.Deployment|unknown field \"status.terminatingReplicas\""
      })
  void decodesKubernetesFixturesAsPlainJacksonDoesAndReportsWhatTheModelLacks(
      String name, String lacking) throws IOException {
    List<String> expected = lacking == null ? List.of() : List.of(lacking);
    byte[] json = fixture(name + ".json");
    Decoded<Object> fromJson = CODECS.json().withFieldValidation(FieldValidation.WARN).decode(json);
    Decoded<Object> fromYaml =
        CODECS.yaml().withFieldValidation(FieldValidation.WARN).decode(fixture(name + ".yaml"));
    assertEquals(expected, fromJson.warnings().stream().map(Object::toString).toList());
    assertEquals(expected, fromYaml.warnings().stream().map(Object::toString).toList());
    if (expected.isEmpty()) {
      assertEquals(fromJson.object(), CODECS.json().decode(json).object());
    } else {
      assertThrows(StrictDecodingException.class, () -> CODECS.json().decode(json));
    }
    Object plain = new ObjectMapper().readValue(json, fromJson.object().getClass());
    assertEquals(plain, fromJson.object());
    assertEquals(plain, fromYaml.object());
    assertEquals(fromJson.kind(), fromYaml.kind());
    ObjectMapper trees = new ObjectMapper();
    JsonNode written = trees.readTree(CODECS.json().encode(fromJson.object()));
    assertEquals(trees.readTree(json), written);
    List<String> fields = iterable(written.fieldNames());
    assertEquals(List.of("apiVersion", "kind"), fields.subList(0, 2));
  }

  private static <T> List<T> iterable(java.util.Iterator<T> iterator) {
    java.util.List<T> all = new java.util.ArrayList<>();
    iterator.forEachRemaining(all::add);
    return all;
  }

  @Test
  void decodesARealManifestWithValueTypesInJsonAndYaml() throws IOException {
    String yaml =
        "apiVersion: apps/v1\n"
            + "kind: Deployment\n"
            + "metadata: {name: web, labels: {app: web}}\n"
            + "spec:\n"
            + "  replicas: 3\n"
            + "  selector:\n"
            + "    matchLabels: {app: web}\n"
            + "    matchExpressions: [{key: tier, operator: In, values: [front]}]\n"
            + "  strategy:\n"
            + "    rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}\n"
            + "  template:\n"
            + "    metadata: {labels: {app: web}}\n"
            + "    spec:\n"
            + "      containers:\n"
            + "      - name: web\n"
            + "        image: nginx:1.27\n"
            + "        ports: [{containerPort: 8080, name: http}]\n"
            + "        resources:\n"
            + "          requests: {cpu: 500m, memory: 1Gi}\n"
            + "          limits: {cpu: '1', memory: 2Gi}\n"
            + "        livenessProbe:\n"
            + "          httpGet: {path: /healthz, port: 8080}\n"
            + "        readinessProbe:\n"
            + "          httpGet: {path: /ready, port: http}\n";
    Deployment fromYaml = CODECS.yaml().decode(yaml, Deployment.class).object();
    String json = new String(CODECS.json().encode(fromYaml), StandardCharsets.UTF_8);
    Deployment fromJson = CODECS.json().decode(json, Deployment.class).object();
    assertEquals(fromYaml, fromJson);
    assertEquals(new YAMLMapper().readValue(yaml, Deployment.class), fromYaml);
    var container = fromJson.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(new Quantity("500m"), container.getResources().getRequests().get("cpu"));
    assertEquals(new Quantity("1Gi"), container.getResources().getRequests().get("memory"));
    assertEquals(
        new IntOrString("25%"), fromJson.getSpec().getStrategy().getRollingUpdate().getMaxSurge());
    assertEquals(
        new IntOrString(0),
        fromJson.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable());
    assertEquals(new IntOrString(8080), container.getLivenessProbe().getHttpGet().getPort());
    assertEquals(new IntOrString("http"), container.getReadinessProbe().getHttpGet().getPort());
    assertEquals(8080, container.getPorts().get(0).getContainerPort());
  }

  @Test
  void encodesAnObjectBuiltByItsBuilderAndCreatesNewObjects() {
    ConfigMap built =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("c")
            .endMetadata()
            .addToData("k", "v")
            .build();
    assertEquals(
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"},"
            + "\"data\":{\"k\":\"v\"}}",
        CODECS.json().encodeToString(built));
    Object fresh = SCHEME.newObject(GroupVersionKind.of("apps", "v1", "Deployment"));
    assertEquals(Deployment.class, fresh.getClass());
    assertEquals("apps/v1", TypeAccessor.of(fresh).apiVersion(fresh));
    assertEquals(GroupVersionKind.of("apps", "v1", "Deployment"), SCHEME.kindFor(fresh));
  }

  /** A class that cannot carry its kind. */
  public static final class NoTypeFields {
    public NoTypeFields() {}
  }

  @Test
  void refusesAClassThatCannotCarryItsKind() {
    SchemeBuildException e =
        assertThrows(
            SchemeBuildException.class,
            () ->
                Scheme.builder()
                    .addKnownTypes(GroupVersion.of("x", "v1"), NoTypeFields.class)
                    .build());
    assertTrue(
        e.getMessage()
            .contains(
                NoTypeFields.class.getName()
                    + " cannot carry its apiVersion and kind: it neither implements"
                    + " dev.machinery.core.runtime.ApiObject nor has public getApiVersion(),"
                    + " setApiVersion(String), getKind() and setKind(String) methods"),
        e.getMessage());
  }

  /** A model whose accessor fails with a checked exception (thrown past the compiler). */
  public static final class FailingAccessors {
    /**
     * Fails.
     *
     * @return never
     */
    public String getApiVersion() {
      return FailingAccessors.<RuntimeException>sneaky(new IOException("disk gone"));
    }

    /**
     * Does nothing.
     *
     * @param apiVersion ignored
     */
    public void setApiVersion(String apiVersion) {}

    /**
     * Returns nothing.
     *
     * @return null
     */
    public String getKind() {
      return null;
    }

    /**
     * Does nothing.
     *
     * @param kind ignored
     */
    public void setKind(String kind) {}

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> String sneaky(Throwable e) throws E {
      throw (E) e;
    }
  }

  @Test
  void aCheckedFailureOfAnAccessorIsWrappedWithItsCause() {
    TypeAccessor accessor = TypeAccessor.of(FailingAccessors.class);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> accessor.apiVersion(new FailingAccessors()));
    assertEquals("an apiVersion or kind accessor failed", e.getMessage());
    assertEquals("disk gone", e.getCause().getMessage());
  }
}
