package dev.machinery.apiserver.admission.webhook;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Authorizer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The CEL expressions of admission webhooks' {@code matchConditions}, as kube-apiserver evaluates
 * them before calling a webhook: each has a name and an expression of type bool over the variables
 * {@code object}, {@code oldObject} (maps, or {@code null}), {@code request} (the review's {@code
 * request}, without its objects) and {@code authorizer} (checks as the requesting user, with {@code
 * authorizer.requestResource} for the request's own resource; an {@link Authorization}). A webhook
 * is called only when every condition is true; a false one skips it; an error (none false) is a
 * failure of the call, under the webhook's {@code failurePolicy}.
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

  /**
   * The value of the {@code authorizer} variable: the server's authorizer, the user the request is
   * made as, and the request's resource. Immutable.
   *
   * @param authorizer the server's authorizer
   * @param user the user the request is made as
   * @param requestResource the request's API group, version, resource, subresource, namespace and
   *     name, in that order ({@code ""} for a part it has not)
   */
  record Authorization(Authorizer authorizer, UserInfo user, List<String> requestResource) {
    /**
     * Checks and copies the parts.
     *
     * @param authorizer see the record description
     * @param user see the record description
     * @param requestResource see the record description
     * @throws IllegalArgumentException when the resource has not six parts
     */
    public Authorization {
      Objects.requireNonNull(authorizer, "authorizer");
      Objects.requireNonNull(user, "user");
      requestResource = List.copyOf(requestResource);
      if (requestResource.size() != 6) {
        throw new IllegalArgumentException(
            "requestResource must hold group, version, resource, subresource, namespace and"
                + " name, got "
                + requestResource);
      }
    }
  }

  /** A webhook's compiled conditions. Immutable and thread-safe. */
  interface Compiled {
    /**
     * Evaluates the conditions in order, for a request whose {@code authorizer} checks with an
     * authorizer.
     *
     * @param variables {@code object}, {@code oldObject} and {@code request}, as maps, lists and
     *     scalars
     * @param authorizer what {@code authorizer} checks with, or {@code null}: a condition reading
     *     it then fails to evaluate
     * @return the name of the first condition that is false, or empty when all are true
     * @throws IllegalArgumentException when a condition cannot be evaluated and none is false
     */
    Optional<String> firstFalse(Map<String, Object> variables, Authorization authorizer);

    /**
     * Evaluates the conditions in order, without an authorizer.
     *
     * @param variables {@code object}, {@code oldObject} and {@code request}
     * @return the name of the first condition that is false, or empty when all are true
     * @throws IllegalArgumentException when a condition cannot be evaluated and none is false
     */
    default Optional<String> firstFalse(Map<String, Object> variables) {
      return firstFalse(variables, null);
    }
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
