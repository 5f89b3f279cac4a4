package dev.machinery.controller.cache;

import java.util.List;
import java.util.Map;

/**
 * A store with indexes ({@code cache.Indexer}).
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the object type
 */
public interface Indexer<T> extends Store<T> {
  /**
   * Lists the objects that share an index value with the given object.
   *
   * @param indexName the index
   * @param object the object
   * @return the objects
   * @throws IllegalArgumentException when no such index exists
   */
  List<T> index(String indexName, T object);

  /**
   * Lists the keys of the objects indexed under a value.
   *
   * @param indexName the index
   * @param indexedValue the value
   * @return the keys
   * @throws IllegalArgumentException when no such index exists
   */
  List<String> indexKeys(String indexName, String indexedValue);

  /**
   * Lists the values an index holds.
   *
   * @param indexName the index
   * @return the values
   */
  List<String> listIndexFuncValues(String indexName);

  /**
   * Lists the objects indexed under a value.
   *
   * @param indexName the index
   * @param indexedValue the value
   * @return the objects
   * @throws IllegalArgumentException when no such index exists
   */
  List<T> byIndex(String indexName, String indexedValue);

  /**
   * Returns the index functions.
   *
   * @return name to function
   */
  Map<String, IndexFunc<T>> indexers();

  /**
   * Adds index functions, indexing the objects already held.
   *
   * @param indexers name to function
   * @throws IllegalArgumentException when a name is taken
   */
  void addIndexers(Map<String, IndexFunc<T>> indexers);
}
