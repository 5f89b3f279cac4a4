package dev.machinery.apiserver;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.admission.policy.PolicyObjects;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.apiserver.endpoints.Served;
import dev.machinery.apiserver.endpoints.ServedResources;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.Accessor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The policies, bindings, namespaces and parameters of {@code ValidatingAdmissionPolicies}, read
 * from the server's own stores on every write (policies and bindings from their watch caches, as
 * kube-apiserver reads them from informers, with every write made through this server in them); the
 * policies and bindings are turned into trees again only when one was added, changed or removed.
 * The kinds of resources and their schemas, for type checking, are those served and published in
 * OpenAPI now. Thread-safe.
 */
final class ServedPolicyObjects implements PolicyObjects {
  private static final JsonMapper TREES = ObjectJson.mapperBuilder().build();
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  /** The trees of a list, with the uid and resourceVersion of each object they came from. */
  private record Snapshot(List<String> versions, List<Map<String, Object>> items) {}

  private final ServedResources served;
  private final Codec json;
  private final ResourceStore policies;
  private final ResourceStore bindings;
  private final ResourceStore namespaces;
  private final OpenApiKindSchemas schemas;
  private volatile Snapshot policySnapshot = new Snapshot(List.of(), List.of());
  private volatile Snapshot bindingSnapshot = new Snapshot(List.of(), List.of());

  ServedPolicyObjects(
      ServedResources served,
      Codec json,
      ResourceStore policies,
      ResourceStore bindings,
      ResourceStore namespaces,
      OpenApiKindSchemas schemas) {
    this.served = served;
    this.schemas = schemas;
    this.json = json;
    this.policies = policies;
    this.bindings = bindings;
    this.namespaces = namespaces;
  }

  @Override
  public List<Map<String, Object>> policies() {
    Snapshot now = read(policies, policySnapshot);
    policySnapshot = now;
    return now.items();
  }

  @Override
  public List<Map<String, Object>> bindings() {
    Snapshot now = read(bindings, bindingSnapshot);
    bindingSnapshot = now;
    return now.items();
  }

  /**
   * Lists a store as its watch cache holds it once every write made through this server is in it
   * ({@link ResourceStore#listSeenHere}: a policy just stored here is seen, with no request to the
   * storage), turning into trees only when an object was added, changed or removed since the last
   * list.
   */
  private Snapshot read(ResourceStore store, Snapshot last) {
    List<Object> objects = store.listSeenHere(o -> true);
    List<String> versions =
        objects.stream()
            .map(Accessor::of)
            .map(meta -> meta.getUid() + "/" + meta.getResourceVersion())
            .toList();
    if (versions.equals(last.versions())) {
      return last;
    }
    return new Snapshot(versions, objects.stream().map(this::tree).toList());
  }

  private List<Map<String, Object>> list(
      ResourceStore store, String namespace, java.util.function.Predicate<Object> filter) {
    return store.list(namespace, filter, 0, null, "").items().stream().map(this::tree).toList();
  }

  @Override
  public Optional<Map<String, Object>> namespace(String name) {
    if (namespaces == null) {
      return Optional.empty();
    }
    return get(namespaces, null, name);
  }

  private Optional<Map<String, Object>> get(ResourceStore store, String namespace, String name) {
    try {
      return Optional.of(tree(store.get(namespace, name)));
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public List<GroupVersionKind> kindsFor(String group, String version, String resource) {
    return served.find(group, version, resource).map(s -> List.of(s.kind())).orElse(List.of());
  }

  @Override
  public Optional<JSONSchemaProps> schema(GroupVersionKind kind) {
    return schemas.schema(kind);
  }

  @Override
  public Optional<ParamSource> params(String apiVersion, String kind) {
    String version = apiVersion == null ? "" : apiVersion;
    int slash = version.indexOf('/');
    String group = slash < 0 ? "" : version.substring(0, slash);
    String v = slash < 0 ? version : version.substring(slash + 1);
    for (Served resource : served.all()) {
      if (resource.kind().group().equals(group)
          && resource.kind().version().equals(v)
          && resource.kind().kind().equals(kind)) {
        ResourceStore store = resource.store();
        return Optional.of(
            new ParamSource() {
              @Override
              public boolean namespaced() {
                return store.definition().namespaced();
              }

              @Override
              public Optional<Map<String, Object>> get(String namespace, String name) {
                return ServedPolicyObjects.this.get(
                    store, namespace.isEmpty() ? null : namespace, name);
              }

              @Override
              public List<Map<String, Object>> list(String namespace, Selector selector) {
                return ServedPolicyObjects.this.list(
                    store,
                    namespace.isEmpty() ? null : namespace,
                    o -> selector.matches(labels(o)));
              }
            });
      }
    }
    return Optional.empty();
  }

  private static Map<String, String> labels(Object object) {
    Map<String, String> labels = Accessor.of(object).getLabels();
    return labels == null ? Map.of() : labels;
  }

  @Override
  public Map<String, Object> tree(Object object) {
    if (object == null) {
      return null;
    }
    try {
      return TREES.readValue(json.encode(object), MAP);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
