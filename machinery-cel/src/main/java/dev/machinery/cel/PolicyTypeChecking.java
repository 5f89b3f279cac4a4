package dev.machinery.cel;

import com.google.common.collect.ImmutableSet;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelOptionalLibrary;
import dev.cel.parser.CelStandardMacro;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.TypeCheckTypes;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.TypeChecker;
import dev.machinery.apiserver.admission.policy.PolicyExpressions.Variable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The type checker of one kind's types for a ValidatingAdmissionPolicy, as kube-apiserver's: an
 * environment in which {@code object} and {@code oldObject} have the kind's schema type, {@code
 * params} the parameter kind's (or {@code dyn}), {@code request} and {@code namespaceObject}
 * kube-apiserver's {@code kubernetes.AdmissionRequest} and {@code kubernetes.Namespace}, {@code
 * authorizer} the authorizer library's type, and {@code variables} an object whose fields are the
 * policy's variables, each typed by what its expression compiles to in the environment of the
 * variables before it ({@code dyn} when it does not compile). The result type of an expression is
 * not checked. Beyond kube-apiserver's type checking environment, {@code
 * authorizer.requestResource} is declared, as every compiled policy expression has it. Built once,
 * then only read: thread-safe.
 */
final class PolicyTypeChecking implements TypeChecker {
  private static final Pattern SYNTAX =
      Pattern.compile("(?m)^(ERROR: <input>:\\d+:\\d+: )(?!Syntax error: )");
  private static final String VARIABLES = "kubernetes.Variables";

  // The object types are named apart from the variables: a type named as a variable would hide it.
  private final DeclaredTypes types = new DeclaredTypes();
  private final CelType object;
  private final CelType params;
  private final boolean hasParams;
  private final Cel cel;

  PolicyTypeChecking(TypeCheckTypes declared) {
    addKubernetesTypes(types);
    this.object =
        declared.object() == null
            ? SimpleType.DYN
            : types.typeOf(declared.object(), "objectType", true);
    this.hasParams = declared.params();
    this.params =
        declared.paramsSchema() == null
            ? SimpleType.DYN
            : types.typeOf(declared.paramsSchema(), "paramsType", true);
    Map<String, CelType> variables = new LinkedHashMap<>();
    Cel environment = environment(variables);
    for (Variable variable : declared.variables()) {
      CelType type = SimpleType.DYN;
      try {
        CelValidationResult result = environment.compile(variable.expression());
        if (!result.hasError()) {
          type = result.getAst().getResultType();
        }
      } catch (CelValidationException | RuntimeException e) {
        type = SimpleType.DYN;
      }
      variables.put(variable.name(), type);
      environment = environment(variables);
    }
    this.cel = environment;
  }

  @Override
  public Optional<String> check(String expression) {
    CelValidationResult parsed = cel.parse(expression);
    if (parsed.hasError()) {
      // cel-go words parse errors "Syntax error: ..."; cel-java leaves the prefix out.
      return Optional.of(SYNTAX.matcher(parsed.getErrorString()).replaceAll("$1Syntax error: "));
    }
    CelValidationResult result = cel.compile(expression);
    return result.hasError() ? Optional.of(result.getErrorString()) : Optional.empty();
  }

  /** The environment with the variables declared so far as the fields of {@code variables}. */
  private Cel environment(Map<String, CelType> variables) {
    Map<String, CelType> fields = Map.copyOf(variables);
    types.add(
        StructType.create(
            VARIABLES,
            ImmutableSet.copyOf(variables.keySet()),
            f -> Optional.ofNullable(fields.get(f))));
    var builder =
        CelFactory.standardCelBuilder()
            .setOptions(RuleCompiler.OPTIONS)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .setTypeProvider(types)
            .addCompilerLibraries(CelExtensions.strings(), CelOptionalLibrary.INSTANCE)
            .addFunctionDeclarations(KubernetesLibrary.declarations(true))
            .addFunctionDeclarations(AuthorizerLibrary.declarations())
            .addVar("object", object)
            .addVar("oldObject", object)
            .addVar("request", types.findType("kubernetes.AdmissionRequest").orElseThrow())
            .addVar("namespaceObject", types.findType("kubernetes.Namespace").orElseThrow())
            .addVar("authorizer", AuthorizerLibrary.AUTHORIZER)
            .addVar("authorizer.requestResource", AuthorizerLibrary.RESOURCE_CHECK)
            .addVar("variables", types.findType(VARIABLES).orElseThrow());
    if (hasParams) {
      builder.addVar("params", params);
    }
    return builder.build();
  }

  /** kube-apiserver's types of {@code request} and {@code namespaceObject}. */
  private static void addKubernetesTypes(DeclaredTypes types) {
    CelType string = SimpleType.STRING;
    CelType strings = ListType.create(string);
    StructType gvk =
        struct(
            types,
            "kubernetes.GroupVersionKind",
            "group",
            string,
            "version",
            string,
            "kind",
            string);
    StructType gvr =
        struct(
            types,
            "kubernetes.GroupVersionResource",
            "group",
            string,
            "version",
            string,
            "resource",
            string);
    StructType userInfo =
        struct(
            types,
            "kubernetes.UserInfo",
            "username",
            string,
            "uid",
            string,
            "groups",
            strings,
            "extra",
            MapType.create(string, strings));
    struct(
        types,
        "kubernetes.AdmissionRequest",
        "kind",
        gvk,
        "resource",
        gvr,
        "subResource",
        string,
        "requestKind",
        gvk,
        "requestResource",
        gvr,
        "requestSubResource",
        string,
        "name",
        string,
        "namespace",
        string,
        "operation",
        string,
        "userInfo",
        userInfo,
        "dryRun",
        SimpleType.BOOL,
        "options",
        SimpleType.DYN);
    StructType spec = struct(types, "kubernetes.NamespaceSpec", "finalizers", strings);
    StructType condition =
        struct(
            types,
            "kubernetes.NamespaceCondition",
            "status",
            string,
            "type",
            string,
            "lastTransitionTime",
            SimpleType.TIMESTAMP,
            "message",
            string,
            "reason",
            string);
    StructType status =
        struct(
            types,
            "kubernetes.NamespaceStatus",
            "conditions",
            ListType.create(condition),
            "phase",
            string);
    StructType metadata =
        struct(
            types,
            "kubernetes.NamespaceMetadata",
            "name",
            string,
            "generateName",
            string,
            "namespace",
            string,
            "labels",
            MapType.create(string, string),
            "annotations",
            MapType.create(string, string),
            "UID",
            string,
            "creationTimestamp",
            SimpleType.TIMESTAMP,
            "deletionGracePeriodSeconds",
            SimpleType.INT,
            "deletionTimestamp",
            SimpleType.TIMESTAMP,
            "generation",
            SimpleType.INT,
            "resourceVersion",
            string,
            "finalizers",
            strings);
    struct(types, "kubernetes.Namespace", "metadata", metadata, "spec", spec, "status", status);
  }

  /** A struct type of name and type pairs, added to the types. */
  private static StructType struct(DeclaredTypes types, String name, Object... fieldsAndTypes) {
    Map<String, CelType> fields = new LinkedHashMap<>();
    for (int i = 0; i < fieldsAndTypes.length; i += 2) {
      fields.put((String) fieldsAndTypes[i], (CelType) fieldsAndTypes[i + 1]);
    }
    Map<String, CelType> copy = Map.copyOf(fields);
    StructType type =
        StructType.create(
            name, ImmutableSet.copyOf(fields.keySet()), f -> Optional.ofNullable(copy.get(f)));
    types.add(type);
    return type;
  }
}
