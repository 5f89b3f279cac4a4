package dev.machinery.apiserver.negotiation;

import java.util.function.Function;

/**
 * Remembers what is computed from an object that does not change, such as the metadata of a row of
 * a {@code Table}, so that a server whose objects are shared between requests (held by its watch
 * cache) computes it once per object rather than once per request. Implementations are thread-safe.
 */
@FunctionalInterface
public interface ItemMemo {
  /** Remembers nothing: every value is computed when asked for. */
  ItemMemo NONE = (item, key, compute) -> compute.apply(item);

  /**
   * The value computed from an object under a key: remembered from an earlier call with an equal
   * key when the implementation holds the object, else computed now.
   *
   * @param item the object; never changed
   * @param key what the value depends on besides the object
   * @param compute computes the value from the object; must not change it
   * @return the value, which callers must not change either
   */
  Object computeIfAbsent(Object item, Object key, Function<Object, Object> compute);
}
