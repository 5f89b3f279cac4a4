package dev.machinery.unversioned.protobuf;

import dev.machinery.core.schema.GroupVersionKind;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which message of Kubernetes' {@code generated.proto} files holds a kind. A group's messages are
 * in the package {@code k8s.io.api.<dir>.<version>}, where the directory is the group's first DNS
 * label ({@code apps}, {@code rbac} for {@code rbac.authorization.k8s.io}, {@code networking} for
 * {@code networking.k8s.io}), {@code core} for the core group, and two exceptions: {@code
 * internal.apiserver.k8s.io} is {@code apiserverinternal} and {@code apiextensions.k8s.io} lives in
 * apiextensions-apiserver. The kinds of {@code meta.k8s.io/v1} (Status, the options, WatchEvent,
 * the discovery lists) are in apimachinery's {@code meta.v1} package; the options and WatchEvent
 * belong to every group version, as Go registers them in each. Stateless.
 */
final class KubeKinds {
  private static final String META = "k8s.io.apimachinery.pkg.apis.meta.v1";

  private static final Map<String, String> PACKAGES =
      Map.of(
          "", "k8s.io.api.core",
          "internal.apiserver.k8s.io", "k8s.io.api.apiserverinternal",
          "apiextensions.k8s.io", "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions");

  /** The kinds of meta.k8s.io/v1 that Go adds to every group version. */
  private static final Set<String> IN_EVERY_GROUP_VERSION =
      Set.of(
          "WatchEvent",
          "ListOptions",
          "GetOptions",
          "DeleteOptions",
          "CreateOptions",
          "UpdateOptions",
          "PatchOptions");

  /** The kinds Go serializes with apiVersion v1 (the core group's version). */
  private static final Set<String> UNVERSIONED =
      Set.of("Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList");

  private KubeKinds() {}

  static Optional<String> messageName(ProtoSchema schema, GroupVersionKind gvk) {
    String kind = gvk.kind();
    if (kind.isEmpty() || gvk.version().isEmpty()) {
      return Optional.empty();
    }
    String own = packageOf(gvk.group(), gvk.version()) + "." + kind;
    if (!gvk.group().equals("meta.k8s.io") && schema.message(own).isPresent()) {
      return Optional.of(own);
    }
    boolean meta =
        (gvk.group().equals("meta.k8s.io") && gvk.version().equals("v1"))
            || (gvk.group().isEmpty() && gvk.version().equals("v1") && UNVERSIONED.contains(kind))
            || IN_EVERY_GROUP_VERSION.contains(kind);
    String metaName = META + "." + kind;
    return meta && schema.message(metaName).isPresent() ? Optional.of(metaName) : Optional.empty();
  }

  static String packageOf(String group, String version) {
    String prefix = PACKAGES.get(group);
    if (prefix == null) {
      int dot = group.indexOf('.');
      prefix = "k8s.io.api." + (dot < 0 ? group : group.substring(0, dot));
    }
    return prefix + "." + version;
  }
}
