package dev.machinery.testing;

import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Objects;

/**
 * A kind that does not survive its round trip: the seed that shows it, the route that loses data,
 * and the differences of the smallest failing object found. Immutable apart from the objects it
 * holds.
 *
 * @param kind the kind fuzzed
 * @param seed the seed; {@code -Dmachinery.seed=N} replays it alone
 * @param route the route, such as {@code example.dev/__internal → example.dev/v6 → JSON →
 *     example.dev/__internal}
 * @param differences the differences after shrinking (empty when the route failed with an error)
 * @param error the error the route raised, or {@code null}
 * @param shrunk the smallest object found that still fails
 */
public record RoundTripFailure(
    GroupVersionKind kind,
    long seed,
    String route,
    List<Difference> differences,
    String error,
    Object shrunk) {
  /**
   * Checks for nulls and copies the differences.
   *
   * @param kind see the record description
   * @param seed see the record description
   * @param route see the record description
   * @param differences see the record description
   * @param error see the record description
   * @param shrunk see the record description
   */
  public RoundTripFailure {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(route, "route");
    differences = List.copyOf(differences);
  }

  /**
   * Returns the report: kind, seed, how to replay, route, and the differences or the error.
   *
   * @return the report
   */
  public String report() {
    return "round trip of \""
        + kind
        + "\" loses data (seed "
        + seed
        + "; replay with -Dmachinery.seed="
        + seed
        + ")\n  route: "
        + route
        + (error != null
            ? "\n  error: " + error
            : "\n  differences (expected → actual), in the smallest failing object:"
                + SemanticEquality.describe(differences).replace("\n  ", "\n    "));
  }
}
