package dev.machinery.apiserver.negotiation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An Accept header split into media ranges, RFC 7231 §5.3.2. Every range is read, in one pass over
 * the header; a range that is malformed is left out with the reason, so that negotiation goes on
 * with the others (the server should omit representations that are unrecognised or in error). A
 * parameter without {@code =} ({@code application/json;foo}) is ignored, as Kubernetes' negotiator
 * ignores it. Only a header longer than {@link #MAX_LENGTH} is refused as a whole. Immutable.
 *
 * @param ranges the well-formed ranges, in header order
 * @param rejected why the first {@link Negotiation#MAX_REASONS} malformed ranges were left out
 * @param malformed how many ranges were malformed, those beyond {@code rejected} included
 */
public record AcceptHeader(List<MediaType> ranges, List<String> rejected, int malformed) {
  /**
   * The longest header read: 1 MiB, the request header limit of Go's HTTP server, which
   * kube-apiserver keeps. The JDK's HTTP server refuses a request whose headers together exceed 380
   * KiB before this is reached.
   */
  public static final int MAX_LENGTH = 1 << 20;

  /**
   * Copies the lists.
   *
   * @param ranges see the record description
   * @param rejected see the record description
   * @param malformed see the record description
   * @throws IllegalArgumentException if {@code malformed} is less than the reasons given
   */
  public AcceptHeader {
    ranges = List.copyOf(ranges);
    rejected = List.copyOf(rejected);
    if (malformed < rejected.size()) {
      throw new IllegalArgumentException(
          "malformed counts "
              + malformed
              + " ranges, fewer than the "
              + rejected.size()
              + " given");
    }
  }

  /**
   * A header whose malformed ranges are all given with their reasons.
   *
   * @param ranges the well-formed ranges, in header order
   * @param rejected why each malformed range was left out
   */
  public AcceptHeader(List<MediaType> ranges, List<String> rejected) {
    this(ranges, rejected, rejected.size());
  }

  /**
   * Parses a header; a missing or blank one means {@code *}/{@code *}. The work is linear in the
   * header's length.
   *
   * @param header the header value, or {@code null}
   * @return the ranges
   * @throws MalformedMediaTypeException if the header is longer than {@link #MAX_LENGTH}
   */
  public static AcceptHeader parse(String header) {
    if (header == null || header.isBlank()) {
      return new AcceptHeader(List.of(MediaType.of("*", "*")), List.of());
    }
    if (header.length() > MAX_LENGTH) {
      throw new MalformedMediaTypeException(
          header.substring(0, 200),
          "the Accept header is "
              + header.length()
              + " characters long; at most "
              + MAX_LENGTH
              + " are read");
    }
    List<MediaType> ranges = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    int malformed = 0;
    for (String part : split(header)) {
      if (part.isBlank()) {
        continue;
      }
      try {
        ranges.add(MediaType.parseRange(part.strip()));
      } catch (MediaType.MalformedRange e) {
        if (malformed++ < Negotiation.MAX_REASONS) {
          rejected.add(e.getMessage());
        }
      }
    }
    return new AcceptHeader(ranges, rejected, malformed);
  }

  /**
   * Splits on commas outside quoted strings. A quote still open at the end of the header splits its
   * range on every comma instead, so that one stray quote costs only its own range.
   */
  private static List<String> split(String header) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    boolean quoted = false;
    for (int i = 0; i < header.length(); i++) {
      char c = header.charAt(i);
      if (quoted && c == '\\') {
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        parts.add(header.substring(start, i));
        start = i + 1;
      }
    }
    if (!quoted) {
      parts.add(header.substring(start));
      return parts;
    }
    for (int comma = header.indexOf(',', start); comma >= 0; comma = header.indexOf(',', start)) {
      parts.add(header.substring(start, comma));
      start = comma + 1;
    }
    parts.add(header.substring(start));
    return parts;
  }

  @Override
  public String toString() {
    return Objects.toString(ranges);
  }
}
