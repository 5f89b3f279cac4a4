package dev.machinery.apiserver.authorization;

import java.util.Objects;

/**
 * An {@link Authorizer}'s answer: its {@link Decision} and, for people, why. Immutable.
 *
 * @param decision the decision
 * @param reason why, or {@code ""}; kube-apiserver appends it to a 403's message
 */
public record Authorization(Decision decision, String reason) {
  /**
   * Checks the parts.
   *
   * @param decision see the record description
   * @param reason see the record description
   */
  public Authorization {
    Objects.requireNonNull(decision, "decision");
    reason = Objects.requireNonNullElse(reason, "");
  }

  /**
   * Allowed.
   *
   * @param reason why, or {@code ""}
   * @return the answer
   */
  public static Authorization allow(String reason) {
    return new Authorization(Decision.ALLOW, reason);
  }

  /**
   * Refused.
   *
   * @param reason why, or {@code ""}
   * @return the answer
   */
  public static Authorization deny(String reason) {
    return new Authorization(Decision.DENY, reason);
  }

  /**
   * No opinion.
   *
   * @param reason why, or {@code ""}
   * @return the answer
   */
  public static Authorization noOpinion(String reason) {
    return new Authorization(Decision.NO_OPINION, reason);
  }

  /**
   * Returns whether the request is allowed.
   *
   * @return {@code true} for {@link Decision#ALLOW}
   */
  public boolean allowed() {
    return decision == Decision.ALLOW;
  }
}
