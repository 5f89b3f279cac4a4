package dev.machinery.cluster.controller.garbagecollector;

import java.util.Comparator;
import java.util.Objects;

/**
 * What the garbage collector knows an object by (Go's {@code objectReference}): an owner
 * reference's coordinates (API version, kind, name, uid) and the namespace, empty for a
 * cluster-scoped object.
 *
 * <p>Immutable; thread-safe.
 *
 * @param apiVersion the API version, such as {@code apps/v1}
 * @param kind the kind
 * @param name the name
 * @param uid the uid
 * @param namespace the namespace, empty when cluster-scoped (or not known to be namespaced)
 */
record Identity(String apiVersion, String kind, String name, String uid, String namespace) {
  /** Kind and API version before namespace, namespace before name, name before uid. */
  static final Comparator<Identity> ORDER =
      Comparator.comparing(Identity::kind)
          .thenComparing(Identity::apiVersion)
          .thenComparing(Identity::namespace)
          .thenComparing(Identity::name)
          .thenComparing(Identity::uid);

  /**
   * Normalises missing parts to empty.
   *
   * @param apiVersion see the record description
   * @param kind see the record description
   * @param name see the record description
   * @param uid see the record description
   * @param namespace see the record description
   */
  public Identity {
    apiVersion = Objects.requireNonNullElse(apiVersion, "");
    kind = Objects.requireNonNullElse(kind, "");
    name = Objects.requireNonNullElse(name, "");
    uid = Objects.requireNonNullElse(uid, "");
    namespace = Objects.requireNonNullElse(namespace, "");
  }

  /**
   * Returns the identity an owner reference gives, in a namespace.
   *
   * @param ref the owner reference
   * @param namespace the namespace
   * @return the identity
   */
  public static Identity of(OwnerRef ref, String namespace) {
    return new Identity(ref.apiVersion(), ref.kind(), ref.name(), ref.uid(), namespace);
  }

  /**
   * Tells whether an owner reference names this identity's API version, kind, name and uid.
   *
   * @param ref the reference
   * @return true when all four match
   */
  public boolean matchesCoordinates(OwnerRef ref) {
    return uid.equals(ref.uid())
        && name.equals(ref.name())
        && kind.equals(ref.kind())
        && apiVersion.equals(ref.apiVersion());
  }

  /**
   * Returns this identity in another namespace.
   *
   * @param otherNamespace the namespace
   * @return the identity
   */
  public Identity inNamespace(String otherNamespace) {
    return new Identity(apiVersion, kind, name, uid, otherNamespace);
  }

  /**
   * Returns {@code [apiVersion/kind, namespace: ns, name: n, uid: u]}, as kube writes it in logs
   * and events.
   *
   * @return the text
   */
  @Override
  public String toString() {
    return "["
        + apiVersion
        + "/"
        + kind
        + ", namespace: "
        + namespace
        + ", name: "
        + name
        + ", uid: "
        + uid
        + "]";
  }
}
