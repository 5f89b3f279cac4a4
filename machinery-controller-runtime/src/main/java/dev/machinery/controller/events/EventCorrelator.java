package dev.machinery.controller.events;

import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.workqueue.RateLimiters;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * client-go's {@code record.EventCorrelator}, on {@code events.k8s.io/v1} events (the reporting
 * controller and instance stand for the old event source's component and host).
 *
 * <ol>
 *   <li><b>Aggregation.</b> Events that differ only in their note (same reporter, object, type and
 *       reason) are tracked together; once 10 distinct notes were seen within 10 minutes of each
 *       other, further ones become one event whose note is {@code "(combined from similar events):
 *       "} followed by the latest note.
 *   <li><b>Deduplication.</b> An event identical to one already written (same reporter, object and
 *       field path, type, reason and note) becomes a patch of the written one: its count plus one,
 *       its first time kept.
 *   <li><b>Spam filter.</b> Each reporter, object and type has a token bucket of 25 events,
 *       refilled by one every 5 minutes; an event without a token is dropped.
 * </ol>
 *
 * <p>Each of the three caches holds at most 4096 keys, the least recently used going first.
 *
 * <p>Thread-safe.
 */
public final class EventCorrelator {
  /** The prefix of a combined event's note. */
  public static final String COMBINED_PREFIX = "(combined from similar events): ";

  static final int MAX_LRU_CACHE_ENTRIES = 4096;
  static final int DEFAULT_AGGREGATE_MAX_EVENTS = 10;
  static final Duration DEFAULT_AGGREGATE_INTERVAL = Duration.ofSeconds(600);
  static final int DEFAULT_SPAM_BURST = 25;
  static final double DEFAULT_SPAM_QPS = 1.0 / 300.0;

  private final Clock clock;
  private final int spamBurst;
  private final double spamQps;
  private final Function<Event, String> spamKeyFunc;
  private final Map<String, RateLimiters.TokenBucket> spamRecords = lru();
  private final Map<String, AggregateRecord> aggregateRecords = lru();
  private final Map<String, Observation> observations = lru();

  /**
   * Creates a correlator with client-go's defaults.
   *
   * @param clock the clock
   */
  public EventCorrelator(Clock clock) {
    this(clock, DEFAULT_SPAM_BURST, DEFAULT_SPAM_QPS, EventCorrelator::spamKey);
  }

  /**
   * Creates a correlator with another spam filter ({@code NewEventCorrelatorWithOptions}).
   *
   * @param clock the clock
   * @param spamBurst the bucket size; positive
   * @param spamQps the refill rate per second; positive
   * @param spamKeyFunc the key events share a bucket by, such as {@link #spamKey}
   */
  public EventCorrelator(
      Clock clock, int spamBurst, double spamQps, Function<Event, String> spamKeyFunc) {
    this.clock = Objects.requireNonNull(clock, "clock");
    if (spamBurst <= 0) {
      throw new IllegalArgumentException("spamBurst must be positive, not " + spamBurst);
    }
    if (!(spamQps > 0)) {
      throw new IllegalArgumentException("spamQps must be positive, not " + spamQps);
    }
    this.spamBurst = spamBurst;
    this.spamQps = spamQps;
    this.spamKeyFunc = Objects.requireNonNull(spamKeyFunc, "spamKeyFunc");
  }

  /**
   * What the correlator made of an event. Immutable once built; do not change the patch map.
   *
   * @param event the event to write (null when skipped)
   * @param patch a merge patch of the already written event, or null to create it
   * @param skip true when the spam filter dropped it
   */
  public record Result(Event event, Map<String, Object> patch, boolean skip) {}

  private static <V> Map<String, V> lru() {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > MAX_LRU_CACHE_ENTRIES;
      }
    };
  }

  private static String join(String... parts) {
    return String.join("", parts);
  }

  /**
   * The key of identical events ({@code getEventKey}).
   *
   * @param event the event
   * @return the key
   */
  public static String eventKey(Event event) {
    ObjectReference r = event.regarding();
    return join(
        event.reportingController(),
        event.reportingInstance(),
        r.kind(),
        r.namespace(),
        r.name(),
        r.fieldPath(),
        r.uid(),
        r.apiVersion(),
        event.type(),
        event.reason(),
        event.note());
  }

  /**
   * The key of the default spam filter ({@code getSpamKey}): reporter, object and type.
   *
   * @param event the event
   * @return the key
   */
  public static String spamKey(Event event) {
    ObjectReference r = event.regarding();
    return join(
        event.reportingController(),
        event.reportingInstance(),
        r.kind(),
        r.namespace(),
        r.name(),
        r.uid(),
        r.apiVersion(),
        event.type());
  }

  /**
   * The key of similar events ({@code EventAggregatorByReasonFunc}): reporter, object, type and
   * reason; events under one key are told apart by their note.
   *
   * @param event the event
   * @return the key
   */
  public static String aggregateKey(Event event) {
    ObjectReference r = event.regarding();
    return join(
        event.reportingController(),
        event.reportingInstance(),
        r.kind(),
        r.namespace(),
        r.name(),
        r.uid(),
        r.apiVersion(),
        event.type(),
        event.reason());
  }

  /**
   * The note of a combined event ({@code EventAggregatorByReasonMessageFunc}).
   *
   * @param event the latest event
   * @return the note
   */
  public static String combinedNote(Event event) {
    return COMBINED_PREFIX + event.note();
  }

  /**
   * Correlates an event ({@code EventCorrelate}).
   *
   * @param event the new event
   * @return what to write
   */
  public synchronized Result correlate(Event event) {
    Objects.requireNonNull(event, "event");
    Aggregated aggregated = aggregate(event);
    Observed observed = observe(aggregated.event, aggregated.key);
    if (filter(observed.event)) {
      return new Result(null, null, true);
    }
    return new Result(observed.event, observed.patch, false);
  }

  /**
   * Records an event as written, with the name and resource version the server gave it, so later
   * duplicates patch it ({@code UpdateState}).
   *
   * @param written the event as written
   */
  public synchronized void updateState(Event written) {
    observations.put(
        eventKey(written),
        new Observation(
            written.count(), written.firstTimestamp(), written.name(), written.resourceVersion()));
  }

  private record Aggregated(Event event, String key) {}

  private static final class AggregateRecord {
    final Set<String> localKeys = new HashSet<>();
    Instant lastTimestamp;
  }

  private Aggregated aggregate(Event event) {
    Instant now = clock.now();
    String eventKey = eventKey(event);
    String aggregateKey = aggregateKey(event);
    AggregateRecord record = aggregateRecords.get(aggregateKey);
    if (record == null
        || Duration.between(record.lastTimestamp, now).compareTo(DEFAULT_AGGREGATE_INTERVAL) > 0) {
      record = new AggregateRecord();
    }
    record.localKeys.add(event.note());
    record.lastTimestamp = now;
    aggregateRecords.put(aggregateKey, record);
    if (record.localKeys.size() < DEFAULT_AGGREGATE_MAX_EVENTS) {
      return new Aggregated(event, eventKey);
    }
    Iterator<String> any = record.localKeys.iterator();
    any.next();
    any.remove();
    ObjectReference regarding = event.regarding();
    Event combined =
        new Event(
            event.namespace(),
            regarding.name() + "." + Long.toHexString(unixNanos(now)),
            "",
            now,
            event.reportingController(),
            event.reportingInstance(),
            event.action(),
            event.reason(),
            combinedNote(event),
            event.type(),
            regarding,
            event.related(),
            1,
            now,
            now);
    return new Aggregated(combined, aggregateKey);
  }

  static long unixNanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }

  private record Observation(
      int count, Instant firstTimestamp, String name, String resourceVersion) {}

  private record Observed(Event event, Map<String, Object> patch) {}

  private Observed observe(Event event, String key) {
    Observation last = observations.get(key);
    Event observed = event;
    Map<String, Object> patch = null;
    if (last != null && last.count > 0) {
      observed =
          event
              .withIdentity(last.name, last.resourceVersion)
              .withCount(last.count + 1, last.firstTimestamp);
      patch = observed.countPatch();
    }
    observations.put(
        key,
        new Observation(
            observed.count(),
            observed.firstTimestamp(),
            observed.name(),
            observed.resourceVersion()));
    return new Observed(observed, patch);
  }

  private boolean filter(Event event) {
    String key = spamKeyFunc.apply(event);
    RateLimiters.TokenBucket bucket = spamRecords.get(key);
    if (bucket == null) {
      bucket = new RateLimiters.TokenBucket(spamQps, spamBurst, clock);
    }
    boolean drop = !bucket.tryAccept();
    spamRecords.put(key, bucket);
    return drop;
  }
}
