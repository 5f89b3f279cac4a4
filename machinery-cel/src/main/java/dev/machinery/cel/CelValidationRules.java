package dev.machinery.cel;

import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * CustomResourceDefinitions' CEL validation rules ({@code x-kubernetes-validations}) on Google's
 * CEL for Java, as kube-apiserver enforces them: handed to {@code
 * ApiServer.Builder.customResourceDefinitions(ValidationRules)}, it refuses a definition whose
 * rules do not compile (422, at {@code ...x-kubernetes-validations[i].rule}), and evaluates each
 * version's rules on every write of its objects, with {@code self} bound to the value at the rule's
 * node, {@code oldSelf} to its old value on updates, the rule's {@code message}, {@code
 * messageExpression}, {@code reason} and {@code fieldPath}, and Kubernetes' library (CEL's standard
 * functions and macros, the strings extension, optional values, Kubernetes' list, regex, URL,
 * quantity, IP, CIDR and format libraries, and its semver library as {@link
 * #withSemverInNewRules()} says).
 *
 * <p>Evaluation is bounded: each rule within {@link #PER_CALL_LIMIT} units of runtime cost, and all
 * the rules of one object within {@link #RUNTIME_COST_BUDGET}, kube-apiserver's limits; a rule that
 * passes either stops validation with kube-apiserver's error. The runtime cost is counted as
 * expressions evaluated (see {@code docs/customresources.md}), not with cel-go's cost model.
 *
 * <p>When a definition is written, each rule's cost is also estimated as kube-apiserver estimates
 * it (cel-go's static estimator, with Kubernetes' sizes from {@code maxLength}, {@code maxItems}
 * and {@code maxProperties} or, without them, from the 3 MiB request limit), times the number of
 * values it may run on in one object: a rule or message expression over {@link
 * #STATIC_ESTIMATED_COST_LIMIT} is refused at its path, and a schema whose rules cost more than
 * {@link #STATIC_ESTIMATED_CRD_COST_LIMIT} in all at {@code openAPIV3Schema}, with kube-apiserver's
 * messages ({@code estimated rule cost exceeds budget by factor of 2.5x (try simplifying the rule,
 * ...)}).
 *
 * <p>Immutable and thread-safe; the validators it returns are too.
 */
public final class CelValidationRules implements ValidationRules {
  /** kube-apiserver's runtime cost limit of one rule's evaluation ({@code PerCallLimit}). */
  public static final long PER_CALL_LIMIT = 1_000_000;

  /**
   * kube-apiserver's runtime cost budget of all the rules of one object ({@code
   * RuntimeCELCostBudget}).
   */
  public static final long RUNTIME_COST_BUDGET = 10_000_000;

  /**
   * kube-apiserver's limit of one rule's or message expression's estimated cost, times the number
   * of values it may be evaluated on in one object ({@code StaticEstimatedCostLimit}).
   */
  public static final long STATIC_ESTIMATED_COST_LIMIT = 10_000_000;

  /**
   * kube-apiserver's limit of the estimated cost of all the rules of a version's schema ({@code
   * StaticEstimatedCRDCostLimit}).
   */
  public static final long STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

  private final long perCallLimit;
  private final long budget;
  private final boolean semverInNewRules;

  private CelValidationRules(long perCallLimit, long budget, boolean semverInNewRules) {
    this.perCallLimit = perCallLimit;
    this.budget = budget;
    this.semverInNewRules = semverInNewRules;
  }

  /**
   * Rules with kube-apiserver's limits, as {@link #create()} makes them; the constructor {@link
   * java.util.ServiceLoader} calls when a server looks for {@code ValidationRules.installed()}.
   */
  public CelValidationRules() {
    this(PER_CALL_LIMIT, RUNTIME_COST_BUDGET, false);
  }

  /**
   * Rules with kube-apiserver's limits.
   *
   * @return the rules
   */
  public static CelValidationRules create() {
    return new CelValidationRules(PER_CALL_LIMIT, RUNTIME_COST_BUDGET, false);
  }

  /**
   * Rules with other limits, for servers that want to allow less (or more) work per request.
   *
   * @param perCallLimit the runtime cost one rule's evaluation may take
   * @param budget the runtime cost all the rules of one object may take
   * @return the rules
   * @throws IllegalArgumentException when a limit is not positive
   */
  public static CelValidationRules withLimits(long perCallLimit, long budget) {
    if (perCallLimit <= 0 || budget <= 0) {
      throw new IllegalArgumentException(
          "cost limits must be positive, got perCallLimit "
              + perCallLimit
              + " and budget "
              + budget);
    }
    return new CelValidationRules(perCallLimit, budget, false);
  }

  /**
   * These rules, but a definition's rules may use the {@code semver} library ({@code
   * semver('1.2.3').isLessThan(...)}), as Kubernetes 1.34 allows. kube-apiserver 1.33 declares the
   * library only for rules already stored (it compiles new rules for the version before its own,
   * 1.32, and the library came in 1.33), so by default a new rule that uses it is refused with
   * {@code undeclared reference to 'semver'}, as there; rules are evaluated with the library either
   * way.
   *
   * @return the rules, otherwise unchanged
   */
  public CelValidationRules withSemverInNewRules() {
    return new CelValidationRules(perCallLimit, budget, true);
  }

  @Override
  public List<FieldError> check(JSONSchemaProps schema, FieldPath path) {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(path, "path");
    List<FieldError> errors = new ArrayList<>();
    RuleCompiler compiler = new RuleCompiler(errors, semverInNewRules);
    compiler.root(schema, path);
    RuleCompiler.CostTally costs = compiler.costs();
    if (Long.compareUnsigned(costs.total(), STATIC_ESTIMATED_CRD_COST_LIMIT) > 0) {
      for (FieldPath expensive : costs.mostExpensivePaths()) {
        errors.add(
            FieldError.forbidden(
                expensive,
                "contributed to estimated rule cost total exceeding cost limit for entire"
                    + " OpenAPIv3 schema"));
      }
      errors.add(
          FieldError.forbidden(
              path,
              RuleCompiler.costError(
                  "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                  costs.total(),
                  STATIC_ESTIMATED_CRD_COST_LIMIT)));
    }
    return errors;
  }

  @Override
  public ValidationRules.Validator compile(JSONSchemaProps schema) {
    Objects.requireNonNull(schema, "schema");
    SchemaNode root = new RuleCompiler(null, true).root(schema, FieldPath.of("openAPIV3Schema"));
    return new RuleValidator(root, perCallLimit, budget);
  }

  @Override
  public String toString() {
    return "CelValidationRules{perCallLimit="
        + perCallLimit
        + ", budget="
        + budget
        + ", semverInNewRules="
        + semverInNewRules
        + "}";
  }
}
