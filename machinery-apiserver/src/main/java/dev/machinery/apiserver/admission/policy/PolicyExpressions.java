package dev.machinery.apiserver.admission.policy;

import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Authorizer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The expression language of ValidatingAdmissionPolicies (CEL in kube-apiserver): compiles an
 * expression against the variables a policy declares and evaluates it on one write. The server
 * holds no implementation; {@code machinery-cel}'s {@code CelPolicyExpressions} is one, found with
 * {@link #installed()}. {@link #unsupported()} refuses every expression, so that a policy whose
 * expressions cannot be evaluated follows its {@code failurePolicy} rather than being ignored.
 *
 * <p>Implementations are immutable and thread-safe, and so are the expressions they compile.
 */
public interface PolicyExpressions {
  /** kube-apiserver's limit of the runtime cost of one expression ({@code PerCallLimit}). */
  long PER_CALL_LIMIT = 1_000_000L;

  /**
   * kube-apiserver's runtime cost budget of one policy on one write ({@code RuntimeCELCostBudget}).
   */
  long RUNTIME_COST_BUDGET = 10_000_000L;

  /** The type an expression must have. */
  enum ResultType {
    /** {@code bool}: validations and match conditions. */
    BOOL,
    /** {@code string}: message expressions. */
    STRING,
    /** {@code string} or {@code null}: audit annotations' value expressions. */
    STRING_OR_NULL,
    /** any type: variables. */
    ANY
  }

  /**
   * What an expression may refer to besides {@code object}, {@code oldObject}, {@code request} and
   * {@code namespaceObject}, which every expression may. Immutable.
   *
   * @param params whether {@code params} is declared (the policy has a {@code paramKind})
   * @param authorizer whether {@code authorizer} and {@code authorizer.requestResource} are
   *     declared (not in message expressions and audit annotations, as in kube-apiserver)
   * @param variables the names of the policy's variables declared before this expression
   */
  record Declarations(boolean params, boolean authorizer, List<String> variables) {
    /**
     * Copies the list.
     *
     * @param params see the record description
     * @param authorizer see the record description
     * @param variables see the record description
     */
    public Declarations {
      variables = List.copyOf(variables);
    }
  }

  /**
   * The values of one evaluation. Objects are JSON trees: maps, lists, strings, numbers, booleans
   * and {@code null}. Immutable apart from the objects it refers to, which evaluations only read;
   * used by one write's evaluation.
   *
   * @param object the new object, or {@code null} on delete
   * @param oldObject the stored object, or {@code null} on create
   * @param request the AdmissionRequest, as kube-apiserver builds it
   * @param params the parameter object, or {@code null}
   * @param namespaceObject the namespace of the object, or {@code null} for a cluster-scoped one
   * @param variables the policy's variables by name, each evaluated when read ({@code get}; a
   *     failure is an {@link EvaluationException}): values of the implementation's own evaluations,
   *     {@code null} for CEL's null
   * @param authorizer the server's authorizer, for the {@code authorizer} variable
   * @param user who writes, the user the {@code authorizer} variable checks
   * @param requestResource the group, version, resource, subresource, namespace and name of the
   *     write, for {@code authorizer.requestResource}
   */
  record Activation(
      Map<String, Object> object,
      Map<String, Object> oldObject,
      Map<String, Object> request,
      Map<String, Object> params,
      Map<String, Object> namespaceObject,
      Map<String, Object> variables,
      Authorizer authorizer,
      UserInfo user,
      List<String> requestResource) {
    /**
     * Checks the parts that must be present.
     *
     * @param object see the record description
     * @param oldObject see the record description
     * @param request see the record description
     * @param params see the record description
     * @param namespaceObject see the record description
     * @param variables see the record description
     * @param authorizer see the record description
     * @param user see the record description
     * @param requestResource see the record description
     */
    public Activation {
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(variables, "variables");
      Objects.requireNonNull(authorizer, "authorizer");
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(requestResource, "requestResource");
    }
  }

  /**
   * The runtime cost left to one policy's evaluation on one write. Not thread-safe: one write's
   * evaluation uses it.
   */
  final class Budget {
    private long remaining;

    /**
     * A budget.
     *
     * @param remaining the cost that may be spent
     */
    public Budget(long remaining) {
      this.remaining = remaining;
    }

    /**
     * Returns what is left.
     *
     * @return the remaining cost, negative once exhausted
     */
    public long remaining() {
      return remaining;
    }

    /**
     * Spends cost.
     *
     * @param cost what an evaluation cost
     */
    public void spend(long cost) {
      remaining -= cost;
    }
  }

  /** An evaluation failed. Immutable. */
  final class EvaluationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether the budget or the per-call limit was exhausted (no further expression runs). */
    private final boolean outOfBudget;

    /**
     * Creates the failure.
     *
     * @param message the error as kube-apiserver words it, such as {@code no such key: x}
     * @param outOfBudget whether the cost limit stopped it
     */
    public EvaluationException(String message, boolean outOfBudget) {
      super(message, null, false, false);
      this.outOfBudget = outOfBudget;
    }

    /**
     * Whether the cost limit stopped the evaluation.
     *
     * @return true when out of budget
     */
    public boolean outOfBudget() {
      return outOfBudget;
    }
  }

  /** A compiled expression. Immutable and thread-safe. */
  interface Expression {
    /**
     * The expression's source, as written in the policy.
     *
     * @return the source
     */
    String source();

    /**
     * The compilation error, as kube-apiserver words it ({@code compilation failed: ERROR:
     * <input>:1:1: ...}), or empty when the expression compiled.
     *
     * @return the error
     */
    Optional<String> error();

    /**
     * Evaluates the expression.
     *
     * @param activation the values
     * @param budget the budget, spent by the evaluation's cost
     * @return the value: a {@link Boolean} for {@link ResultType#BOOL}, a {@link String} or {@code
     *     null} for the string types
     * @throws EvaluationException when the evaluation fails or passes the cost limit
     * @throws IllegalStateException when the expression did not compile
     */
    Object evaluate(Activation activation, Budget budget);
  }

  /**
   * Compiles an expression.
   *
   * @param expression the source
   * @param type the type it must have
   * @param declarations what it may refer to
   * @return the expression, with its compilation error if any
   */
  Expression compile(String expression, ResultType type, Declarations declarations);

  /**
   * A policy's variable, as the type checker compiles it. Immutable.
   *
   * @param name the variable's name
   * @param expression its expression
   */
  record Variable(String name, String expression) {
    /**
     * Checks the parts.
     *
     * @param name see the record description
     * @param expression see the record description
     */
    public Variable {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(expression, "expression");
    }
  }

  /**
   * What expressions are type checked against for one kind, as kube-apiserver's type checker
   * declares it: {@code object} and {@code oldObject} typed by the kind's schema, {@code params} by
   * the parameter kind's schema ({@code dyn} when it is not known), {@code request} and {@code
   * namespaceObject} as kube-apiserver types them, {@code authorizer}, and {@code variables} with
   * the policy's variables, each typed by what its expression compiles to ({@code dyn} when it does
   * not). Immutable.
   *
   * @param object the structural schema of the kind's objects, or {@code null} for {@code dyn}
   * @param params whether {@code params} is declared (the policy has a {@code paramKind})
   * @param paramsSchema the schema of the parameter kind, or {@code null} for {@code dyn}
   * @param variables the policy's variables, in order
   */
  record TypeCheckTypes(
      JSONSchemaProps object,
      boolean params,
      JSONSchemaProps paramsSchema,
      List<Variable> variables) {
    /**
     * Copies the list.
     *
     * @param object see the record description
     * @param params see the record description
     * @param paramsSchema see the record description
     * @param variables see the record description
     */
    public TypeCheckTypes {
      variables = List.copyOf(variables);
    }
  }

  /** Type checks expressions against one kind's types. Immutable and thread-safe. */
  interface TypeChecker {
    /**
     * Type checks an expression; the type of its result is not checked, as in kube-apiserver.
     *
     * @param expression the source
     * @return the compiler's issues, as it prints them ({@code ERROR: <input>:1:13: undefined field
     *     'replicaz'} and the line marked), or empty when the expression type checks
     */
    Optional<String> check(String expression);
  }

  /**
   * Makes a type checker for one kind's types. Type checking only reports: an expression that does
   * not type check is still compiled by {@link #compile} and evaluated as before.
   *
   * @param types the types
   * @return the checker
   */
  TypeChecker typeChecker(TypeCheckTypes types);

  /**
   * The implementation on the class path or module path, found with {@link ServiceLoader} ({@code
   * machinery-cel} provides one).
   *
   * @return the first implementation found, or empty when there is none
   */
  static Optional<PolicyExpressions> installed() {
    return ServiceLoader.load(PolicyExpressions.class, PolicyExpressions.class.getClassLoader())
        .findFirst();
  }

  /**
   * The expressions of a server built without an implementation: every expression has the
   * compilation error {@code compilation failed: no expression language is installed}, so a policy
   * fails closed (or is ignored under {@code failurePolicy: Ignore}); its type checker reports
   * nothing.
   *
   * @return expressions that never compile
   */
  static PolicyExpressions unsupported() {
    return new PolicyExpressions() {
      @Override
      public Expression compile(String expression, ResultType type, Declarations declarations) {
        return new Expression() {
          @Override
          public String source() {
            return expression;
          }

          @Override
          public Optional<String> error() {
            return Optional.of(
                "compilation failed: no expression language is installed (add machinery-cel)");
          }

          @Override
          public Object evaluate(Activation activation, Budget budget) {
            throw new IllegalStateException(error().orElseThrow());
          }
        };
      }

      /** Without a language nothing is type checked: every expression already fails to compile. */
      @Override
      public TypeChecker typeChecker(TypeCheckTypes types) {
        return expression -> Optional.empty();
      }
    };
  }
}
