package dev.machinery.unversioned.discovery;

import dev.machinery.core.schema.GroupVersionKind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How one kind is served as a REST resource, for discovery: its plural and singular names, scope,
 * verbs, short names, categories and subresources. Immutable.
 *
 * @param kind the kind, such as {@code Deployment}
 * @param resource the plural resource name, such as {@code deployments}
 * @param singular the singular name, such as {@code deployment}
 * @param namespaced whether objects live in namespaces
 * @param verbs the verbs, such as {@code get} and {@code list}
 * @param shortNames the short names, such as {@code deploy}
 * @param categories the categories, such as {@code all}
 * @param subresources the subresources, such as {@code status} and {@code scale}
 * @param storageVersionHash the hash of the version the resource's objects are stored in, as legacy
 *     discovery's {@code storageVersionHash} lists it, or {@code null} for a resource that stores
 *     nothing or does not say
 */
public record ResourceInfo(
    String kind,
    String resource,
    String singular,
    boolean namespaced,
    List<String> verbs,
    List<String> shortNames,
    List<String> categories,
    List<Subresource> subresources,
    String storageVersionHash) {

  /** The verbs of a resource with full storage: create, delete, deletecollection, get, ... */
  public static final List<String> ALL_VERBS =
      List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

  /**
   * Checks the names and copies the lists.
   *
   * @param kind see the record description
   * @param resource see the record description
   * @param singular see the record description
   * @param namespaced see the record description
   * @param verbs see the record description
   * @param shortNames see the record description
   * @param categories see the record description
   * @param subresources see the record description
   * @param storageVersionHash see the record description
   */
  public ResourceInfo {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(singular, "singular");
    if (kind.isEmpty() || resource.isEmpty() || resource.indexOf('/') >= 0) {
      throw new IllegalArgumentException(
          "a resource needs a kind and a plural name without '/': " + kind + ", " + resource);
    }
    verbs = List.copyOf(verbs);
    shortNames = List.copyOf(shortNames);
    categories = List.copyOf(categories);
    subresources = List.copyOf(subresources);
  }

  /**
   * A description without a storage version hash.
   *
   * @param kind see the record description
   * @param resource see the record description
   * @param singular see the record description
   * @param namespaced see the record description
   * @param verbs see the record description
   * @param shortNames see the record description
   * @param categories see the record description
   * @param subresources see the record description
   */
  public ResourceInfo(
      String kind,
      String resource,
      String singular,
      boolean namespaced,
      List<String> verbs,
      List<String> shortNames,
      List<String> categories,
      List<Subresource> subresources) {
    this(kind, resource, singular, namespaced, verbs, shortNames, categories, subresources, null);
  }

  /**
   * Returns the description of a kind with Kubernetes' guessed names ({@link #guessPlural}), all
   * verbs, and no short names, categories or subresources.
   *
   * @param kind the kind
   * @param namespaced whether objects live in namespaces
   * @return the description
   */
  public static ResourceInfo of(String kind, boolean namespaced) {
    return new ResourceInfo(
        kind,
        guessPlural(kind),
        kind.toLowerCase(Locale.ROOT),
        namespaced,
        ALL_VERBS,
        List.of(),
        List.of(),
        List.of());
  }

  /**
   * Guesses a kind's plural resource name as Kubernetes does when nothing better is known: lower
   * case, then {@code -s} → {@code -ses}, {@code -y} → {@code -ies}, otherwise {@code +s}; {@code
   * Endpoints} stays {@code endpoints}.
   *
   * @param kind the kind, such as {@code NetworkPolicy}
   * @return the plural, such as {@code networkpolicies}
   */
  public static String guessPlural(String kind) {
    String lower = kind.toLowerCase(Locale.ROOT);
    if (lower.isEmpty() || lower.endsWith("endpoints")) {
      return lower;
    }
    if (lower.endsWith("s")) {
      return lower + "es";
    }
    if (lower.endsWith("y")) {
      return lower.substring(0, lower.length() - 1) + "ies";
    }
    return lower + "s";
  }

  /**
   * Returns a copy with other verbs.
   *
   * @param verbs the verbs
   * @return the description
   */
  public ResourceInfo withVerbs(String... verbs) {
    return new ResourceInfo(
        kind,
        resource,
        singular,
        namespaced,
        List.of(verbs),
        shortNames,
        categories,
        subresources,
        storageVersionHash);
  }

  /**
   * Returns a copy with short names.
   *
   * @param shortNames the short names
   * @return the description
   */
  public ResourceInfo withShortNames(String... shortNames) {
    return new ResourceInfo(
        kind,
        resource,
        singular,
        namespaced,
        verbs,
        List.of(shortNames),
        categories,
        subresources,
        storageVersionHash);
  }

  /**
   * Returns a copy with categories.
   *
   * @param categories the categories
   * @return the description
   */
  public ResourceInfo withCategories(String... categories) {
    return new ResourceInfo(
        kind,
        resource,
        singular,
        namespaced,
        verbs,
        shortNames,
        List.of(categories),
        subresources,
        storageVersionHash);
  }

  /**
   * Returns a copy with one more subresource.
   *
   * @param subresource the subresource
   * @return the description
   */
  public ResourceInfo withSubresource(Subresource subresource) {
    List<Subresource> more = new ArrayList<>(subresources);
    more.add(subresource);
    return new ResourceInfo(
        kind,
        resource,
        singular,
        namespaced,
        verbs,
        shortNames,
        categories,
        more,
        storageVersionHash);
  }

  /**
   * Returns a copy naming the version its objects are stored in.
   *
   * @param storageVersion the kind in its storage version, such as {@code v1 Event} for {@code
   *     events.k8s.io} Events
   * @return the description, with kube-apiserver's hash of that version
   */
  public ResourceInfo withStorageVersion(GroupVersionKind storageVersion) {
    return new ResourceInfo(
        kind,
        resource,
        singular,
        namespaced,
        verbs,
        shortNames,
        categories,
        subresources,
        storageVersionHash(storageVersion));
  }

  /**
   * Returns kube-apiserver's {@code storageVersionHash} of a storage version: the first 8 bytes of
   * the SHA-256 of {@code group/version/kind}, in base64 ({@code r2yiGXH7wu8=} for {@code
   * /v1/Event}). Clients compare it between reads of discovery to learn that the storage version
   * changed (the storage version migrator does); it names nothing else.
   *
   * @param storageVersion the kind in its storage version
   * @return the hash
   */
  public static String storageVersionHash(GroupVersionKind storageVersion) {
    String text =
        storageVersion.group() + "/" + storageVersion.version() + "/" + storageVersion.kind();
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(Arrays.copyOf(digest, 8));
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform has SHA-256 (java.security.MessageDigest's required algorithms).
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /**
   * A subresource, such as {@code status} (same kind as its resource) or {@code scale} ({@code
   * autoscaling/v1 Scale}). Immutable.
   *
   * @param name the subresource name
   * @param kind the kind it returns, or {@code null} for the resource's own kind and version
   * @param verbs the verbs
   */
  public record Subresource(String name, GroupVersionKind kind, List<String> verbs) {
    /**
     * Checks the name and copies the verbs.
     *
     * @param name see the record description
     * @param kind see the record description
     * @param verbs see the record description
     */
    public Subresource {
      Objects.requireNonNull(name, "name");
      if (name.isEmpty() || name.indexOf('/') >= 0) {
        throw new IllegalArgumentException("a subresource name must be one segment: " + name);
      }
      verbs = List.copyOf(verbs);
    }
  }
}
