package dev.machinery.controller.cache;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A keyed store of objects ({@code cache.Store}).
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the object type
 */
public interface Store<T> {
  /**
   * Adds an object.
   *
   * @param object the object
   */
  void add(T object);

  /**
   * Replaces an object.
   *
   * @param object the object
   */
  void update(T object);

  /**
   * Deletes an object.
   *
   * @param object the object
   */
  void delete(T object);

  /**
   * Lists the objects.
   *
   * @return a snapshot
   */
  List<T> list();

  /**
   * Lists the keys.
   *
   * @return a snapshot
   */
  List<String> listKeys();

  /**
   * Returns the object under a key.
   *
   * @param key the key
   * @return the object, or empty
   */
  Optional<T> getByKey(String key);

  /**
   * Replaces the whole content with a list, as after a relist.
   *
   * @param objects the objects
   * @param resourceVersion the list's resource version
   */
  void replace(Collection<T> objects, String resourceVersion);

  /** Asks for every object to be processed again (a no-op for plain caches). */
  void resync();
}
