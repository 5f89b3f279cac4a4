package dev.machinery.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.runtime.ApiObject;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The Scheme knows every kind of the OpenAPI document; the kinds have the shape a client needs. */
class KubernetesApiTest {
  static final Scheme SCHEME = KubernetesApi.addToScheme(Scheme.builder()).build();

  /**
   * The document lists 301 group-version-kinds: the 172 kinds of Kubernetes' definitions, 5
   * unversioned kinds of the core group ({@code Status}, {@code APIVersions}, ...), {@code
   * DeleteOptions} in 62 group versions, and {@code WatchEvent} in the same 62, which is no kind of
   * the Scheme; every other one is recognized, each generated kind under its own class except
   * {@code autoscaling/v1 Scale}, held by machinery-unversioned's class.
   */
  @Test
  void theSchemeRecognizesEveryKindOfTheDocument() {
    Set<GroupVersionKind> kinds = Fixtures.documentKinds();
    assertEquals(301, kinds.size());
    List<GroupVersionKind> missing = new ArrayList<>();
    int watchEvents = 0;
    for (GroupVersionKind kind : kinds) {
      if (kind.kind().equals("WatchEvent")) {
        watchEvents++;
      } else if (!SCHEME.recognizes(kind)) {
        missing.add(kind);
      }
    }
    assertEquals(List.of(), missing);
    assertEquals(62, watchEvents);
    assertEquals(
        dev.machinery.unversioned.meta.v1.Scale.class,
        SCHEME.typeFor(GroupVersionKind.of("autoscaling", "v1", "Scale")).orElseThrow());
    assertEquals(
        dev.machinery.api.apps.v1.Deployment.class,
        SCHEME.typeFor(GroupVersionKind.of("apps", "v1", "Deployment")).orElseThrow());
  }

  /** One generated class for each kind of the document's Kubernetes definitions. */
  @Test
  void everyKindOfTheKubernetesDefinitionsIsGenerated() {
    Set<String> expected = new TreeSet<>();
    for (Map.Entry<String, Map<String, Object>> d : Fixtures.definitions().entrySet()) {
      if (d.getKey().startsWith("io.k8s.apimachinery.")) {
        continue;
      }
      @SuppressWarnings("unchecked")
      List<Map<String, String>> gvks =
          (List<Map<String, String>>) d.getValue().get("x-kubernetes-group-version-kind");
      for (Map<String, String> gvk : gvks == null ? List.<Map<String, String>>of() : gvks) {
        expected.add(gvk.get("group") + "/" + gvk.get("version") + "/" + gvk.get("kind"));
      }
    }
    Set<String> actual = new TreeSet<>();
    for (Map.Entry<GroupVersion, List<Class<?>>> e : KubernetesApi.kinds().entrySet()) {
      for (Class<?> type : e.getValue()) {
        actual.add(e.getKey().group() + "/" + e.getKey().version() + "/" + type.getSimpleName());
      }
    }
    assertEquals(expected, actual);
    assertEquals(172, actual.size());
    assertEquals(35, KubernetesApi.kinds().size());
  }

  /** Every kind is an ApiObject; objects carry ObjectMeta, lists ListMeta and typed items. */
  @Test
  void kindsAreApiObjectsWithMetadataAndListsHaveItems() throws NoSuchMethodException {
    for (List<Class<?>> types : KubernetesApi.kinds().values()) {
      for (Class<?> type : types) {
        assertTrue(ApiObject.class.isAssignableFrom(type), type.getName());
        boolean list = type.getSimpleName().endsWith("List");
        if (list) {
          assertEquals(
              ListMeta.class, type.getMethod("getMetadata").getReturnType(), type.getName());
          Method items = type.getMethod("getItems");
          assertEquals(List.class, items.getReturnType());
          Class<?> item =
              (Class<?>)
                  ((ParameterizedType) items.getGenericReturnType()).getActualTypeArguments()[0];
          assertTrue(ApiObject.class.isAssignableFrom(item), type.getName());
        } else if (hasMethod(type, "getMetadata")) {
          assertEquals(
              ObjectMeta.class, type.getMethod("getMetadata").getReturnType(), type.getName());
        }
      }
    }
  }

  private static boolean hasMethod(Class<?> type, String name) {
    return Stream.of(type.getMethods()).anyMatch(m -> m.getName().equals(name));
  }

  /** module-info exports and opens every generated package, and no other. */
  @Test
  void theModuleExportsAndOpensEveryGeneratedPackage() throws IOException {
    Set<String> generated = new TreeSet<>();
    Path root = Path.of("target/generated-sources/annotations");
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(f -> f.getFileName().toString().equals("package-info.java"))
          .forEach(f -> generated.add(root.relativize(f.getParent()).toString().replace('/', '.')));
    }
    assertEquals(36, generated.size());
    String moduleInfo = Files.readString(Path.of("src/main/java/module-info.java"));
    Set<String> exported = new TreeSet<>();
    Set<String> opened = new TreeSet<>();
    for (String line : moduleInfo.lines().map(String::strip).toList()) {
      if (line.startsWith("exports ")) {
        exported.add(line.substring(8, line.length() - 1));
      } else if (line.startsWith("opens ")) {
        opened.add(line.substring(6, line.indexOf(' ', 6)));
      }
    }
    Set<String> withRoot = new TreeSet<>(generated);
    withRoot.add("dev.machinery.api");
    assertEquals(withRoot, exported);
    assertEquals(generated, opened);
  }

  /** A builder that already holds the shared types takes the kinds alone, and knows the same. */
  @Test
  void theKindsAloneJoinABuilderThatHasTheSharedTypes() {
    Scheme withMeta =
        KubernetesApi.addBuiltinKinds(
                dev.machinery.unversioned.meta.v1.MetaV1.addToScheme(Scheme.builder()))
            .build();
    assertEquals(SCHEME.allKnownTypes(), withMeta.allKnownTypes());
    assertThrows(
        dev.machinery.core.runtime.SchemeBuildException.class,
        () ->
            KubernetesApi.addToScheme(
                    dev.machinery.unversioned.meta.v1.MetaV1.addToScheme(Scheme.builder()))
                .build());
  }

  /**
   * Kubernetes' protobuf messages exist for every generated kind but kube-aggregator's, whose
   * {@code generated.proto} machinery-unversioned does not ship.
   */
  @Test
  void protobufCoversEveryKindButTheAggregators() {
    KubernetesProtobuf protobuf =
        KubernetesProtobuf.create(dev.machinery.core.codec.CodecFactory.create(SCHEME));
    List<String> unsupported = new ArrayList<>();
    for (Map.Entry<GroupVersion, List<Class<?>>> e : KubernetesApi.kinds().entrySet()) {
      for (Class<?> type : e.getValue()) {
        if (!protobuf.supports(e.getKey().withKind(type.getSimpleName()))) {
          unsupported.add(e.getKey() + " " + type.getSimpleName());
        }
      }
    }
    assertEquals(
        List.of("apiregistration.k8s.io/v1 APIService", "apiregistration.k8s.io/v1 APIServiceList"),
        unsupported);
    dev.machinery.api.apiregistration.v1.APIService service =
        new dev.machinery.api.apiregistration.v1.APIService();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> protobuf.encode(service));
    assertTrue(e.getMessage().contains("APIService"), e.getMessage());
  }
}
