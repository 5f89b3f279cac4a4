package dev.machinery.apiserver.negotiation;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A response body ready to send: HTTP status, Content-Type and bytes. Immutable apart from the
 * array, which belongs to the caller.
 *
 * @param status the HTTP status code
 * @param contentType the Content-Type header value
 * @param body the body
 */
public record Response(int status, String contentType, byte[] body) {
  /**
   * Checks for nulls.
   *
   * @param status see the record description
   * @param contentType see the record description
   * @param body see the record description
   */
  public Response {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
  }

  /**
   * Returns the body as UTF-8 text.
   *
   * @return the text
   */
  public String text() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
