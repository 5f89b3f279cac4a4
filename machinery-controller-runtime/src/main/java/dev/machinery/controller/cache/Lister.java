package dev.machinery.controller.cache;

import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.Accessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads an informer's cache ({@code cache.GenericLister}): lists by label selector and gets by
 * name, across namespaces or, through {@link #namespace}, in one.
 *
 * <p>Thread-safe. The objects returned are the cache's: never change them.
 *
 * @param <T> the object type
 */
public final class Lister<T> {
  private final Indexer<T> indexer;

  /**
   * Creates a lister over an indexer.
   *
   * @param indexer the indexer
   */
  public Lister(Indexer<T> indexer) {
    this.indexer = Objects.requireNonNull(indexer, "indexer");
  }

  /**
   * Lists the objects whose labels match.
   *
   * @param selector the selector; {@link Selector#everything()} for all
   * @return the objects
   */
  public List<T> list(Selector selector) {
    return filter(indexer.list(), selector);
  }

  /**
   * Gets a cluster-scoped object.
   *
   * @param name the name
   * @return the object, or empty
   */
  public Optional<T> get(String name) {
    return indexer.getByKey(name);
  }

  /**
   * Returns a lister of one namespace.
   *
   * @param namespace the namespace
   * @return the lister
   */
  public NamespaceLister<T> namespace(String namespace) {
    return new NamespaceLister<>(indexer, Objects.requireNonNull(namespace, "namespace"));
  }

  static <T> List<T> filter(List<T> objects, Selector selector) {
    if (selector.isEmpty()) {
      return objects;
    }
    List<T> result = new ArrayList<>();
    for (T object : objects) {
      Map<String, String> labels = Accessor.of(object).getLabels();
      if (selector.matches(labels == null ? Map.of() : labels)) {
        result.add(object);
      }
    }
    return result;
  }

  /**
   * Reads one namespace of an informer's cache ({@code cache.GenericNamespaceLister}).
   *
   * <p>Thread-safe.
   *
   * @param <T> the object type
   */
  public static final class NamespaceLister<T> {
    private final Indexer<T> indexer;
    private final String namespace;

    NamespaceLister(Indexer<T> indexer, String namespace) {
      this.indexer = indexer;
      this.namespace = namespace;
    }

    /**
     * Lists the namespace's objects whose labels match, through the namespace index when the
     * indexer has one.
     *
     * @param selector the selector
     * @return the objects
     */
    public List<T> list(Selector selector) {
      List<T> inNamespace;
      if (indexer.indexers().containsKey(IndexFunc.NAMESPACE_INDEX)) {
        inNamespace = indexer.byIndex(IndexFunc.NAMESPACE_INDEX, namespace);
      } else {
        inNamespace = new ArrayList<>();
        for (T object : indexer.list()) {
          if (namespace.equals(Accessor.of(object).getNamespace())) {
            inNamespace.add(object);
          }
        }
      }
      return filter(inNamespace, selector);
    }

    /**
     * Gets an object of the namespace.
     *
     * @param name the name
     * @return the object, or empty
     */
    public Optional<T> get(String name) {
      return indexer.getByKey(Keys.key(namespace, name));
    }
  }
}
