package dev.machinery.apiserver.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.discovery.Discovery;
import dev.machinery.apiserver.openapi.OpenApiV2;
import dev.machinery.apiserver.openapi.OpenApiV3;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.discovery.Enablement;
import dev.machinery.unversioned.discovery.ResourceInfo;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The documents that describe what a server serves now — discovery (legacy and aggregated), OpenAPI
 * v2 and v3 — and the {@link DiscoveryHandler} that answers them: built from the resources fixed
 * when the server was built and those served beyond them (the kinds of CustomResourceDefinitions),
 * and replaced whole on each change. OpenAPI is built when a client first reads it.
 *
 * <p>Thread-safe: {@link #publish} is serialized, and later requests see the last documents
 * published.
 */
public final class PublishedDocuments {
  private final Scheme scheme;
  private final Enablement enablement;
  private final String kubernetesVersion;
  private final Codec json;
  private final ServedResources served;
  private final Map<GroupVersion, List<ResourceInfo>> fixedDiscovery;
  private final Map<GroupVersion, List<ResourceInfo>> fixedUnstructured;
  private final Map<GroupVersionKind, JsonNode> fixedSchemas;
  private final List<Map<String, JsonNode>> schemaComponents;
  private volatile Discovery discovery;
  private volatile DiscoveryHandler discoveryHandler;
  private volatile Supplier<OpenApiV3> openApiV3;

  /**
   * Creates the documents of the fixed resources and publishes them.
   *
   * @param scheme the Scheme of the served kinds
   * @param enablement which group versions are served
   * @param kubernetesVersion the version {@code /version} reports
   * @param json the JSON codec
   * @param served the served resources (whose strategic merge patch schemas OpenAPI names)
   * @param fixedDiscovery the resources of kinds the Scheme registers, by group version
   * @param fixedUnstructured the resources of kinds it does not (held without classes, and the
   *     reviews), by group version
   * @param fixedSchemas the OpenAPI schemas of the kinds held without classes
   * @param schemaComponents named schemas those may refer to
   */
  public PublishedDocuments(
      Scheme scheme,
      Enablement enablement,
      String kubernetesVersion,
      Codec json,
      ServedResources served,
      Map<GroupVersion, List<ResourceInfo>> fixedDiscovery,
      Map<GroupVersion, List<ResourceInfo>> fixedUnstructured,
      Map<GroupVersionKind, JsonNode> fixedSchemas,
      List<Map<String, JsonNode>> schemaComponents) {
    this.scheme = scheme;
    this.enablement = enablement;
    this.kubernetesVersion = kubernetesVersion;
    this.json = json;
    this.served = served;
    this.fixedDiscovery = Map.copyOf(fixedDiscovery);
    this.fixedUnstructured = new LinkedHashMap<>(fixedUnstructured);
    this.fixedSchemas = Map.copyOf(fixedSchemas);
    this.schemaComponents = List.copyOf(schemaComponents);
    publish(Map.of(), Map.of());
  }

  /**
   * The discovery documents published last.
   *
   * @return the discovery
   */
  public Discovery discovery() {
    return discovery;
  }

  /**
   * The OpenAPI v3 documents published last, built on first use.
   *
   * @return the documents
   */
  public OpenApiV3 openApiV3() {
    return openApiV3.get();
  }

  /**
   * The handler of {@code /version}, health, discovery and OpenAPI published last.
   *
   * @return the handler
   */
  public DiscoveryHandler handler() {
    return discoveryHandler;
  }

  /**
   * Rebuilds discovery and OpenAPI from the resources the server was built with and those served
   * now beyond them, and publishes them to later requests at once. Serialized, so that the last
   * change wins.
   *
   * @param more the resources served beyond the fixed ones, by group version
   * @param schemas the OpenAPI schemas of their kinds
   */
  public synchronized void publish(
      Map<GroupVersion, List<ResourceInfo>> more, Map<GroupVersionKind, JsonNode> schemas) {
    Discovery.Builder builder = Discovery.builder(scheme).enablement(enablement);
    fixedDiscovery.forEach((version, infos) -> infos.forEach(i -> builder.addResource(version, i)));
    fixedUnstructured.forEach(
        (version, infos) -> infos.forEach(i -> builder.addUnregisteredResource(version, i)));
    more.forEach(
        (version, infos) -> infos.forEach(i -> builder.addUnregisteredResource(version, i)));
    Discovery built = builder.build();
    Map<GroupVersionKind, JsonNode> allSchemas = new LinkedHashMap<>(fixedSchemas);
    allSchemas.putAll(schemas);
    // OpenAPI is built when a client first reads it, not on every change of what is served; so
    // are the kinds that take strategic merge patches (a kind's patch schemas may be read from a
    // large document), of the resources served now.
    List<Served> servedNow = List.copyOf(served.all());
    Supplier<OpenApiV3> openApiV3 =
        memoize(
            () ->
                OpenApiV3.build(
                    scheme,
                    built,
                    kubernetesVersion,
                    allSchemas,
                    components(schemaComponents),
                    strategicMergePatchKinds(servedNow)));
    Supplier<OpenApiV2> openApiV2 =
        memoize(() -> OpenApiV2.from(openApiV3.get(), kubernetesVersion));
    this.openApiV3 = openApiV3;
    this.discoveryHandler =
        new DiscoveryHandler(built, openApiV3, openApiV2, json, kubernetesVersion);
    this.discovery = built;
  }

  /**
   * The named schemas of several sources as one map, read only when the documents are built (a
   * source may make its schemas on first read); the first source that has a name gives it.
   */
  private static Map<String, JsonNode> components(List<Map<String, JsonNode>> sources) {
    return new java.util.AbstractMap<>() {
      @Override
      public JsonNode get(Object name) {
        for (Map<String, JsonNode> source : sources) {
          JsonNode found = source.get(name);
          if (found != null) {
            return found;
          }
        }
        return null;
      }

      @Override
      public boolean containsKey(Object name) {
        return get(name) != null;
      }

      @Override
      public java.util.Set<Map.Entry<String, JsonNode>> entrySet() {
        Map<String, JsonNode> all = new LinkedHashMap<>();
        for (int i = sources.size() - 1; i >= 0; i--) {
          all.putAll(sources.get(i));
        }
        return all.entrySet();
      }
    };
  }

  /** A supplier that makes its value once, on first use, and keeps it. */
  private static <T> Supplier<T> memoize(Supplier<T> make) {
    return new Supplier<>() {
      private volatile T value;

      @Override
      public T get() {
        T made = value;
        if (made == null) {
          synchronized (this) {
            made = value;
            if (made == null) {
              value = made = make.get();
            }
          }
        }
        return made;
      }
    };
  }

  /** The served kinds whose resource declares the strategies of a strategic merge patch. */
  private static Set<GroupVersionKind> strategicMergePatchKinds(List<Served> served) {
    Set<GroupVersionKind> kinds = new HashSet<>();
    for (Served each : served) {
      if (each.store()
          .definition()
          .strategicMergePatchSchema(each.kind().apiVersion())
          .isPresent()) {
        kinds.add(each.kind());
      }
    }
    return kinds;
  }
}
