package dev.machinery.builtins;

import java.util.function.Supplier;

/** A value made once, on first use, by whichever thread asks first; thread-safe. */
final class Lazy<T> implements Supplier<T> {
  private final Supplier<T> make;
  private volatile T value;

  Lazy(Supplier<T> make) {
    this.make = make;
  }

  @Override
  public T get() {
    T made = value;
    if (made == null) {
      synchronized (this) {
        made = value;
        if (made == null) {
          value = made = make.get();
        }
      }
    }
    return made;
  }

  /** Whether the value has been made. */
  boolean isMade() {
    return value != null;
  }
}
