package dev.machinery.testing;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.runtime.TypeAccessor;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;

/**
 * Proves that every kind of a Scheme survives conversion and encoding: for each seed, an internal
 * object is fuzzed, converted to every external version of its group, encoded as JSON and YAML,
 * decoded, converted back and compared semantically; each external version is fuzzed, encoded and
 * decoded, and converted to the internal form and back to itself. Kinds of groups without an
 * internal version get the encoding round trip. A failure is shrunk to the smallest object that
 * still fails and reported with its seed, its route and the differences.
 *
 * <p>One line from a JUnit 5 test class:
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> roundTrip() {
 *   return RoundTrip.forScheme(MyApi.scheme()).build().dynamicTests();
 * }
 * }</pre>
 *
 * <p>Seeds: 200 per kind, or {@code -Dmachinery.seeds=N}; {@code -Dmachinery.seed=N} replays one;
 * {@code -Dmachinery.parallelism=N} (or {@link Builder#parallelism}) shares them among N threads.
 * Immutable after {@link Builder#build()}; runs may share it between threads.
 */
public final class RoundTrip {
  private final Scheme scheme;
  private final Codec json;
  private final Codec yaml;
  private final Fuzzer fuzzer;
  private final SemanticEquality equality;

  /** The equality of the routes through conversion: {@code @NotConverted} properties are lost. */
  private final SemanticEquality converted;

  private final int seeds;
  private final Long only;
  private final Predicate<GroupVersionKind> include;
  private final Map<GroupKind, String> excluded;
  private final boolean shrink;
  private final int parallelism;

  private RoundTrip(Builder builder) {
    this.scheme = builder.scheme;
    CodecFactory codecs = CodecFactory.create(builder.scheme);
    this.json = codecs.json();
    this.yaml = codecs.yaml();
    this.fuzzer = builder.fuzzer;
    this.equality = builder.equality;
    this.converted = builder.equality.ignoringNotConverted();
    this.seeds = builder.seeds;
    this.only = builder.only;
    this.include = builder.include;
    this.excluded = Map.copyOf(builder.excluded);
    this.shrink = builder.shrink;
    this.parallelism = builder.parallelism;
  }

  /**
   * Returns a builder for a scheme.
   *
   * @param scheme the scheme whose kinds are tried
   * @return the builder
   */
  public static Builder forScheme(Scheme scheme) {
    return new Builder(scheme);
  }

  /**
   * Returns the kinds tried: every internal kind and every external kind (unversioned kinds once,
   * in the version they are registered in), minus those left out by the builder.
   *
   * @return the kinds
   */
  public List<GroupVersionKind> kinds() {
    List<GroupVersionKind> kinds = new ArrayList<>();
    for (Map.Entry<GroupVersionKind, Class<?>> entry : scheme.allKnownTypes().entrySet()) {
      GroupVersionKind kind = entry.getKey();
      if (include.test(kind)) {
        kinds.add(kind);
      }
    }
    return kinds;
  }

  /**
   * Tries every kind and returns the failures, one per failing kind.
   *
   * @return the failures; empty when every kind survives
   */
  public List<RoundTripFailure> run() {
    List<RoundTripFailure> failures = new ArrayList<>();
    for (GroupVersionKind kind : kinds()) {
      if (!excluded.containsKey(kind.groupKind())) {
        check(kind).ifPresent(failures::add);
      }
    }
    return failures;
  }

  /**
   * Tries every kind and throws if one loses data.
   *
   * @throws AssertionError with every failure's report
   */
  public void assertLossless() {
    List<RoundTripFailure> failures = run();
    if (!failures.isEmpty()) {
      StringBuilder text = new StringBuilder(failures.size() + " kinds lose data:");
      failures.forEach(failure -> text.append("\n").append(failure.report()));
      throw new AssertionError(text.toString());
    }
  }

  /**
   * Returns one JUnit 5 dynamic test per kind, for a {@code @TestFactory}; an excluded kind is
   * reported as aborted with its reason.
   *
   * @return the tests
   */
  public Stream<DynamicTest> dynamicTests() {
    return kinds().stream()
        .map(
            kind ->
                DynamicTest.dynamicTest(
                    kind.toString(),
                    () -> {
                      String reason = excluded.get(kind.groupKind());
                      Assumptions.assumeTrue(reason == null, () -> "excluded: " + reason);
                      Optional<RoundTripFailure> failure = check(kind);
                      if (failure.isPresent()) {
                        throw new AssertionError(failure.get().report());
                      }
                    }));
  }

  /**
   * Tries one kind over every seed and returns its first failure, shrunk.
   *
   * @param kind the kind
   * @return the failure, or empty when the kind survives every seed
   */
  public Optional<RoundTripFailure> check(GroupVersionKind kind) {
    Class<?> type = scheme.typeFor(kind).orElseThrow(() -> scheme.notRegistered(kind));
    long first = only == null ? 0 : only;
    long end = only == null ? seeds : only + 1;
    if (parallelism > 1 && end - first > 1) {
      return checkInParallel(kind, type, first, end);
    }
    for (long seed = first; seed < end; seed++) {
      Optional<RoundTripFailure> failure = checkSeed(kind, type, seed);
      if (failure.isPresent()) {
        return failure;
      }
    }
    return Optional.empty();
  }

  /**
   * The seeds handed out among threads in increasing order, each taking the next one when it is
   * done (objects differ in size, so fixed shares would leave one thread idle), and none taking a
   * seed past the lowest failing one found so far: every seed below the lowest failing one has been
   * handed out before it and is tried, and that one is reported, as in one thread.
   */
  private Optional<RoundTripFailure> checkInParallel(
      GroupVersionKind kind, Class<?> type, long first, long end) {
    AtomicLong lowest = new AtomicLong(Long.MAX_VALUE);
    AtomicLong next = new AtomicLong(first);
    ConcurrentSkipListMap<Long, RoundTripFailure> failures = new ConcurrentSkipListMap<>();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            parallelism,
            task -> {
              Thread thread = new Thread(task, "round-trip " + kind);
              thread.setDaemon(true);
              return thread;
            });
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < parallelism; t++) {
        workers.add(
            pool.submit(
                () -> {
                  for (long seed = next.getAndIncrement();
                      seed < end && seed < lowest.get();
                      seed = next.getAndIncrement()) {
                    Optional<RoundTripFailure> failure = checkSeed(kind, type, seed);
                    if (failure.isPresent()) {
                      failures.put(seed, failure.get());
                      lowest.accumulateAndGet(seed, Math::min);
                      return;
                    }
                  }
                }));
      }
      for (Future<?> worker : workers) {
        worker.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking " + kind, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IllegalStateException(cause);
    } finally {
      pool.shutdownNow();
    }
    return failures.isEmpty() ? Optional.empty() : Optional.of(failures.firstEntry().getValue());
  }

  /** One seed: fuzzed, sent through every route, its failure shrunk and reported. */
  private Optional<RoundTripFailure> checkSeed(GroupVersionKind kind, Class<?> type, long seed) {
    Object object;
    try {
      object = fuzz(type, kind, seed);
    } catch (RuntimeException e) {
      // A setter that refuses a fuzzed value: a fuzz function is missing for that property.
      return Optional.of(
          new RoundTripFailure(
              kind,
              seed,
              "fuzzing " + type.getName(),
              List.of(),
              describe(e) + "; register a FuzzFunction for it (Fuzzer.Builder.forProperty)",
              null));
    }
    Outcome outcome = trip(kind, object);
    return outcome == null ? Optional.empty() : Optional.of(report(kind, seed, object, outcome));
  }

  private Object fuzz(Class<?> type, GroupVersionKind kind, long seed) {
    Object object = fuzzer.fuzz(type, new Random(seed));
    stamp(object, kind);
    return object;
  }

  private static void stamp(Object object, GroupVersionKind kind) {
    TypeAccessor accessor = TypeAccessor.of(object);
    if (kind.groupVersion().isInternal()) {
      accessor.setApiVersion(object, null);
      accessor.setKind(object, null);
    } else {
      accessor.setApiVersion(object, kind.apiVersion());
      accessor.setKind(object, kind.kind());
    }
  }

  private RoundTripFailure report(
      GroupVersionKind kind, long seed, Object object, Outcome outcome) {
    Object smallest = object;
    if (shrink && outcome.error == null) {
      smallest =
          Shrinker.shrink(
              object,
              fuzzer,
              candidate -> {
                stamp(candidate, kind);
                Outcome again = trip(kind, candidate);
                return again != null && again.route.equals(outcome.route) && again.error == null;
              });
    }
    Outcome last = smallest == object ? outcome : trip(kind, smallest);
    if (last == null) {
      last = outcome;
      smallest = object;
    }
    return new RoundTripFailure(kind, seed, last.route, last.differences, last.error, smallest);
  }

  /** The first step that loses data: its route, and the differences or the error. */
  private static final class Outcome {
    final String route;
    final List<Difference> differences;
    final String error;

    Outcome(String route, List<Difference> differences, String error) {
      this.route = route;
      this.differences = differences;
      this.error = error;
    }
  }

  private Outcome trip(GroupVersionKind kind, Object object) {
    GroupVersion internal = GroupVersion.internal(kind.group());
    boolean hasInternal =
        !scheme.isUnversioned(object.getClass())
            && scheme.isVersionRegistered(internal)
            && scheme.recognizes(internal.withKind(kind.kind()));
    if (kind.groupVersion().isInternal()) {
      for (GroupVersion version : scheme.prioritizedVersionsForGroup(kind.group())) {
        if (!scheme.recognizes(version.withKind(kind.kind()))) {
          continue;
        }
        for (Codec codec : List.of(json, yaml)) {
          String route =
              kind.groupVersion()
                  + " → "
                  + version
                  + " → "
                  + name(codec)
                  + " → "
                  + kind.groupVersion();
          try {
            Object external = scheme.convertToVersion(object, GroupVersioner.of(version));
            Object decoded = codec.decode(codec.encode(external)).object();
            Object back = scheme.convertToVersion(decoded, GroupVersioner.internal());
            List<Difference> differences = converted.diff(object, back);
            if (!differences.isEmpty()) {
              return new Outcome(route, differences, null);
            }
          } catch (RuntimeException e) {
            return new Outcome(route, List.of(), describe(e));
          }
        }
      }
      return null;
    }
    for (Codec codec : List.of(json, yaml)) {
      String route = kind.groupVersion() + " → " + name(codec) + " → " + kind.groupVersion();
      try {
        Object decoded = codec.decode(codec.encode(object), object.getClass()).object();
        List<Difference> differences = equality.diff(object, decoded);
        if (!differences.isEmpty()) {
          return new Outcome(route, differences, null);
        }
      } catch (RuntimeException e) {
        return new Outcome(route, List.of(), describe(e));
      }
    }
    if (hasInternal) {
      String route = kind.groupVersion() + " → " + internal + " → " + kind.groupVersion();
      try {
        Object expected = json.decode(json.encode(object), object.getClass()).object();
        scheme.applyDefaults(expected);
        Object hub = scheme.convertToVersion(object, GroupVersioner.internal());
        Object back = scheme.convertToVersion(hub, GroupVersioner.of(kind.groupVersion()));
        List<Difference> differences = converted.diff(expected, back);
        if (!differences.isEmpty()) {
          return new Outcome(route, differences, null);
        }
      } catch (RuntimeException e) {
        return new Outcome(route, List.of(), describe(e));
      }
    }
    return null;
  }

  private static String describe(RuntimeException e) {
    StackTraceElement[] trace = e.getStackTrace();
    return e + (trace.length == 0 ? "" : " (at " + trace[0] + ")");
  }

  private String name(Codec codec) {
    return codec == json ? "JSON" : "YAML";
  }

  /** Collects the settings of a {@link RoundTrip}. Not thread-safe. */
  public static final class Builder {
    private final Scheme scheme;
    private Fuzzer fuzzer = Fuzzer.defaults();
    private SemanticEquality equality = SemanticEquality.defaults();
    private int seeds = Integer.getInteger("machinery.seeds", 200);
    private Long only = Long.getLong("machinery.seed");
    private Predicate<GroupVersionKind> include = kind -> true;
    private final Map<GroupKind, String> excluded = new LinkedHashMap<>();
    private boolean shrink = true;
    private int parallelism = Integer.getInteger("machinery.parallelism", 1);

    private Builder(Scheme scheme) {
      this.scheme = Objects.requireNonNull(scheme, "scheme");
    }

    /**
     * Sets the fuzzer, for custom fuzz functions.
     *
     * @param fuzzer the fuzzer
     * @return this builder
     */
    public Builder fuzzer(Fuzzer fuzzer) {
      this.fuzzer = Objects.requireNonNull(fuzzer, "fuzzer");
      return this;
    }

    /**
     * Sets the equality, for per-type overrides.
     *
     * @param equality the equality
     * @return this builder
     */
    public Builder equality(SemanticEquality equality) {
      this.equality = Objects.requireNonNull(equality, "equality");
      return this;
    }

    /**
     * Sets the number of seeds per kind (default 200, or {@code -Dmachinery.seeds=N}).
     *
     * @param seeds at least 1
     * @return this builder
     */
    public Builder seeds(int seeds) {
      if (seeds < 1) {
        throw new IllegalArgumentException("seeds must be at least 1, got " + seeds);
      }
      this.seeds = seeds;
      return this;
    }

    /**
     * Replays one seed only (as {@code -Dmachinery.seed=N} does).
     *
     * @param seed the seed
     * @return this builder
     */
    public Builder onlySeed(long seed) {
      this.only = seed;
      return this;
    }

    /**
     * Limits the kinds tried.
     *
     * @param include which kinds to try
     * @return this builder
     */
    public Builder kinds(Predicate<GroupVersionKind> include) {
      this.include = Objects.requireNonNull(include, "include");
      return this;
    }

    /**
     * Leaves out a kind with a known one-way loss, in every version, saying why.
     *
     * @param kind the group kind
     * @param reason why its loss is accepted; must not be blank
     * @return this builder
     */
    public Builder exclude(GroupKind kind, String reason) {
      Objects.requireNonNull(kind, "kind");
      if (reason == null || reason.isBlank()) {
        throw new IllegalArgumentException("excluding " + kind + " needs a reason");
      }
      excluded.put(kind, reason);
      return this;
    }

    /**
     * Turns shrinking off (reports the fuzzed object as it failed).
     *
     * @return this builder
     */
    public Builder withoutShrinking() {
      this.shrink = false;
      return this;
    }

    /**
     * Tries the seeds of each kind on this many threads (default 1, or {@code
     * -Dmachinery.parallelism=N}). The result is the same as on one thread: the lowest failing
     * seed, shrunk. Custom {@link FuzzFunction}s and {@link SemanticEquality} rules must then be
     * safe to call from several threads at once (the library's are).
     *
     * @param threads the number of threads, at least 1
     * @return this builder
     */
    public Builder parallelism(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("parallelism must be at least 1, was " + threads);
      }
      this.parallelism = threads;
      return this;
    }

    /**
     * Builds the harness.
     *
     * @return the harness
     */
    public RoundTrip build() {
      return new RoundTrip(this);
    }
  }
}
