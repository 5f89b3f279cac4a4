package dev.machinery.controller.cache;

import dev.machinery.unversioned.meta.v1.Accessor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;

/**
 * client-go's thread-safe store with indexes ({@code cache.threadSafeMap} behind {@code
 * cache.NewIndexer}): objects under their key, and for each index a map from value to keys, kept in
 * step on every change.
 *
 * <p>Thread-safe: a read-write lock guards the items and the indexes.
 *
 * @param <T> the object type
 */
public final class CacheIndexer<T> implements Indexer<T> {
  private final Function<Object, String> keyFunc;
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final Map<String, T> items = new HashMap<>();
  private final Map<String, IndexFunc<T>> indexers = new LinkedHashMap<>();
  private final Map<String, Map<String, Set<String>>> indices = new HashMap<>();

  /**
   * Creates an indexer keyed by {@link Keys#metaNamespaceKey}.
   *
   * @param indexers the index functions
   */
  public CacheIndexer(Map<String, IndexFunc<T>> indexers) {
    this(Keys::metaNamespaceKey, indexers);
  }

  /**
   * Creates an indexer.
   *
   * @param keyFunc the key function
   * @param indexers the index functions
   */
  public CacheIndexer(Function<Object, String> keyFunc, Map<String, IndexFunc<T>> indexers) {
    this.keyFunc = Objects.requireNonNull(keyFunc, "keyFunc");
    addIndexers(indexers);
  }

  /**
   * Returns the index function client-go calls {@code MetaNamespaceIndexFunc}: an object's
   * namespace.
   *
   * @param <T> the object type
   * @return the function
   */
  public static <T> IndexFunc<T> namespaceIndexFunc() {
    return object -> {
      String namespace = Accessor.of(object).getNamespace();
      return List.of(namespace == null ? "" : namespace);
    };
  }

  /**
   * Returns the index functions most informers use: {@link IndexFunc#NAMESPACE_INDEX}.
   *
   * @param <T> the object type
   * @return name to function
   */
  public static <T> Map<String, IndexFunc<T>> namespaceIndexers() {
    return Map.of(IndexFunc.NAMESPACE_INDEX, namespaceIndexFunc());
  }

  @Override
  public void add(T object) {
    put(keyFunc.apply(object), object);
  }

  @Override
  public void update(T object) {
    put(keyFunc.apply(object), object);
  }

  /**
   * Stores an object under a key.
   *
   * @param key the key
   * @param object the object
   */
  public void put(String key, T object) {
    Objects.requireNonNull(object, "object");
    lock.writeLock().lock();
    try {
      T old = items.put(key, object);
      updateIndices(old, object, key);
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public void delete(T object) {
    deleteKey(keyFunc.apply(object));
  }

  /**
   * Deletes the object under a key.
   *
   * @param key the key
   */
  public void deleteKey(String key) {
    lock.writeLock().lock();
    try {
      T old = items.remove(key);
      if (old != null) {
        updateIndices(old, null, key);
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public List<T> list() {
    lock.readLock().lock();
    try {
      return new ArrayList<>(items.values());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<String> listKeys() {
    lock.readLock().lock();
    try {
      return new ArrayList<>(items.keySet());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public Optional<T> getByKey(String key) {
    lock.readLock().lock();
    try {
      return Optional.ofNullable(items.get(key));
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Returns the stored object with the same key as the given one.
   *
   * @param object the object
   * @return the stored object, or empty
   */
  public Optional<T> get(Object object) {
    return getByKey(keyFunc.apply(object));
  }

  @Override
  public void replace(Collection<T> objects, String resourceVersion) {
    Map<String, T> fresh = new LinkedHashMap<>();
    for (T object : objects) {
      fresh.put(keyFunc.apply(object), object);
    }
    lock.writeLock().lock();
    try {
      items.clear();
      items.putAll(fresh);
      for (Map<String, Set<String>> index : indices.values()) {
        index.clear();
      }
      for (Map.Entry<String, T> entry : items.entrySet()) {
        updateIndices(null, entry.getValue(), entry.getKey());
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public void resync() {}

  @Override
  public List<T> index(String indexName, T object) {
    lock.readLock().lock();
    try {
      IndexFunc<T> indexFunc = indexFunc(indexName);
      Map<String, Set<String>> index = indices.get(indexName);
      Set<String> keys = new LinkedHashSet<>();
      for (String value : indexFunc.values(object)) {
        keys.addAll(index.getOrDefault(value, Set.of()));
      }
      List<T> result = new ArrayList<>(keys.size());
      for (String key : keys) {
        result.add(items.get(key));
      }
      return result;
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<String> indexKeys(String indexName, String indexedValue) {
    lock.readLock().lock();
    try {
      indexFunc(indexName);
      return new ArrayList<>(indices.get(indexName).getOrDefault(indexedValue, Set.of()));
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<String> listIndexFuncValues(String indexName) {
    lock.readLock().lock();
    try {
      Map<String, Set<String>> index = indices.get(indexName);
      return index == null ? List.of() : new ArrayList<>(index.keySet());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<T> byIndex(String indexName, String indexedValue) {
    lock.readLock().lock();
    try {
      indexFunc(indexName);
      Set<String> keys = indices.get(indexName).getOrDefault(indexedValue, Set.of());
      List<T> result = new ArrayList<>(keys.size());
      for (String key : keys) {
        result.add(items.get(key));
      }
      return result;
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public Map<String, IndexFunc<T>> indexers() {
    lock.readLock().lock();
    try {
      return Map.copyOf(indexers);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public void addIndexers(Map<String, IndexFunc<T>> newIndexers) {
    lock.writeLock().lock();
    try {
      for (String name : newIndexers.keySet()) {
        if (indexers.containsKey(name)) {
          throw new IllegalArgumentException("indexer conflict: \"" + name + "\" exists");
        }
      }
      for (Map.Entry<String, IndexFunc<T>> entry : newIndexers.entrySet()) {
        indexers.put(entry.getKey(), entry.getValue());
        Map<String, Set<String>> index = new HashMap<>();
        indices.put(entry.getKey(), index);
        for (Map.Entry<String, T> item : items.entrySet()) {
          for (String value : entry.getValue().values(item.getValue())) {
            index.computeIfAbsent(value, v -> new LinkedHashSet<>()).add(item.getKey());
          }
        }
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  private IndexFunc<T> indexFunc(String indexName) {
    IndexFunc<T> indexFunc = indexers.get(indexName);
    if (indexFunc == null) {
      throw new IllegalArgumentException("index \"" + indexName + "\" does not exist");
    }
    return indexFunc;
  }

  private void updateIndices(T old, T object, String key) {
    for (Map.Entry<String, IndexFunc<T>> entry : indexers.entrySet()) {
      Map<String, Set<String>> index = indices.get(entry.getKey());
      Set<String> oldValues = old == null ? Set.of() : new HashSet<>(entry.getValue().values(old));
      Set<String> newValues =
          object == null ? Set.of() : new HashSet<>(entry.getValue().values(object));
      for (String value : oldValues) {
        if (!newValues.contains(value)) {
          Set<String> keys = index.get(value);
          if (keys != null) {
            keys.remove(key);
            if (keys.isEmpty()) {
              index.remove(value);
            }
          }
        }
      }
      for (String value : newValues) {
        index.computeIfAbsent(value, v -> new LinkedHashSet<>()).add(key);
      }
    }
  }
}
