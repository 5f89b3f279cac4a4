package dev.machinery.cel;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelOptionalLibrary;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import dev.machinery.apiserver.apiextensions.v1.JSONSchemaProps;
import dev.machinery.apiserver.apiextensions.v1.ValidationRule;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Compiles the rules of one version's schema into {@link SchemaNode}s, and reports, with
 * kube-apiserver's field paths and messages, what makes a rule unfit to be served: an empty rule, a
 * blank or multi-line message, a multi-line rule without a message, an unknown reason, a {@code
 * fieldPath} that names no declared field, a rule or message expression that does not compile or
 * has the wrong type, {@code oldSelf} where there is no old value to compare with, {@code
 * optionalOldSelf} on a rule that does not read {@code oldSelf}, a rule or message expression whose
 * estimated cost passes {@link CelValidationRules#STATIC_ESTIMATED_COST_LIMIT}; it tallies the
 * estimates for the schema's total ({@link #costs()}). Used by one thread, once.
 */
final class RuleCompiler {
  static final List<String> REASONS =
      List.of(
          "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired");
  private static final Pattern NEWLINES = Pattern.compile("[\\n\\r]+");
  private static final List<CelFunctionBinding> BINDINGS = KubernetesLibrary.bindings();
  static final CelOptions OPTIONS =
      CelOptions.current()
          .enableOptionalSyntax(true)
          // Iterations are bounded by the cost limit, as in kube-apiserver.
          .comprehensionMaxIterations(-1)
          .maxParseRecursionDepth(250)
          .build();

  private final DeclaredTypes types = new DeclaredTypes();
  private final List<FieldError> errors;
  private final boolean semver;
  private final CostTally costs = new CostTally();

  /**
   * A compiler.
   *
   * @param errors where problems go, or null to ignore them (serving rules checked before)
   * @param semver whether rules may use the {@code semver} library
   */
  RuleCompiler(List<FieldError> errors, boolean semver) {
    this.errors = errors;
    this.semver = semver;
  }

  SchemaNode root(JSONSchemaProps schema, FieldPath path) {
    return node(schema, "selfType", true, path, null, SchemaSize.of(schema, true), 1L);
  }

  /** The estimated costs of the rules compiled so far. */
  CostTally costs() {
    return costs;
  }

  /**
   * The estimated costs of a schema's rules and message expressions, as kube-apiserver tallies
   * them: their total (saturating), and the four most expensive of those that cost at least 1% of
   * {@link CelValidationRules#STATIC_ESTIMATED_CRD_COST_LIMIT}, most expensive first. Used by one
   * thread.
   */
  static final class CostTally {
    private final List<RuleCost> mostExpensive = new ArrayList<>();
    private long total;

    private record RuleCost(FieldPath path, long cost) {}

    void observe(FieldPath path, long cost) {
      total = CostEstimator.addSat(total, cost);
      if (Long.compareUnsigned(cost, CelValidationRules.STATIC_ESTIMATED_CRD_COST_LIMIT / 100)
          < 0) {
        return;
      }
      mostExpensive.add(new RuleCost(path, cost));
      mostExpensive.sort((a, b) -> Long.compareUnsigned(b.cost(), a.cost()));
      if (mostExpensive.size() > 4) {
        mostExpensive.remove(4);
      }
    }

    long total() {
      return total;
    }

    List<FieldPath> mostExpensivePaths() {
      return mostExpensive.stream().map(RuleCost::path).toList();
    }

    List<Long> mostExpensiveCosts() {
      return mostExpensive.stream().map(RuleCost::cost).toList();
    }
  }

  /**
   * How many values of a child node one value of a node may hold, as kube-apiserver counts: an
   * array's {@code maxItems}, a map's {@code maxProperties}, 1 for anything else; null when
   * unbounded.
   */
  private static Long maxElements(JSONSchemaProps schema) {
    String type = schema.type() == null ? "" : schema.type();
    if (type.equals("object")) {
      if (schema.additionalProperties() != null) {
        return schema.maxProperties() == null ? null : Math.max(0, schema.maxProperties());
      }
      return 1L;
    }
    if (type.equals("array")) {
      return schema.maxItems() == null ? null : Math.max(0, schema.maxItems());
    }
    return 1L;
  }

  static Long childCardinality(JSONSchemaProps parent, Long cardinality) {
    Long elements = maxElements(parent);
    if (cardinality == null || elements == null) {
      return null;
    }
    return CostEstimator.mulSat(cardinality, elements);
  }

  private static SchemaSize childSize(SchemaSize size, JSONSchemaProps child, String path) {
    SchemaSize found = size == null ? null : size.at(List.of(path));
    return found != null ? found : SchemaSize.of(child, child.embedsResource());
  }

  private SchemaNode node(
      JSONSchemaProps schema,
      String typeName,
      boolean resource,
      FieldPath path,
      FieldPath uncorrelatable,
      SchemaSize size,
      Long cardinality) {
    Long childCardinality = childCardinality(schema, cardinality);
    Map<String, SchemaNode> properties = new LinkedHashMap<>();
    if (schema.properties() != null) {
      for (Map.Entry<String, JSONSchemaProps> property : schema.properties().entrySet()) {
        String escaped = FieldNames.escape(property.getKey());
        SchemaSize propertySize =
            escaped == null
                ? SchemaSize.of(property.getValue(), property.getValue().embedsResource())
                : childSize(size, property.getValue(), escaped);
        SchemaNode child =
            node(
                property.getValue(),
                typeName + "." + typeNamePart(property.getKey()),
                false,
                path.child("properties").key(property.getKey()),
                uncorrelatable,
                propertySize,
                childCardinality);
        if (child != null) {
          properties.put(property.getKey(), child);
        }
      }
    }
    SchemaNode additional = null;
    if (schema.additionalProperties() != null && schema.additionalProperties().schema() != null) {
      FieldPath at = path.child("additionalProperties");
      additional =
          node(
              schema.additionalProperties().schema(),
              typeName + ".@values",
              false,
              at,
              correlatableMap(schema) ? uncorrelatable : first(uncorrelatable, path),
              childSize(size, schema.additionalProperties().schema(), "@values"),
              childCardinality);
    }
    SchemaNode items = null;
    if (schema.items() != null) {
      boolean mapList = "map".equals(schema.listType());
      items =
          node(
              schema.items(),
              typeName + ".@items",
              false,
              path.child("items"),
              mapList ? uncorrelatable : first(uncorrelatable, path),
              childSize(size, schema.items(), "@items"),
              childCardinality);
    }
    List<CompiledRule> rules =
        compileRules(schema, typeName, resource, path, uncorrelatable, size, cardinality);
    if (rules.isEmpty() && properties.isEmpty() && additional == null && items == null) {
      return null;
    }
    return new SchemaNode(
        schema, resource, List.copyOf(rules), Map.copyOf(properties), additional, items);
  }

  private static String typeNamePart(String property) {
    String escaped = FieldNames.escape(property);
    return escaped == null ? property : escaped;
  }

  private static FieldPath first(FieldPath existing, FieldPath path) {
    return existing != null ? existing : path;
  }

  static boolean correlatableMap(JSONSchemaProps schema) {
    return schema.mapType() == null
        || schema.mapType().equals("granular")
        || schema.mapType().equals("atomic");
  }

  private List<CompiledRule> compileRules(
      JSONSchemaProps schema,
      String typeName,
      boolean resource,
      FieldPath path,
      FieldPath uncorrelatable,
      SchemaSize size,
      Long cardinality) {
    List<ValidationRule> rules = schema.validations() == null ? List.of() : schema.validations();
    if (rules.isEmpty()) {
      return List.of();
    }
    FieldPath at = path.child("x-kubernetes-validations");
    int before = errors == null ? 0 : errors.size();
    for (int i = 0; i < rules.size(); i++) {
      checkRule(rules.get(i), schema, at.index(i));
    }
    boolean schemaErrors = errors != null && errors.size() > before;
    CelType self = types.typeOf(schema, typeName, resource);
    Cel env = null;
    Cel optionalEnv = null;
    List<CompiledRule> compiled = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      ValidationRule rule = rules.get(i);
      FieldPath rulePath = at.index(i);
      String fieldPath = null;
      if (rule.fieldPath() != null && !rule.fieldPath().isBlank()) {
        try {
          fieldPath = RuleFieldPaths.resolve(rule.fieldPath().strip(), schema);
        } catch (IllegalArgumentException e) {
          fieldPath = null;
        }
      }
      if (rule.rule() == null || rule.rule().isBlank()) {
        compiled.add(new CompiledRule(rule, null, null, false, null, fieldPath));
        continue;
      }
      Cel cel;
      if (Boolean.TRUE.equals(rule.optionalOldSelf())) {
        optionalEnv = optionalEnv == null ? environment(self, true) : optionalEnv;
        cel = optionalEnv;
      } else {
        env = env == null ? environment(self, false) : env;
        cel = env;
      }
      compiled.add(
          compile(
              cel,
              rule,
              rulePath,
              fieldPath,
              uncorrelatable,
              schemaErrors,
              new Sizes(size, cardinality)));
    }
    return compiled;
  }

  private void checkRule(ValidationRule rule, JSONSchemaProps schema, FieldPath at) {
    if (errors == null) {
      return;
    }
    String trimmedRule = rule.rule() == null ? "" : rule.rule().strip();
    String message = rule.message() == null ? "" : rule.message();
    String trimmedMessage = message.strip();
    if (trimmedRule.isEmpty()) {
      errors.add(FieldError.required(at.child("rule"), "rule is not specified"));
    } else if (!message.isEmpty() && trimmedMessage.isEmpty()) {
      errors.add(
          FieldError.invalid(
              at.child("message"), message, "message must be non-empty if specified"));
    } else if (NEWLINES.matcher(trimmedMessage).find()) {
      errors.add(
          FieldError.invalid(at.child("message"), message, "message must not contain line breaks"));
    } else if (NEWLINES.matcher(trimmedRule).find() && trimmedMessage.isEmpty()) {
      errors.add(
          FieldError.required(
              at.child("message"), "message must be specified if rule contains line breaks"));
    }
    if (rule.messageExpression() != null
        && !rule.messageExpression().isEmpty()
        && rule.messageExpression().isBlank()) {
      errors.add(
          FieldError.required(
              at.child("messageExpression"), "messageExpression must be non-empty if specified"));
    }
    if (rule.reason() != null && !REASONS.contains(rule.reason())) {
      errors.add(FieldError.notSupported(at.child("reason"), rule.reason(), REASONS));
    }
    String fieldPath = rule.fieldPath() == null ? "" : rule.fieldPath();
    if (!fieldPath.isEmpty() && fieldPath.isBlank()) {
      errors.add(
          FieldError.invalid(
              at.child("fieldPath"), fieldPath, "fieldPath must be non-empty if specified"));
    }
    if (NEWLINES.matcher(fieldPath).find()) {
      errors.add(
          FieldError.invalid(
              at.child("fieldPath"), fieldPath, "fieldPath must not contain line breaks"));
    }
    if (!fieldPath.isEmpty()) {
      try {
        RuleFieldPaths.resolve(fieldPath, schema);
      } catch (IllegalArgumentException e) {
        errors.add(
            FieldError.invalid(at.child("fieldPath"), fieldPath, "fieldPath must be a valid path"));
      }
    }
  }

  /** The sizes of a node's values and how many of them an object may hold (null when unbounded). */
  private record Sizes(SchemaSize size, Long cardinality) {
    /** A rule's estimated cost times the number of times it may run on one object. */
    long expressionCost(long ruleCost) {
      if (ruleCost == 0) {
        return 0;
      }
      long times;
      if (cardinality != null) {
        times = cardinality;
      } else {
        long minSize = size == null ? 1 : size.minSerializedSize();
        times = SchemaSize.MAX_REQUEST_BYTES / (minSize + 1);
      }
      return CostEstimator.mulSat(ruleCost, times);
    }
  }

  private CompiledRule compile(
      Cel cel,
      ValidationRule rule,
      FieldPath at,
      String fieldPath,
      FieldPath uncorrelatable,
      boolean schemaErrors,
      Sizes sizes) {
    boolean report = errors != null && !schemaErrors;
    long ruleCost = 0;
    CelAbstractSyntaxTree checked = null;
    CelRuntime.Program program = null;
    String error = null;
    boolean usesOldSelf = false;
    CelRuntime.Program message = null;
    try {
      CelValidationResult result = cel.compile(rule.rule());
      if (result.hasError()) {
        error = "compilation failed: " + result.getErrorString();
      } else {
        CelAbstractSyntaxTree ast = result.getAst();
        if (!ast.getResultType().equals(SimpleType.BOOL)) {
          error = "cel expression must evaluate to a bool";
        } else {
          for (CelReference reference : ast.getReferenceMap().values()) {
            if (reference.name().equals("oldSelf")) {
              usesOldSelf = true;
              break;
            }
          }
          program = cel.createProgram(ast);
          checked = ast;
        }
      }
    } catch (CelValidationException | CelEvaluationException | RuntimeException e) {
      error = "compilation failed: " + e.getMessage();
    }
    if (report && checked != null) {
      try {
        ruleCost = sizes.expressionCost(CostEstimator.estimate(checked, sizes.size()).max());
      } catch (RuntimeException e) {
        error = "cost estimation failed: " + e;
      }
    }
    if (report) {
      if (Long.compareUnsigned(ruleCost, CelValidationRules.STATIC_ESTIMATED_COST_LIMIT) > 0) {
        errors.add(
            FieldError.forbidden(
                at.child("rule"),
                costError(
                    "estimated rule cost",
                    ruleCost,
                    CelValidationRules.STATIC_ESTIMATED_COST_LIMIT)));
      }
      costs.observe(at.child("rule"), ruleCost);
    }
    if (error != null && report) {
      errors.add(FieldError.invalid(at.child("rule"), new RuleValue(rule), error));
    }
    String messageExpression = rule.messageExpression();
    if (messageExpression != null && !messageExpression.isBlank()) {
      String messageError = null;
      long messageCost = 0;
      CelAbstractSyntaxTree messageChecked = null;
      try {
        CelValidationResult result = cel.compile(messageExpression);
        if (result.hasError()) {
          messageError = "messageExpression compilation failed: " + result.getErrorString();
        } else {
          CelAbstractSyntaxTree ast = result.getAst();
          if (!ast.getResultType().equals(SimpleType.STRING)) {
            messageError = "messageExpression must evaluate to a string";
          } else {
            message = cel.createProgram(ast);
            messageChecked = ast;
          }
        }
      } catch (CelValidationException | CelEvaluationException | RuntimeException e) {
        messageError = "messageExpression compilation failed: " + e.getMessage();
      }
      if (report && messageChecked != null) {
        try {
          messageCost = CostEstimator.estimate(messageChecked, sizes.size()).max();
        } catch (RuntimeException e) {
          messageError = "cost estimation failed for messageExpression: " + e;
          message = null;
        }
      }
      if (messageError != null && report) {
        errors.add(
            FieldError.invalid(at.child("messageExpression"), new RuleValue(rule), messageError));
      } else if (message != null && report) {
        if (Long.compareUnsigned(messageCost, CelValidationRules.STATIC_ESTIMATED_COST_LIMIT) > 0) {
          errors.add(
              FieldError.forbidden(
                  at.child("messageExpression"),
                  costError(
                      "estimated messageExpression cost",
                      messageCost,
                      CelValidationRules.STATIC_ESTIMATED_COST_LIMIT)));
        }
        costs.observe(at.child("messageExpression"), messageCost);
      }
    }
    if (report && program != null) {
      if (usesOldSelf && uncorrelatable != null) {
        errors.add(
            FieldError.invalid(
                at.child("rule"),
                rule.rule(),
                "oldSelf cannot be used on the uncorrelatable portion of the schema within "
                    + uncorrelatable));
      } else if (!usesOldSelf && rule.optionalOldSelf() != null) {
        errors.add(
            FieldError.invalid(
                at.child("optionalOldSelf"),
                rule.optionalOldSelf(),
                "may not be set if oldSelf is not used in rule"));
      }
    }
    return new CompiledRule(rule, program, error, usesOldSelf, message, fieldPath);
  }

  /**
   * The estimated cost of an expression on a schema's values, without the number of values it may
   * run on (kube-apiserver's {@code CompilationResult.MaxCost}).
   *
   * @throws IllegalArgumentException when the expression does not compile
   */
  static long estimatedCost(JSONSchemaProps schema, boolean resource, String expression) {
    RuleCompiler compiler = new RuleCompiler(null, true);
    Cel cel = compiler.environment(compiler.types.typeOf(schema, "selfType", resource), false);
    CelValidationResult result = cel.compile(expression);
    if (result.hasError()) {
      throw new IllegalArgumentException(result.getErrorString());
    }
    try {
      return CostEstimator.estimate(result.getAst(), SchemaSize.of(schema, resource)).max();
    } catch (CelValidationException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * kube-apiserver's refusal of an estimated cost over a limit, such as {@code estimated rule cost
   * exceeds budget by factor of 2.5x (try simplifying the rule, or adding maxItems, maxProperties,
   * and maxLength where arrays, maps, and strings are declared)}.
   */
  static String costError(String costName, long cost, long limit) {
    double factor = CostEstimator.unsignedToDouble(cost) / limit;
    String shown;
    if (factor > 100.0) {
      shown = "more than 100x";
    } else if (factor < 1.5) {
      shown = String.format(java.util.Locale.ROOT, "%fx", factor);
    } else {
      shown = String.format(java.util.Locale.ROOT, "%.1fx", factor);
    }
    return costName
        + " exceeds budget by factor of "
        + shown
        + " (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where"
        + " arrays, maps, and strings are declared)";
  }

  Cel environment(CelType self, boolean optionalOldSelf) {
    return CelFactory.standardCelBuilder()
        .setOptions(OPTIONS)
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        .setTypeProvider(types)
        .addCompilerLibraries(CelExtensions.strings(), CelOptionalLibrary.INSTANCE)
        .addRuntimeLibraries(CelExtensions.strings(), CelOptionalLibrary.INSTANCE)
        .addFunctionDeclarations(KubernetesLibrary.declarations(semver))
        .addFunctionBindings(BINDINGS)
        .addVar("self", self)
        .addVar("oldSelf", optionalOldSelf ? OptionalType.create(self) : self)
        .build();
  }
}
