package dev.machinery.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.NullValue;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelOptionalLibrary;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelVariableResolver;
import dev.machinery.apiserver.admission.policy.PolicyExpressions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CEL of ValidatingAdmissionPolicies, as kube-apiserver 1.33 compiles and runs it: the standard
 * library with the strings and optional extensions, Kubernetes' libraries (lists, regex, URLs,
 * quantities, IP/CIDR, format, semver) and the authorizer library; the variables {@code object},
 * {@code oldObject}, {@code request}, {@code namespaceObject}, {@code params} (with a {@code
 * paramKind}), {@code variables} and {@code authorizer} (not in message expressions and audit
 * annotations); each evaluation bounded by {@link PolicyExpressions#PER_CALL_LIMIT} and by what is
 * left of the policy's budget. Objects are typed dynamically when expressions are compiled to be
 * evaluated; {@link #typeChecker} checks them against the matched kinds' schemas, for {@code
 * status.typeChecking} only. Found by {@link PolicyExpressions#installed()}.
 *
 * <p>Immutable and thread-safe.
 */
public final class CelPolicyExpressions implements PolicyExpressions {
  private static final Pattern LOCATION = Pattern.compile("^evaluation error at [^:]*:\\d+: ");
  private static final Pattern NO_SUCH_KEY =
      Pattern.compile(
          "key '(.*)' is not present in map|Error resolving field '(.*)'\\. Field selections must"
              + " be performed on messages or maps\\.");
  private static final Pattern SYNTAX =
      Pattern.compile("(?m)^(ERROR: <input>:\\d+:\\d+: )(?!Syntax error: )");
  private static final String CANCELLED = "operation cancelled: actual cost limit exceeded";
  private static final List<CelFunctionBinding> BINDINGS = bindings();

  /** Creates the language; used by the service loader. */
  public CelPolicyExpressions() {}

  private static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> all = new ArrayList<>(KubernetesLibrary.bindings());
    all.addAll(AuthorizerLibrary.bindings());
    return all;
  }

  private static Cel environment(Declarations declarations) {
    var builder =
        CelFactory.standardCelBuilder()
            .setOptions(RuleCompiler.OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addCompilerLibraries(CelExtensions.strings(), CelOptionalLibrary.INSTANCE)
            .addRuntimeLibraries(CelExtensions.strings(), CelOptionalLibrary.INSTANCE)
            .addFunctionDeclarations(KubernetesLibrary.declarations(true))
            .addFunctionBindings(BINDINGS)
            .addVar("object", SimpleType.DYN)
            .addVar("oldObject", SimpleType.DYN)
            .addVar("request", SimpleType.DYN)
            .addVar("namespaceObject", SimpleType.DYN);
    // Each variable is its own qualified name, resolved (and evaluated) only when read.
    for (String variable : declarations.variables()) {
      builder.addVar("variables." + variable, SimpleType.DYN);
    }
    if (declarations.params()) {
      builder.addVar("params", SimpleType.DYN);
    }
    if (declarations.authorizer()) {
      builder
          .addFunctionDeclarations(AuthorizerLibrary.declarations())
          .addVar("authorizer", AuthorizerLibrary.AUTHORIZER)
          .addVar("authorizer.requestResource", AuthorizerLibrary.RESOURCE_CHECK);
    }
    return builder.build();
  }

  @Override
  public Expression compile(String expression, ResultType type, Declarations declarations) {
    Cel cel = environment(declarations);
    try {
      CelValidationResult parsed = cel.parse(expression);
      if (parsed.hasError()) {
        // cel-go words parse errors "Syntax error: ..."; cel-java leaves the prefix out.
        return new Compiled(
            expression,
            "compilation failed: "
                + SYNTAX.matcher(parsed.getErrorString()).replaceAll("$1Syntax error: "),
            null);
      }
      CelValidationResult result = cel.compile(expression);
      if (result.hasError()) {
        return new Compiled(expression, "compilation failed: " + result.getErrorString(), null);
      }
      CelAbstractSyntaxTree ast = result.getAst();
      String typeError = typeError(type, ast.getResultType());
      if (typeError != null) {
        return new Compiled(expression, typeError, null);
      }
      return new Compiled(expression, null, cel.createProgram(ast));
    } catch (CelValidationException | CelEvaluationException | RuntimeException e) {
      return new Compiled(expression, "compilation failed: " + e.getMessage(), null);
    }
  }

  @Override
  public TypeChecker typeChecker(TypeCheckTypes types) {
    return new PolicyTypeChecking(types);
  }

  private static String typeError(ResultType type, CelType result) {
    if (result.equals(SimpleType.DYN) || type == ResultType.ANY) {
      return null;
    }
    return switch (type) {
      case BOOL ->
          result.equals(SimpleType.BOOL) ? null : "must evaluate to bool but got " + result.name();
      case STRING ->
          result.equals(SimpleType.STRING)
              ? null
              : "must evaluate to string but got " + result.name();
      case STRING_OR_NULL ->
          result.equals(SimpleType.STRING) || result.equals(SimpleType.NULL_TYPE)
              ? null
              : "must evaluate to one of [string null_type] but got " + result.name();
      case ANY -> null;
    };
  }

  /** One compiled expression. Immutable. */
  private record Compiled(String source, String compileError, CelRuntime.Program program)
      implements Expression {
    @Override
    public Optional<String> error() {
      return Optional.ofNullable(compileError);
    }

    @Override
    public Object evaluate(Activation activation, Budget budget) {
      if (program == null) {
        throw new IllegalStateException(compileError);
      }
      long limit = Math.min(PER_CALL_LIMIT, budget.remaining());
      if (limit < 0) {
        throw new EvaluationException(
            "validation failed due to running out of cost budget, no further validation rules"
                + " will be run",
            true);
      }
      CostTracker cost = new CostTracker(limit);
      Object result;
      try {
        result = program.trace(resolver(activation), cost);
      } catch (CelEvaluationException e) {
        budget.spend(cost.cost());
        EvaluationException nested = nested(e);
        if (nested != null) {
          throw nested;
        }
        if (limitReached(e)) {
          if (limit < PER_CALL_LIMIT) {
            budget.spend(limit + 1);
            throw new EvaluationException(
                "validation failed due to running out of cost budget, no further validation"
                    + " rules will be run",
                true);
          }
          throw new EvaluationException(CANCELLED, false);
        }
        throw new EvaluationException(runtimeError(e), false);
      } catch (EvaluationException e) {
        budget.spend(cost.cost());
        throw e;
      } catch (RuntimeException e) {
        budget.spend(cost.cost());
        EvaluationException nested = nested(e);
        if (nested != null) {
          throw nested;
        }
        throw new EvaluationException(String.valueOf(e.getMessage()), false);
      }
      budget.spend(cost.cost());
      return result instanceof NullValue ? null : result;
    }
  }

  private static boolean limitReached(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof CostTracker.LimitReached) {
        return true;
      }
    }
    return false;
  }

  private static EvaluationException nested(Throwable e) {
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof EvaluationException found) {
        return found;
      }
    }
    return null;
  }

  /** The values of an activation, each converted when the expression reads it. */
  private static CelVariableResolver resolver(Activation a) {
    return name -> {
      switch (name) {
        case "object":
          return Optional.of(CelValues.dynamic(a.object()));
        case "oldObject":
          return Optional.of(CelValues.dynamic(a.oldObject()));
        case "request":
          return Optional.of(CelValues.dynamic(a.request()));
        case "params":
          return Optional.of(CelValues.dynamic(a.params()));
        case "namespaceObject":
          return Optional.of(CelValues.dynamic(a.namespaceObject()));
        case "authorizer":
          return Optional.of(new AuthorizerLibrary.Authz(a.authorizer(), a.user()));
        case "authorizer.requestResource":
          return Optional.of(
              AuthorizerLibrary.requestResource(
                  new AuthorizerLibrary.Authz(a.authorizer(), a.user()), a.requestResource()));
        default:
          if (name.startsWith("variables.")) {
            String variable = name.substring("variables.".length());
            if (a.variables().containsKey(variable)) {
              Object value = a.variables().get(variable);
              return Optional.of(value == null ? NullValue.NULL_VALUE : value);
            }
          }
          return Optional.empty();
      }
    };
  }

  /** A runtime error in cel-go's words where cel-java's differ. */
  private static String runtimeError(CelEvaluationException e) {
    String text = LOCATION.matcher(String.valueOf(e.getMessage())).replaceFirst("");
    Matcher key = NO_SUCH_KEY.matcher(text);
    if (key.find()) {
      return "no such key: " + (key.group(1) != null ? key.group(1) : key.group(2));
    }
    return switch (e.getErrorCode()) {
      case DIVIDE_BY_ZERO -> "division by zero";
      case NUMERIC_OVERFLOW -> "integer overflow";
      case OVERLOAD_NOT_FOUND -> "no such overload";
      default -> text;
    };
  }
}
