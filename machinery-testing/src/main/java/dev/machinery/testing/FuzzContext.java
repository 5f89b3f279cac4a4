package dev.machinery.testing;

import java.lang.reflect.Type;
import java.util.Random;

/**
 * What a {@link FuzzFunction} may use: the random source of the current object and nested fuzzing
 * with the fuzzer's rules. Confined to the thread that fuzzes.
 */
public final class FuzzContext {
  private final Fuzzer fuzzer;
  private final Random random;
  private final int depth;

  FuzzContext(Fuzzer fuzzer, Random random, int depth) {
    this.fuzzer = fuzzer;
    this.random = random;
    this.depth = depth;
  }

  /**
   * Returns the random source; every value must come from it, so that a seed replays.
   *
   * @return the random source
   */
  public Random random() {
    return random;
  }

  /**
   * Fuzzes a nested value with the fuzzer's rules, one level deeper.
   *
   * @param type the type, generic types included
   * @return the value, possibly {@code null} when the type is nullable
   */
  public Object fuzz(Type type) {
    return fuzzer.value(type, random, depth + 1, true);
  }

  /**
   * Fuzzes a nested value of a class, never {@code null}.
   *
   * @param type the class
   * @param <T> the class
   * @return the value
   */
  public <T> T fuzzNonNull(Class<T> type) {
    return type.cast(fuzzer.value(type, random, depth + 1, false));
  }

  /**
   * Fuzzes a value of a class with the fuzzer's own rules, ignoring the custom function registered
   * for that class: for a custom function that adjusts what the rules make.
   *
   * @param type the class
   * @param <T> the class
   * @return the value
   */
  public <T> T fuzzByRules(Class<T> type) {
    return type.cast(fuzzer.byRules(type, random, depth + 1));
  }

  /**
   * Returns a random string with the fuzzer's alphabet and length bound, never empty.
   *
   * @return the string
   */
  public String string() {
    return fuzzer.string(random, false);
  }
}
