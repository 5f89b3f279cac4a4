package dev.machinery.testing;

import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.meta.v1.MicroTime;
import dev.machinery.unversioned.meta.v1.Time;
import dev.machinery.unversioned.resource.Quantity;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import java.util.function.BiPredicate;

/**
 * What the fuzzer and the semantic equality know about the library's value types without being
 * told: how to make a {@link Quantity} and an {@link IntOrString} of every form, {@code meta/v1}
 * times and durations, and that quantities compare by amount ({@code 1000m} equals {@code 1}).
 * Stateless; thread-safe.
 */
final class ValueTypes {
  private ValueTypes() {}

  static void addFuzzFunctions(Map<Class<?>, FuzzFunction<?>> types) {
    types.put(Quantity.class, context -> quantity(context.random()));
    types.put(IntOrString.class, context -> intOrString(context));
    types.put(Time.class, context -> new Time(Instant.ofEpochSecond(seconds(context.random()))));
    types.put(
        MicroTime.class,
        context ->
            new MicroTime(
                Instant.ofEpochSecond(
                    seconds(context.random()), context.random().nextInt(1_000_000) * 1_000L)));
    types.put(
        dev.machinery.unversioned.meta.v1.Duration.class,
        context ->
            new dev.machinery.unversioned.meta.v1.Duration(
                java.time.Duration.ofNanos(context.random().nextLong())));
  }

  /** Seconds from 1970 to about 2038: times whose text is the same in every format. */
  private static long seconds(Random random) {
    return random.nextInt(Integer.MAX_VALUE);
  }

  static void addEqualities(Map<Class<?>, BiPredicate<Object, Object>> overrides) {
    overrides.put(Quantity.class, (a, b) -> ((Quantity) a).isSemanticallyEqual((Quantity) b));
  }

  /**
   * A quantity in one of the three formats, in the shapes Kubernetes' own fuzzer makes: whole
   * binary amounts (often a round number of Ki, Mi, Gi...) and decimal amounts with up to nine
   * fraction digits, large and small.
   */
  static Quantity quantity(Random random) {
    switch (random.nextInt(3)) {
      case 0:
        long binary =
            random.nextBoolean()
                ? random.nextLong() >>> 1
                : (long) random.nextInt(1024) << (10 * random.nextInt(5));
        return Quantity.of(binary, Quantity.Format.BINARY_SI);
      case 1:
        return Quantity.of(decimal(random), Quantity.Format.DECIMAL_SI);
      default:
        return Quantity.of(decimal(random), Quantity.Format.DECIMAL_EXPONENT);
    }
  }

  private static BigDecimal decimal(Random random) {
    long unscaled = random.nextBoolean() ? random.nextLong() : random.nextInt(1000);
    int scale = random.nextBoolean() ? random.nextInt(4) : 3 - random.nextInt(13);
    return BigDecimal.valueOf(unscaled, scale);
  }

  private static IntOrString intOrString(FuzzContext context) {
    Random random = context.random();
    switch (random.nextInt(3)) {
      case 0:
        return IntOrString.ofInt(random.nextInt());
      case 1:
        return IntOrString.ofString(random.nextInt(101) + "%");
      default:
        return IntOrString.ofString(context.string());
    }
  }
}
