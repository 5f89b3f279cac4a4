package dev.machinery.unversioned.watch;

import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.negotiation.AcceptHeader;
import dev.machinery.unversioned.negotiation.MediaType;

/**
 * Chooses the framing of a watch response from the request's Accept header, as kube-apiserver does
 * for {@code ?watch=true}: JSON frames, offered as {@code application/json;stream=watch} and
 * matched by {@code application/json}, {@code application/json;stream=watch}, {@code application/*}
 * or {@code *}{@code /*} (a missing header accepts anything). The response's Content-Type is {@code
 * application/json}, as kube-apiserver writes it for JSON watches.
 *
 * <p>Stateless and safe to use from any thread.
 */
public final class WatchNegotiation {
  /** The media type a watch is offered as. */
  public static final String STREAM_MEDIA_TYPE = "application/json;stream=watch";

  /** The Content-Type of a JSON watch response. */
  public static final String CONTENT_TYPE = "application/json";

  private static final MediaType OFFERED = MediaType.parse(STREAM_MEDIA_TYPE);

  private WatchNegotiation() {}

  /**
   * Checks that the client accepts JSON watch frames.
   *
   * @param accept the Accept header, or null when absent
   * @return the Content-Type to answer with
   * @throws dev.machinery.unversioned.errors.StatusException {@code NotAcceptable} (406) when
   *     nothing the client accepts is offered
   */
  public static String negotiate(String accept) {
    if (accept == null || accept.isBlank()) {
      return CONTENT_TYPE;
    }
    for (MediaType range : AcceptHeader.parse(accept).ranges()) {
      if (range.quality() > 0 && range.matches(OFFERED)) {
        return CONTENT_TYPE;
      }
    }
    throw ApiErrors.newNotAcceptable(
        "only the following media types are accepted: " + STREAM_MEDIA_TYPE);
  }
}
