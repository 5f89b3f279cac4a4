package dev.machinery.controller;

import dev.machinery.unversioned.meta.v1.Accessor;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * controller-runtime's stock predicates ({@code predicate} package).
 *
 * <p>Every predicate built here is stateless and thread-safe. This class has no instances.
 */
public final class Predicates {
  private Predicates() {}

  /**
   * Passes updates whose {@code metadata.generation} changed ({@code GenerationChangedPredicate}):
   * spec changes, not status-only writes. Additions and deletions pass.
   *
   * @param <T> the object type
   * @return the predicate
   */
  public static <T> Predicate<T> generationChanged() {
    return new Predicate<>() {
      @Override
      public boolean update(T oldObject, T newObject) {
        return Accessor.of(oldObject).getGeneration() != Accessor.of(newObject).getGeneration();
      }
    };
  }

  /**
   * Passes updates whose resource version changed ({@code ResourceVersionChangedPredicate}), which
   * drops periodic resyncs.
   *
   * @param <T> the object type
   * @return the predicate
   */
  public static <T> Predicate<T> resourceVersionChanged() {
    return new Predicate<>() {
      @Override
      public boolean update(T oldObject, T newObject) {
        return !Objects.equals(
            Accessor.of(oldObject).getResourceVersion(),
            Accessor.of(newObject).getResourceVersion());
      }
    };
  }

  /**
   * Passes updates whose labels changed ({@code LabelChangedPredicate}).
   *
   * @param <T> the object type
   * @return the predicate
   */
  public static <T> Predicate<T> labelsChanged() {
    return new Predicate<>() {
      @Override
      public boolean update(T oldObject, T newObject) {
        return !orEmpty(Accessor.of(oldObject).getLabels())
            .equals(orEmpty(Accessor.of(newObject).getLabels()));
      }
    };
  }

  /**
   * Passes updates whose annotations changed ({@code AnnotationChangedPredicate}).
   *
   * @param <T> the object type
   * @return the predicate
   */
  public static <T> Predicate<T> annotationsChanged() {
    return new Predicate<>() {
      @Override
      public boolean update(T oldObject, T newObject) {
        return !orEmpty(Accessor.of(oldObject).getAnnotations())
            .equals(orEmpty(Accessor.of(newObject).getAnnotations()));
      }
    };
  }

  private static Map<String, String> orEmpty(Map<String, String> map) {
    return map == null ? Map.of() : map;
  }

  /**
   * Passes every notification whose object (the new one for updates) satisfies a test ({@code
   * NewPredicateFuncs}).
   *
   * @param filter the test
   * @param <T> the object type
   * @return the predicate
   */
  public static <T> Predicate<T> of(java.util.function.Predicate<? super T> filter) {
    Objects.requireNonNull(filter, "filter");
    return new Predicate<>() {
      @Override
      public boolean create(T object) {
        return filter.test(object);
      }

      @Override
      public boolean update(T oldObject, T newObject) {
        return filter.test(newObject);
      }

      @Override
      public boolean delete(T object) {
        return filter.test(object);
      }
    };
  }

  /**
   * Passes what any of the predicates passes ({@code Or}).
   *
   * @param predicates the predicates
   * @param <T> the object type
   * @return the predicate
   */
  public static <T> Predicate<T> or(List<? extends Predicate<T>> predicates) {
    List<Predicate<T>> all = List.copyOf(predicates);
    return new Predicate<>() {
      @Override
      public boolean create(T object) {
        return all.stream().anyMatch(p -> p.create(object));
      }

      @Override
      public boolean update(T oldObject, T newObject) {
        return all.stream().anyMatch(p -> p.update(oldObject, newObject));
      }

      @Override
      public boolean delete(T object) {
        return all.stream().anyMatch(p -> p.delete(object));
      }
    };
  }

  /**
   * Passes what the predicate refuses ({@code Not}).
   *
   * @param predicate the predicate
   * @param <T> the object type
   * @return the predicate
   */
  public static <T> Predicate<T> not(Predicate<T> predicate) {
    Objects.requireNonNull(predicate, "predicate");
    return new Predicate<>() {
      @Override
      public boolean create(T object) {
        return !predicate.create(object);
      }

      @Override
      public boolean update(T oldObject, T newObject) {
        return !predicate.update(oldObject, newObject);
      }

      @Override
      public boolean delete(T object) {
        return !predicate.delete(object);
      }
    };
  }
}
