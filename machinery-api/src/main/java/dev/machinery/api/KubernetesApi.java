package dev.machinery.api;

import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Registers Kubernetes 1.33's built-in kinds, generated from its OpenAPI document, with a {@link
 * Scheme}: every kind of every group version the document names (alpha and beta versions included),
 * as Kubernetes' {@code k8s.io/client-go/kubernetes/scheme} does in Go.
 *
 * <pre>{@code
 * Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
 * Codec json = CodecFactory.create(scheme).json();
 * Deployment d = json.decode(bytes, Deployment.class).object();
 * Integer replicas = d.getSpec().getReplicas();
 * }</pre>
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class KubernetesApi {
  /** The Kubernetes release whose kinds are generated: {@value}. */
  public static final String RELEASE = GeneratedKinds.RELEASE;

  /**
   * The kinds that {@link MetaV1#addToScheme} registers with machinery-unversioned's own class,
   * which this class leaves as they are: {@code autoscaling/v1 Scale} is {@code
   * dev.machinery.unversioned.meta.v1.Scale}, which has the same JSON as the generated {@code
   * dev.machinery.api.autoscaling.v1.Scale} and is what the library's servers write for the {@code
   * scale} subresource.
   */
  private static final Set<GroupVersionKind> HELD_BY_META_V1 =
      Set.of(GroupVersionKind.of("autoscaling", "v1", "Scale"));

  private KubernetesApi() {}

  /**
   * Registers every built-in kind, and what every group version shares: {@link MetaV1#addToScheme}
   * (the unversioned {@code Status}, {@code APIVersions}, {@code APIGroupList}, {@code APIGroup},
   * {@code APIResourceList}, the {@code meta.k8s.io/v1} kinds), and in each group version the
   * option kinds ({@link MetaV1#addToGroupVersion}), as Kubernetes' {@code AddToGroupVersion} binds
   * them (the document lists {@code DeleteOptions} in 62 group versions, legacy ones without kinds
   * of their own such as {@code extensions/v1beta1} among them, and each is bound). Call it instead
   * of {@link MetaV1#addToScheme}, not beside it (the Scheme refuses the shared types twice); a
   * builder that already has them takes {@link #addBuiltinKinds}.
   *
   * <p>One kind of the OpenAPI document is not registered: {@code WatchEvent}, which the document
   * lists in every group version. Its JSON has no {@code apiVersion} and {@code kind}, so it is not
   * a kind the Scheme can hold; the library writes and reads watch events as frames ({@code
   * dev.machinery.unversioned.watch}).
   *
   * @param builder the scheme builder
   * @return the builder
   */
  public static Scheme.Builder addToScheme(Scheme.Builder builder) {
    return addBuiltinKinds(MetaV1.addToScheme(builder));
  }

  /**
   * Registers what {@link #addToScheme} does except {@link MetaV1#addToScheme}, for a builder that
   * already holds the shared types (the Scheme refuses them twice): every built-in kind, and the
   * option kinds in each group version the document binds them into.
   *
   * @param builder the scheme builder, with {@link MetaV1#addToScheme} applied
   * @return the builder
   */
  public static Scheme.Builder addBuiltinKinds(Scheme.Builder builder) {
    for (GroupVersion version : GeneratedKinds.OPTION_VERSIONS) {
      MetaV1.addToGroupVersion(builder, version);
    }
    for (Map.Entry<GroupVersion, List<Class<?>>> e : kinds().entrySet()) {
      GroupVersion version = e.getKey();
      if (!GeneratedKinds.OPTION_VERSIONS.contains(version)) {
        MetaV1.addToGroupVersion(builder, version);
      }
      for (Class<?> type : e.getValue()) {
        if (!HELD_BY_META_V1.contains(version.withKind(type.getSimpleName()))) {
          builder.addKnownTypes(version, type);
        }
      }
    }
    return builder;
  }

  /**
   * Returns the generated kinds by group version, each registered under its simple class name.
   *
   * @return an unmodifiable map, its group versions in order of group, then version
   */
  public static Map<GroupVersion, List<Class<?>>> kinds() {
    return Holder.KINDS;
  }

  /** Sorted once, on first use. */
  private static final class Holder {
    static final Map<GroupVersion, List<Class<?>>> KINDS = sorted();

    private static Map<GroupVersion, List<Class<?>>> sorted() {
      Map<GroupVersion, List<Class<?>>> out = new LinkedHashMap<>();
      GeneratedKinds.KINDS.entrySet().stream()
          .sorted(
              Map.Entry.comparingByKey(
                  Comparator.comparing(GroupVersion::group).thenComparing(GroupVersion::version)))
          .forEach(
              e ->
                  out.put(
                      e.getKey(),
                      e.getValue().stream()
                          .sorted(Comparator.comparing(Class::getSimpleName))
                          .toList()));
      return java.util.Collections.unmodifiableMap(out);
    }
  }
}
