package dev.machinery.unversioned.meta.v1;

import java.util.ArrayList;
import java.util.List;

/**
 * Adds and removes the finalizers of an object, as a controller does around cleanup it owns: each
 * at most once, order kept.
 *
 * <p>Stateless and safe to use from any thread; the objects are as thread-safe as they are.
 */
public final class Finalizers {
  private Finalizers() {}

  /**
   * Whether an object has a finalizer.
   *
   * @param object the object's metadata (see {@link Accessor#of})
   * @param finalizer the finalizer
   * @return true when present
   */
  public static boolean contains(MetaObject object, String finalizer) {
    List<String> finalizers = object.getFinalizers();
    return finalizers != null && finalizers.contains(finalizer);
  }

  /**
   * Adds a finalizer at the end unless present.
   *
   * @param object the object's metadata
   * @param finalizer the finalizer
   * @return whether it was added
   */
  public static boolean add(MetaObject object, String finalizer) {
    if (contains(object, finalizer)) {
      return false;
    }
    List<String> finalizers =
        object.getFinalizers() == null
            ? new ArrayList<>()
            : new ArrayList<>(object.getFinalizers());
    finalizers.add(finalizer);
    object.setFinalizers(finalizers);
    return true;
  }

  /**
   * Removes every occurrence of a finalizer.
   *
   * @param object the object's metadata
   * @param finalizer the finalizer
   * @return whether one was removed
   */
  public static boolean remove(MetaObject object, String finalizer) {
    if (!contains(object, finalizer)) {
      return false;
    }
    List<String> finalizers = new ArrayList<>(object.getFinalizers());
    finalizers.removeIf(finalizer::equals);
    object.setFinalizers(finalizers.isEmpty() ? null : finalizers);
    return true;
  }
}
