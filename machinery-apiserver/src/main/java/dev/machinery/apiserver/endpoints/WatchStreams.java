package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.core.codec.Codec;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.negotiation.Negotiation;
import dev.machinery.unversioned.negotiation.Negotiator;
import dev.machinery.unversioned.negotiation.Representation;
import dev.machinery.unversioned.negotiation.Response;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Watch responses: a streamed HTTP body of JSON frames ({@code {"type":...,"object":...}}, one a
 * line), as kube-apiserver writes {@code ?watch=true}. Starts with synthetic {@code ADDED} events
 * for the current objects when no resourceVersion (or {@code 0}) is given, else from the change
 * after it ({@code 410 Expired} as an {@code ERROR} event when it is compacted); filters by
 * selectors (an object that stops matching is {@code DELETED}, one that starts is {@code ADDED});
 * sends {@code BOOKMARK} events when asked; ends after {@code timeoutSeconds}.
 *
 * <p>Thread-safe: immutable; each stream runs on the thread that writes it.
 */
public final class WatchStreams {
  private static final long DEFAULT_TIMEOUT_SECONDS = 1800;

  private final Negotiator negotiator;
  private final Codec json;
  private final Duration bookmarkInterval;

  /**
   * Creates the watch streams.
   *
   * @param negotiator renders each event's object
   * @param json encodes Status objects of error events
   * @param bookmarkInterval how often a watcher that asked for bookmarks gets one
   */
  public WatchStreams(Negotiator negotiator, Codec json, Duration bookmarkInterval) {
    this.negotiator = negotiator;
    this.json = json;
    this.bookmarkInterval = bookmarkInterval;
  }

  /**
   * Starts a watch response.
   *
   * @param request the request
   * @param target the resource
   * @param namespace the namespace, or {@code null}
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
      Predicate<Object> filter,
      Negotiation negotiation,
      UnaryOperator<Object> toServed,
      Predicate<String> name) {
    if (!negotiation.acceptable()) {
      Response refused = negotiator.notAcceptableResponse(negotiation);
      return ApiResponse.of(refused.status(), refused.contentType(), refused.body());
    }
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
    long timeoutSeconds = timeout(request.parameter("timeoutSeconds"));
    boolean bookmarks = "true".equals(request.parameter("allowWatchBookmarks"));
    String rv = request.parameter("resourceVersion");
    ResourceStore store = target.store();
    String includeObject = request.parameter("includeObject");
    Predicate<Object> selected =
        object -> name.test(Accessor.of(object).getName()) && filter.test(object);
    List<Object> initial;
    long after;
    StorageWatch watch;
    try {
      if (rv == null || rv.isEmpty() || rv.equals("0")) {
        ResourceStore.Page page = store.list(namespace, selected, 0, null, null);
        initial = page.items();
        after = page.revision();
      } else {
        initial = List.of();
        after = ResourceStore.parseRevision(rv);
      }
      watch = store.watch(namespace, after);
    } catch (StorageException e) {
      if (e.kind() != StorageException.Kind.COMPACTED) {
        throw e;
      }
      Status expired =
          ApiErrors.newResourceExpired(
                  "too old resource version: " + rv + " (" + e.revision() + ")")
              .status();
      return ApiResponse.streaming(
          200, "application/json", out -> frame(out, "ERROR", json.encode(expired)));
    }
    String contentType = "application/json";
    return ApiResponse.streaming(
        200,
        contentType,
        out -> {
          try (watch) {
            for (Object object : initial) {
              frame(out, "ADDED", render(compact, toServed.apply(object), includeObject));
            }
            out.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            long nextBookmark = System.nanoTime() + bookmarkInterval.toNanos();
            long delivered = after;
            while (true) {
              long now = System.nanoTime();
              if (now >= deadline) {
                return;
              }
              long wait =
                  Math.min(
                      deadline - now, bookmarks ? Math.max(0, nextBookmark - now) : deadline - now);
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
                  frame(out, "ERROR", json.encode(status));
                  return;
                }
                if (bookmarks && System.nanoTime() >= nextBookmark) {
                  long revision = store.currentRevision();
                  StorageEvent pending = watch.poll(0, TimeUnit.NANOSECONDS);
                  if (pending == null) {
                    frame(out, "BOOKMARK", bookmark(target, revision));
                    delivered = revision;
                  } else {
                    delivered =
                        send(
                            out,
                            pending,
                            store,
                            selected,
                            toServed,
                            compact,
                            includeObject,
                            delivered);
                  }
                  nextBookmark = System.nanoTime() + bookmarkInterval.toNanos();
                }
                continue;
              }
              delivered =
                  send(out, event, store, selected, toServed, compact, includeObject, delivered);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }

  private long send(
      OutputStream out,
      StorageEvent event,
      ResourceStore store,
      Predicate<Object> selected,
      UnaryOperator<Object> toServed,
      Representation representation,
      String includeObject,
      long delivered)
      throws IOException {
    Object current = store.decode(event.kv());
    String type;
    if (event.type() == StorageEvent.Type.DELETE) {
      type = selected.test(current) ? "DELETED" : null;
    } else {
      boolean now = selected.test(current);
      boolean before = event.previous() != null && selected.test(store.decode(event.previous()));
      type = now ? (before ? "MODIFIED" : "ADDED") : (before ? "DELETED" : null);
    }
    if (type != null) {
      frame(out, type, render(representation, toServed.apply(current), includeObject));
    }
    return event.revision();
  }

  private byte[] render(Representation representation, Object object, String includeObject) {
    return negotiator.respond(representation, object, includeObject).body();
  }

  private static byte[] bookmark(Served target, long revision) {
    String text =
        "{\"kind\":\""
            + target.kind().kind()
            + "\",\"apiVersion\":\""
            + target.kind().apiVersion()
            + "\",\"metadata\":{\"resourceVersion\":\""
            + revision
            + "\",\"creationTimestamp\":null}}";
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static void frame(OutputStream out, String type, byte[] object) throws IOException {
    out.write(("{\"type\":\"" + type + "\",\"object\":").getBytes(StandardCharsets.US_ASCII));
    out.write(object);
    out.write("}\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static long timeout(String text) {
    if (text == null || text.isEmpty()) {
      return DEFAULT_TIMEOUT_SECONDS;
    }
    try {
      long value = Long.parseLong(text);
      return value <= 0 ? DEFAULT_TIMEOUT_SECONDS : value;
    } catch (NumberFormatException e) {
      throw ApiErrors.newBadRequest(
          "timeoutSeconds: Invalid value: \"" + text + "\": must be an integer");
    }
  }
}
