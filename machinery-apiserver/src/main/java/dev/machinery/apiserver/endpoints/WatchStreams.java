package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.negotiation.Negotiation;
import dev.machinery.apiserver.negotiation.Negotiator;
import dev.machinery.apiserver.negotiation.ProtobufBodies;
import dev.machinery.apiserver.negotiation.Representation;
import dev.machinery.apiserver.negotiation.Response;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.protobuf.ProtobufCodec;
import dev.machinery.unversioned.watch.EventType;
import dev.machinery.unversioned.watch.WatchEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Watch responses: a streamed HTTP body of JSON frames ({@code {"type":...,"object":...}}, one a
 * line), as kube-apiserver writes {@code ?watch=true}. Starts with synthetic {@code ADDED} events
 * for the current objects when no resourceVersion (or {@code 0}) is given, else from the change
 * after it ({@code 410 Expired} as an {@code ERROR} event when it is compacted). A watch list
 * ({@code sendInitialEvents=true}, KEP-3157) starts with the objects of a state not older than its
 * resourceVersion (the most recent when none is given), then, when it allows bookmarks, a {@code
 * BOOKMARK} annotated {@value #INITIAL_EVENTS_END} at the revision that state was read at; {@code
 * sendInitialEvents=false} starts from the most recent revision (or the one given) without them.
 * Filters by selectors (an object that stops matching is {@code DELETED}, one that starts is {@code
 * ADDED}); sends {@code BOOKMARK} events when asked, each interval and 2 s before the watch ends;
 * ends after {@code timeoutSeconds}.
 *
 * <p>Thread-safe: immutable; each stream runs on the thread that writes it.
 */
public final class WatchStreams {
  private static final long DEFAULT_TIMEOUT_SECONDS = 1800;

  /**
   * The annotation of the bookmark that ends a watch's initial events ({@code
   * sendInitialEvents=true}), as kube-apiserver's {@code metav1.InitialEventsAnnotationKey}.
   */
  public static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

  /** How long a watch list waits for the storage to reach the revision it names (kube's 3 s). */
  private static final long FRESH_WAIT_MILLIS = 3000;

  private static final int TOO_LARGE_RETRY_SECONDS = 1;

  /** How long before a watch's end its last bookmark comes (kube's cache watcher: 2 s). */
  static final long PRE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(2);

  /** No further bookmark. */
  static final long NO_BOOKMARK = Long.MIN_VALUE;

  /** The Content-Type of a protobuf watch: length-prefixed {@code WatchEvent} messages. */
  public static final String PROTOBUF_STREAM = ProtobufCodec.MEDIA_TYPE + ";stream=watch";

  private final Negotiator negotiator;
  private final Codec json;
  private final ProtobufBodies protobuf;
  private final Scheme scheme;
  private final Duration bookmarkInterval;

  /**
   * Creates the watch streams.
   *
   * @param negotiator renders each event's object
   * @param json encodes Status objects of error events
   * @param protobuf encodes events for clients that prefer protobuf
   * @param scheme makes the objects of bookmark events
   * @param bookmarkInterval how often a watcher that asked for bookmarks gets one
   */
  public WatchStreams(
      Negotiator negotiator,
      Codec json,
      ProtobufBodies protobuf,
      Scheme scheme,
      Duration bookmarkInterval) {
    this.negotiator = negotiator;
    this.json = json;
    this.protobuf = protobuf;
    this.scheme = scheme;
    this.bookmarkInterval = bookmarkInterval;
  }

  /**
   * Starts a watch response.
   *
   * @param request the request
   * @param target the resource
   * @param namespace the namespace, or {@code null}
   * @param options the request's list options (resourceVersion, timeoutSeconds,
   *     allowWatchBookmarks)
   * @param filter the selectors
   * @param negotiation the representation of event objects
   * @param toServed converts a stored object to the request's version
   * @param name which names to report (a watch of one object)
   * @return the streaming response
   */
  public ApiResponse stream(
      ApiRequest request,
      Served target,
      String namespace,
      ListOptions options,
      Predicate<Object> filter,
      Negotiation negotiation,
      UnaryOperator<Object> toServed,
      Predicate<String> name) {
    String includeObject = request.parameter("includeObject");
    if (!negotiation.acceptable()) {
      Response refused = negotiator.notAcceptableResponse(negotiation);
      return ApiResponse.of(refused.status(), refused.contentType(), refused.body());
    }
    Framing framing;
    if (negotiation.representation().format().equals("protobuf")) {
      framing = new ProtobufFraming(target, toServed);
    } else {
      Representation chosen = negotiation.representation();
      Representation compact =
          new Representation(
              chosen.contentType(),
              chosen.format().equals("yaml") ? "json" : chosen.format(),
              chosen.transform(),
              chosen.group(),
              chosen.version(),
              false,
              chosen.export(),
              chosen.statusVersion());
      framing = new JsonFraming(target, compact, includeObject, toServed);
    }
    long timeoutSeconds =
        options.getTimeoutSeconds() == null || options.getTimeoutSeconds() <= 0
            ? DEFAULT_TIMEOUT_SECONDS
            : options.getTimeoutSeconds();
    boolean bookmarks = options.isAllowWatchBookmarks();
    String rv = options.getResourceVersion();
    ResourceStore store = target.store();
    Predicate<Object> selected =
        object -> name.test(Accessor.of(object).getName()) && filter.test(object);
    // Without selectors an object's earlier state is selected as its current one (its name does
    // not change), so the earlier state need not be decoded.
    boolean unfiltered = filter == ResourceStore.EVERYTHING;
    ResourceStore.FieldValue indexed = RequestOptions.indexed(options, store);
    Boolean sendInitialEvents = options.getSendInitialEvents();
    boolean initialEventsEnd = Boolean.TRUE.equals(sendInitialEvents) && bookmarks;
    boolean latest = rv == null || rv.isEmpty();
    List<Object> initial;
    long after;
    StorageWatch watch;
    try {
      if (sendInitialEvents == null ? latest || rv.equals("0") : sendInitialEvents) {
        if (!latest && !rv.equals("0")) {
          long wanted = ResourceStore.parseRevision(rv);
          long current = awaitRevision(store, wanted);
          if (current < wanted) {
            Status tooLarge =
                ApiErrors.newTimeout(
                        "Too large resource version: " + wanted + ", current: " + current,
                        TOO_LARGE_RETRY_SECONDS)
                    .status();
            return ApiResponse.streaming(
                200, framing.contentType(), out -> framing.error(out, tooLarge));
          }
        }
        // "0" (any state) is served as the most recent state, which is one of them.
        ResourceStore.Page page = store.list(namespace, selected, indexed, 0, null, null);
        initial = page.items();
        after = page.revision();
      } else {
        initial = List.of();
        after =
            latest || rv.equals("0") ? store.currentRevision() : ResourceStore.parseRevision(rv);
      }
      watch = store.watch(namespace, after, indexed);
    } catch (StorageException e) {
      if (e.kind() != StorageException.Kind.COMPACTED) {
        throw e;
      }
      Status expired =
          ApiErrors.newResourceExpired(
                  "too old resource version: " + rv + " (" + e.revision() + ")")
              .status();
      return ApiResponse.streaming(200, framing.contentType(), out -> framing.error(out, expired));
    }
    long initialRevision = after;
    return ApiResponse.streaming(
        200,
        framing.contentType(),
        out -> {
          try (watch) {
            for (Object object : initial) {
              framing.event(out, EventType.ADDED, object);
            }
            if (initialEventsEnd) {
              framing.bookmark(out, initialRevision, true);
            }
            out.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            long interval = bookmarkInterval.toNanos();
            long nextBookmark =
                bookmarks ? nextBookmark(System.nanoTime(), interval, deadline) : NO_BOOKMARK;
            long delivered = after;
            while (true) {
              long now = System.nanoTime();
              if (now >= deadline) {
                return;
              }
              long wait =
                  Math.min(
                      deadline - now,
                      nextBookmark != NO_BOOKMARK
                          ? Math.max(0, nextBookmark - now)
                          : deadline - now);
              StorageEvent event;
              try {
                event = watch.poll(Math.max(1, wait), TimeUnit.NANOSECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
              }
              if (event == null) {
                if (watch.isDone()) {
                  StorageException reason = watch.error();
                  Status status =
                      ApiErrors.newGone(reason == null ? "the watch ended" : reason.getMessage())
                          .status();
                  framing.error(out, status);
                  return;
                }
                if (nextBookmark != NO_BOOKMARK && System.nanoTime() >= nextBookmark) {
                  long revision = store.currentRevision();
                  StorageEvent pending = watch.poll(0, TimeUnit.NANOSECONDS);
                  if (pending == null) {
                    framing.bookmark(out, revision, false);
                    delivered = revision;
                  } else {
                    delivered = send(out, pending, store, selected, unfiltered, framing);
                  }
                  nextBookmark = nextBookmark(System.nanoTime(), interval, deadline);
                }
                continue;
              }
              delivered = send(out, event, store, selected, unfiltered, framing);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }

  /**
   * When a watch that allows bookmarks gets its next one, as kube's cache watcher schedules them:
   * an interval after now, or 2 s before the watch's deadline when that comes first (so that a
   * client resumes from a recent revision), and none once that time has passed.
   *
   * @param now the time now, in {@link System#nanoTime()} units
   * @param interval the bookmark interval in nanoseconds
   * @param deadline when the watch ends
   * @return the time of the next bookmark, or {@link #NO_BOOKMARK}
   */
  static long nextBookmark(long now, long interval, long deadline) {
    long next = now + interval;
    long preTimeout = deadline - PRE_TIMEOUT_NANOS;
    if (preTimeout - next < 0) {
      next = preTimeout;
    }
    return next - now < 0 ? NO_BOOKMARK : next;
  }

  /**
   * Waits, at most {@link #FRESH_WAIT_MILLIS}, until the storage's revision reaches {@code wanted}
   * (another server on the same etcd may be ahead of this one), as kube's watch cache waits to be
   * fresh.
   *
   * @return the storage's revision when it reached {@code wanted} or the wait ended
   */
  private static long awaitRevision(ResourceStore store, long wanted) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FRESH_WAIT_MILLIS);
    long current = store.currentRevision();
    while (current < wanted && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return current;
      }
      current = store.currentRevision();
    }
    return current;
  }

  private long send(
      OutputStream out,
      StorageEvent event,
      ResourceStore store,
      Predicate<Object> selected,
      boolean unfiltered,
      Framing framing)
      throws IOException {
    // Shared with the watch cache and every other watcher while the cache holds this revision.
    Object current = store.decodeShared(event.kv());
    EventType type;
    if (event.type() == StorageEvent.Type.DELETE) {
      type = selected.test(current) ? EventType.DELETED : null;
    } else {
      boolean now = selected.test(current);
      boolean before =
          event.previous() != null
              && (unfiltered ? now : selected.test(store.decode(event.previous())));
      type =
          now
              ? (before ? EventType.MODIFIED : EventType.ADDED)
              : (before ? EventType.DELETED : null);
    }
    if (type != null) {
      framing.event(out, type, current);
    }
    return event.revision();
  }

  /** How events are written: JSON lines, or length-prefixed protobuf {@code WatchEvent}s. */
  private interface Framing {
    String contentType();

    /**
     * Writes an event of a stored object (shared: never changed), converted to the request's
     * version; its encoding is made once for every watcher while the watch cache holds the object.
     */
    void event(OutputStream out, EventType type, Object stored) throws IOException;

    void error(OutputStream out, Status status) throws IOException;

    /**
     * Writes a bookmark at a revision; {@code initialEventsEnd} marks the one that closes a watch's
     * initial events ({@code k8s.io/initial-events-end: "true"}).
     */
    void bookmark(OutputStream out, long revision, boolean initialEventsEnd) throws IOException;
  }

  /** {@code {"type":...,"object":...}} a line, the object in the negotiated representation. */
  private final class JsonFraming implements Framing {
    private final Served target;
    private final Representation representation;
    private final String includeObject;
    private final UnaryOperator<Object> toServed;
    private final Object key;

    JsonFraming(
        Served target,
        Representation representation,
        String includeObject,
        UnaryOperator<Object> toServed) {
      this.target = target;
      this.representation = representation;
      this.includeObject = includeObject;
      this.toServed = toServed;
      this.key = RequestScope.encodingKey(target, representation, includeObject);
    }

    @Override
    public String contentType() {
      return "application/json";
    }

    @Override
    public void event(OutputStream out, EventType type, Object stored) throws IOException {
      Function<Object, Object> encode =
          object ->
              negotiator.respond(representation, toServed.apply(object), includeObject).body();
      byte[] body =
          (byte[])
              (key != null
                  ? target.store().encodedOnce(stored, key, encode)
                  : encode.apply(stored));
      WatchEncoder.writeJsonFrame(out, type, body);
    }

    @Override
    public void error(OutputStream out, Status status) throws IOException {
      WatchEncoder.writeJsonFrame(out, EventType.ERROR, json.encode(status));
    }

    @Override
    public void bookmark(OutputStream out, long revision, boolean initialEventsEnd)
        throws IOException {
      String text =
          "{\"kind\":\""
              + target.kind().kind()
              + "\",\"apiVersion\":\""
              + target.kind().apiVersion()
              + "\",\"metadata\":{\"resourceVersion\":\""
              + revision
              + "\",\"creationTimestamp\":null"
              + (initialEventsEnd
                  ? ",\"annotations\":{\"" + INITIAL_EVENTS_END + "\":\"true\"}"
                  : "")
              + "}}";
      WatchEncoder.writeJsonFrame(out, EventType.BOOKMARK, text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * Kubernetes' protobuf watch stream: each event a 4-byte big-endian length, then a {@code
   * WatchEvent} message (type 1, object 2 as a {@code RawExtension} whose raw bytes 1 are the
   * object in the {@code k8s\0} envelope).
   */
  private final class ProtobufFraming implements Framing {
    private final Served target;
    private final UnaryOperator<Object> toServed;
    private final Object key;

    ProtobufFraming(Served target, UnaryOperator<Object> toServed) {
      this.target = target;
      this.toServed = toServed;
      this.key = RequestScope.converts(target) ? null : List.of("protobuf", target.kind());
    }

    @Override
    public String contentType() {
      return PROTOBUF_STREAM;
    }

    @Override
    public void event(OutputStream out, EventType type, Object stored) throws IOException {
      Function<Object, Object> encode = object -> protobuf.encode(toServed.apply(object));
      byte[] body =
          (byte[])
              (key != null
                  ? target.store().encodedOnce(stored, key, encode)
                  : encode.apply(stored));
      WatchEncoder.writeProtobufFrame(out, type, body);
    }

    @Override
    public void error(OutputStream out, Status status) throws IOException {
      WatchEncoder.writeProtobufFrame(out, EventType.ERROR, protobuf.encode(status));
    }

    @Override
    public void bookmark(OutputStream out, long revision, boolean initialEventsEnd)
        throws IOException {
      Object object = scheme.newObject(target.kind());
      Accessor.of(object).setResourceVersion(Long.toString(revision));
      if (initialEventsEnd) {
        Accessor.of(object).setAnnotations(Map.of(INITIAL_EVENTS_END, "true"));
      }
      WatchEncoder.writeProtobufFrame(out, EventType.BOOKMARK, protobuf.encode(object));
    }
  }
}
