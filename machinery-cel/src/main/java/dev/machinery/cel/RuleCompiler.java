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
 * optionalOldSelf} on a rule that does not read {@code oldSelf}. Used by one thread, once.
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
    return node(schema, "selfType", true, path, null);
  }

  private SchemaNode node(
      JSONSchemaProps schema,
      String typeName,
      boolean resource,
      FieldPath path,
      FieldPath uncorrelatable) {
    Map<String, SchemaNode> properties = new LinkedHashMap<>();
    if (schema.properties() != null) {
      for (Map.Entry<String, JSONSchemaProps> property : schema.properties().entrySet()) {
        SchemaNode child =
            node(
                property.getValue(),
                typeName + "." + typeNamePart(property.getKey()),
                false,
                path.child("properties").key(property.getKey()),
                uncorrelatable);
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
              correlatableMap(schema) ? uncorrelatable : first(uncorrelatable, path));
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
              mapList ? uncorrelatable : first(uncorrelatable, path));
    }
    List<CompiledRule> rules = compileRules(schema, typeName, resource, path, uncorrelatable);
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
      FieldPath uncorrelatable) {
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
      compiled.add(compile(cel, rule, rulePath, fieldPath, uncorrelatable, schemaErrors));
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

  private CompiledRule compile(
      Cel cel,
      ValidationRule rule,
      FieldPath at,
      String fieldPath,
      FieldPath uncorrelatable,
      boolean schemaErrors) {
    boolean report = errors != null && !schemaErrors;
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
        }
      }
    } catch (CelValidationException | CelEvaluationException | RuntimeException e) {
      error = "compilation failed: " + e.getMessage();
    }
    if (error != null && report) {
      errors.add(FieldError.invalid(at.child("rule"), new RuleValue(rule), error));
    }
    String messageExpression = rule.messageExpression();
    if (messageExpression != null && !messageExpression.isBlank()) {
      String messageError = null;
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
          }
        }
      } catch (CelValidationException | CelEvaluationException | RuntimeException e) {
        messageError = "messageExpression compilation failed: " + e.getMessage();
      }
      if (messageError != null && report) {
        errors.add(
            FieldError.invalid(at.child("messageExpression"), new RuleValue(rule), messageError));
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
