package dev.machinery.apiserver.negotiation;

import dev.machinery.unversioned.meta.v1.Status;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of negotiating an Accept header: a chosen {@link Representation}, or "nothing
 * acceptable", which the server answers with {@code 406} and {@link #status()}. Immutable.
 *
 * @param representation the chosen representation, or {@code null} when nothing is acceptable
 * @param dropped why each range the header named was left out (malformed, unknown, unsupported, or
 *     excluded by {@code q=0})
 * @param status the {@code 406} Status when nothing is acceptable, or {@code null}
 */
public record Negotiation(Representation representation, List<String> dropped, Status status) {
  /**
   * The most reasons {@link #dropped()} gives one by one: 16. A header that drops more ranges (a
   * long header is read to its end) ends the list with one line that counts the rest.
   */
  public static final int MAX_REASONS = 16;

  /**
   * Copies the reasons.
   *
   * @param representation see the record description
   * @param dropped see the record description
   * @param status see the record description
   */
  public Negotiation {
    dropped = List.copyOf(Objects.requireNonNull(dropped, "dropped"));
  }

  /**
   * Returns whether a representation was chosen.
   *
   * @return false when the server must answer {@code 406}
   */
  public boolean acceptable() {
    return representation != null;
  }
}
