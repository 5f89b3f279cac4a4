package dev.machinery.apiserver.admission.webhook;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The CEL expressions of admission webhooks' {@code matchConditions}, as kube-apiserver evaluates
 * them before calling a webhook: each has a name and an expression of type bool over the variables
 * {@code object}, {@code oldObject} (maps, or {@code null}) and {@code request} (the review's
 * {@code request}, without its objects). A webhook is called only when every condition is true; a
 * false one skips it; an error (none false) is a failure of the call, under the webhook's {@code
 * failurePolicy}.
 *
 * <p>The server holds no CEL implementation of its own: the one found with {@link #installed()}
 * (such as {@code machinery-cel}'s) is used; without one, a webhook that has conditions fails to be
 * called, under its {@code failurePolicy}, rather than being called when it should not be.
 *
 * <p>Implementations are immutable and thread-safe, and so are the conditions they compile.
 */
public interface MatchConditions {
  /**
   * Compiles a webhook's conditions.
   *
   * @param conditions the conditions, in order, as name and expression
   * @return the compiled conditions
   * @throws IllegalArgumentException naming the first condition that does not compile to a bool
   */
  Compiled compile(List<Condition> conditions);

  /**
   * One condition of a webhook. Immutable.
   *
   * @param name its name
   * @param expression its CEL expression
   */
  record Condition(String name, String expression) {}

  /** A webhook's compiled conditions. Immutable and thread-safe. */
  interface Compiled {
    /**
     * Evaluates the conditions in order.
     *
     * @param variables {@code object}, {@code oldObject} and {@code request}, as maps, lists and
     *     scalars
     * @return the name of the first condition that is false, or empty when all are true
     * @throws IllegalArgumentException when a condition cannot be evaluated and none is false
     */
    Optional<String> firstFalse(Map<String, Object> variables);
  }

  /**
   * The implementation on the class path or module path, found with {@link ServiceLoader}.
   *
   * @return the first implementation found, or empty when there is none
   */
  static Optional<MatchConditions> installed() {
    return ServiceLoader.load(MatchConditions.class, MatchConditions.class.getClassLoader())
        .findFirst();
  }
}
