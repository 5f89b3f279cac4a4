package dev.machinery.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelOptionalLibrary;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.machinery.apiserver.admission.webhook.MatchConditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CEL {@code matchConditions} of admission webhooks, as kube-apiserver evaluates them: each
 * condition compiles to a bool over {@code object}, {@code oldObject} and {@code request} (of no
 * declared type, as maps, lists and scalars) and {@code authorizer} (kube's authorizer library,
 * checks made as the requesting user), with the Kubernetes libraries of the validation rules; the
 * first false condition skips the webhook; errors count only when no condition is false. Found by
 * {@link MatchConditions#installed()} on the class path. Immutable and thread-safe.
 */
public final class CelMatchConditions implements MatchConditions {
  private final Cel cel;

  /** Creates the environment. */
  public CelMatchConditions() {
    this.cel =
        CelFactory.standardCelBuilder()
            .setOptions(RuleCompiler.OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addCompilerLibraries(CelExtensions.strings(), CelOptionalLibrary.INSTANCE)
            .addRuntimeLibraries(CelExtensions.strings(), CelOptionalLibrary.INSTANCE)
            .addFunctionDeclarations(KubernetesLibrary.declarations(false))
            .addFunctionBindings(KubernetesLibrary.bindings())
            .addFunctionDeclarations(AuthorizerLibrary.declarations())
            .addFunctionBindings(AuthorizerLibrary.bindings())
            .addVar("object", SimpleType.DYN)
            .addVar("oldObject", SimpleType.DYN)
            .addVar("request", SimpleType.DYN)
            .addVar("authorizer", AuthorizerLibrary.AUTHORIZER)
            .addVar("authorizer.requestResource", AuthorizerLibrary.RESOURCE_CHECK)
            .build();
  }

  @Override
  public Compiled compile(List<Condition> conditions) {
    List<Condition> names = new ArrayList<>();
    List<CelRuntime.Program> programs = new ArrayList<>();
    for (int i = 0; i < conditions.size(); i++) {
      Condition condition = conditions.get(i);
      String at = "matchConditions[" + i + "].expression";
      try {
        CelValidationResult result = cel.compile(condition.expression());
        if (result.hasError()) {
          throw new IllegalArgumentException(
              at
                  + ": Invalid value: \""
                  + condition.expression()
                  + "\": compilation failed: "
                  + result.getErrorString());
        }
        CelAbstractSyntaxTree ast = result.getAst();
        if (!ast.getResultType().equals(SimpleType.BOOL)
            && !ast.getResultType().equals(SimpleType.DYN)) {
          throw new IllegalArgumentException(
              at + ": Invalid value: \"" + condition.expression() + "\": must evaluate to bool");
        }
        programs.add(cel.createProgram(ast));
        names.add(condition);
      } catch (dev.cel.common.CelValidationException | CelEvaluationException e) {
        throw new IllegalArgumentException(
            at + ": Invalid value: \"" + condition.expression() + "\": " + e.getMessage(), e);
      }
    }
    List<Condition> compiledNames = List.copyOf(names);
    List<CelRuntime.Program> compiledPrograms = List.copyOf(programs);
    return (variables, authorizer) ->
        evaluate(compiledNames, compiledPrograms, variables, authorizer);
  }

  private static Optional<String> evaluate(
      List<Condition> conditions,
      List<CelRuntime.Program> programs,
      Map<String, Object> variables,
      MatchConditions.Authorization authorizer) {
    Map<String, Object> activation = new HashMap<>();
    for (String name : List.of("object", "oldObject", "request")) {
      activation.put(name, CelValues.dynamic(variables.get(name)));
    }
    if (authorizer != null) {
      AuthorizerLibrary.Authz authz =
          new AuthorizerLibrary.Authz(authorizer.authorizer(), authorizer.user());
      activation.put("authorizer", authz);
      activation.put(
          "authorizer.requestResource",
          AuthorizerLibrary.requestResource(authz, authorizer.requestResource()));
    }
    List<String> errors = new ArrayList<>();
    for (int i = 0; i < programs.size(); i++) {
      Object result;
      try {
        result = programs.get(i).eval(activation);
      } catch (CelEvaluationException e) {
        errors.add(
            "expression '"
                + conditions.get(i).expression()
                + "' resulted in error: "
                + e.getMessage());
        continue;
      }
      if (Boolean.FALSE.equals(result)) {
        return Optional.of(conditions.get(i).name());
      }
      if (!Boolean.TRUE.equals(result)) {
        errors.add(
            "expression '"
                + conditions.get(i).expression()
                + "' resulted in error: expected a bool, got "
                + result);
      }
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(
          errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
    }
    return Optional.empty();
  }
}
