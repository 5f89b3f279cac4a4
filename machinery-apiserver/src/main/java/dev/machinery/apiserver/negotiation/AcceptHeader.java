package dev.machinery.apiserver.negotiation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An Accept header split into media ranges, RFC 7231 §5.3.2. Ranges that are malformed are kept
 * apart with the reason, so that negotiation can go on with the others (the server should omit
 * representations that are unrecognised or in error); a header that is too long or has too many
 * ranges is refused outright. Immutable.
 *
 * @param ranges the well-formed ranges, in header order
 * @param rejected the malformed ranges, each with why
 */
public record AcceptHeader(List<MediaType> ranges, List<String> rejected) {
  /** The longest header read: 8 KiB. */
  public static final int MAX_LENGTH = 8192;

  /** The most ranges read: 64. */
  public static final int MAX_RANGES = 64;

  /**
   * Copies the lists.
   *
   * @param ranges see the record description
   * @param rejected see the record description
   */
  public AcceptHeader {
    ranges = List.copyOf(ranges);
    rejected = List.copyOf(rejected);
  }

  /**
   * Parses a header; a missing or blank one means {@code *}/{@code *}.
   *
   * @param header the header value, or {@code null}
   * @return the ranges
   * @throws MalformedMediaTypeException if the header is longer than {@link #MAX_LENGTH} or has
   *     more than {@link #MAX_RANGES} ranges
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
    List<String> parts = split(header);
    if (parts.size() > MAX_RANGES) {
      throw new MalformedMediaTypeException(
          header.substring(0, Math.min(200, header.length())),
          "the Accept header has "
              + parts.size()
              + " media ranges; at most "
              + MAX_RANGES
              + " are read");
    }
    List<MediaType> ranges = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    for (String part : parts) {
      if (part.isBlank()) {
        continue;
      }
      try {
        ranges.add(MediaType.parse(part.strip()));
      } catch (MalformedMediaTypeException e) {
        rejected.add(e.getMessage());
      }
    }
    return new AcceptHeader(ranges, rejected);
  }

  /** Splits on commas outside quoted strings. */
  private static List<String> split(String header) {
    List<String> parts = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < header.length(); i++) {
      char c = header.charAt(i);
      if (quoted && c == '\\' && i + 1 < header.length()) {
        current.append(c).append(header.charAt(++i));
        continue;
      }
      if (c == '"') {
        quoted = !quoted;
      }
      if (c == ',' && !quoted) {
        parts.add(current.toString());
        current.setLength(0);
        if (parts.size() > MAX_RANGES) {
          break;
        }
      } else {
        current.append(c);
      }
    }
    parts.add(current.toString());
    return parts;
  }

  @Override
  public String toString() {
    return Objects.toString(ranges);
  }
}
