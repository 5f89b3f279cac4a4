package dev.machinery.conversion.processor;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.PrimitiveType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.Diagnostic;

/** Writes the generated classes of one package at a time. */
final class Generator {
  private static final String SCOPE = "dev.machinery.conversion.ConversionScope";
  private static final String EXCEPTION = "dev.machinery.conversion.ConversionException";
  private static final String DEEP_COPY_CLASS = "GeneratedDeepCopy";
  private static final String CONVERSIONS_CLASS = "GeneratedConversions";
  private static final Set<String> IMMUTABLE =
      Set.of(
          "java.lang.String",
          "java.lang.Boolean",
          "java.lang.Character",
          "java.lang.Byte",
          "java.lang.Short",
          "java.lang.Integer",
          "java.lang.Long",
          "java.lang.Float",
          "java.lang.Double",
          "java.math.BigDecimal",
          "java.math.BigInteger",
          "java.util.UUID");

  private final ProcessingEnvironment env;
  private final Elements elements;
  private final Types types;

  Generator(ProcessingEnvironment env) {
    this.env = env;
    this.elements = env.getElementUtils();
    this.types = env.getTypeUtils();
  }

  enum Mode {
    COPY,
    CONVERT
  }

  /** A code expression, and whether evaluating it may throw a ConversionException. */
  record Expr(String code, boolean mayThrow) {}

  /** A hand-written conversion: the class that declares it and the method. */
  record HandWritten(String owner, ExecutableElement method) {
    String call(String argument) {
      return owner + "." + method.getSimpleName() + "(" + argument + ", scope)";
    }
  }

  /** What one generated class is being written with: helpers, errors, the packages involved. */
  private final class Unit {
    final PackageElement pkg;
    final String className;
    final PackageElement internal;
    final Map<String, HandWritten> handWritten;
    final Map<String, String> helperNames = new LinkedHashMap<>();
    final List<String> helpers = new ArrayList<>();
    boolean failed;
    String problem;

    Unit(
        PackageElement pkg,
        String className,
        PackageElement internal,
        Map<String, HandWritten> handWritten) {
      this.pkg = pkg;
      this.className = className;
      this.internal = internal;
      this.handWritten = handWritten;
    }

    void error(String message, Element where) {
      failed = true;
      env.getMessager().printMessage(Diagnostic.Kind.ERROR, message, where);
    }
  }

  void deepCopy(PackageElement pkg) {
    List<ApiClass> classes = apiClasses(pkg);
    Unit unit = new Unit(pkg, DEEP_COPY_CLASS, null, Map.of());
    StringBuilder body = new StringBuilder();
    for (ApiClass type : classes) {
      deepCopyFunction(unit, type, body);
    }
    if (unit.failed) {
      return;
    }
    StringBuilder registrations = new StringBuilder();
    for (ApiClass type : classes) {
      registrations
          .append("    builder.addDeepCopy(")
          .append(type.qualifiedName())
          .append(".class, ")
          .append(DEEP_COPY_CLASS)
          .append("::deepCopy);\n");
    }
    write(
        unit,
        "Deep-copy functions for the API classes of {@code "
            + pkg.getQualifiedName()
            + "}: each copy shares no mutable state with its original.",
        body,
        registrations);
  }

  void conversions(PackageElement versioned, PackageElement internal, List<TypeElement> uses) {
    deepCopy(versioned);
    Map<String, HandWritten> handWritten = handWritten(versioned, uses);
    Unit unit = new Unit(versioned, CONVERSIONS_CLASS, internal, handWritten);
    List<ApiClass[]> pairs = new ArrayList<>();
    List<TypeElement[]> enumPairs = new ArrayList<>();
    for (TypeElement type : ElementFilter.typesIn(versioned.getEnclosedElements())) {
      if (isGenerated(type)) {
        continue;
      }
      TypeElement peer =
          elements.getTypeElement(internal.getQualifiedName() + "." + type.getSimpleName());
      if (peer == null) {
        continue;
      }
      if (type.getKind() == ElementKind.ENUM && peer.getKind() == ElementKind.ENUM) {
        enumPairs.add(new TypeElement[] {type, peer});
        enumPairs.add(new TypeElement[] {peer, type});
        continue;
      }
      Optional<ApiClass> from = ApiClass.of(type, types);
      Optional<ApiClass> to = ApiClass.of(peer, types);
      if (from.isPresent() && to.isPresent()) {
        pairs.add(new ApiClass[] {from.get(), to.get()});
        pairs.add(new ApiClass[] {to.get(), from.get()});
      }
    }
    checkHandWrittenNames(unit);
    StringBuilder body = new StringBuilder();
    StringBuilder registrations = new StringBuilder();
    for (ApiClass[] pair : pairs) {
      pairFunction(unit, pair[0], pair[1], body);
      HandWritten custom =
          unit.handWritten.get(key(pair[0].element.asType(), pair[1].element.asType()));
      registrations
          .append("    builder.addConversion(")
          .append(pair[0].qualifiedName())
          .append(".class, ")
          .append(pair[1].qualifiedName())
          .append(".class, ")
          .append(custom == null ? CONVERSIONS_CLASS : custom.owner())
          .append("::")
          .append(
              custom == null
                  ? functionName(unit, pair[0].element, pair[1].element)
                  : custom.method().getSimpleName())
          .append(");\n");
    }
    for (TypeElement[] pair : enumPairs) {
      enumFunction(unit, pair[0], pair[1], body);
    }
    if (unit.failed) {
      return;
    }
    write(
        unit,
        "Conversion functions between the classes of {@code "
            + versioned.getQualifiedName()
            + "} and those of the internal package {@code "
            + internal.getQualifiedName()
            + "}, in both directions.",
        body,
        registrations);
  }

  // ---------------------------------------------------------------- model

  private List<ApiClass> apiClasses(PackageElement pkg) {
    List<ApiClass> classes = new ArrayList<>();
    for (TypeElement type : ElementFilter.typesIn(pkg.getEnclosedElements())) {
      if (!isGenerated(type) && type.getTypeParameters().isEmpty()) {
        ApiClass.of(type, types).ifPresent(classes::add);
      }
    }
    return classes;
  }

  private static boolean isGenerated(TypeElement type) {
    String name = type.getSimpleName().toString();
    return name.equals(DEEP_COPY_CLASS) || name.equals(CONVERSIONS_CLASS);
  }

  private Map<String, HandWritten> handWritten(PackageElement pkg, List<TypeElement> uses) {
    List<TypeElement> owners = new ArrayList<>();
    for (TypeElement type : ElementFilter.typesIn(pkg.getEnclosedElements())) {
      if (!isGenerated(type)) {
        owners.add(type);
      }
    }
    owners.addAll(uses);
    Map<String, HandWritten> found = new LinkedHashMap<>();
    for (TypeElement owner : owners) {
      boolean foreign = !elements.getPackageOf(owner).equals(pkg);
      for (ExecutableElement method : ElementFilter.methodsIn(owner.getEnclosedElements())) {
        if (!isConversionMethod(method)) {
          continue;
        }
        if (foreign
            && (!method.getModifiers().contains(Modifier.PUBLIC)
                || !owner.getModifiers().contains(Modifier.PUBLIC))) {
          env.getMessager()
              .printMessage(
                  Diagnostic.Kind.ERROR,
                  "hand-written conversion "
                      + owner.getQualifiedName()
                      + "."
                      + method.getSimpleName()
                      + " is named in @GenerateConversions(uses = ...) of package "
                      + pkg.getQualifiedName()
                      + " and must be public, in a public class, to be called from it",
                  method);
          continue;
        }
        String key = key(method.getParameters().get(0).asType(), method.getReturnType());
        HandWritten previous =
            found.putIfAbsent(key, new HandWritten(owner.getQualifiedName().toString(), method));
        if (previous != null) {
          env.getMessager()
              .printMessage(
                  Diagnostic.Kind.ERROR,
                  "two hand-written conversions from "
                      + method.getParameters().get(0).asType()
                      + " to "
                      + method.getReturnType()
                      + ": "
                      + previous.owner()
                      + "."
                      + previous.method().getSimpleName()
                      + " and this one",
                  method);
        }
      }
    }
    return found;
  }

  private static boolean isConversionMethod(ExecutableElement method) {
    return method.getModifiers().contains(Modifier.STATIC)
        && !method.getModifiers().contains(Modifier.PRIVATE)
        && method.getSimpleName().toString().startsWith("convert")
        && method.getParameters().size() == 2
        && method.getParameters().get(1).asType().toString().equals(SCOPE)
        && method.getReturnType().getKind() != TypeKind.VOID;
  }

  private void checkHandWrittenNames(Unit unit) {
    for (HandWritten custom : unit.handWritten.values()) {
      TypeElement from = element(custom.method().getParameters().get(0).asType());
      TypeElement to = element(custom.method().getReturnType());
      if (from != null && to != null && isPeer(unit, from, to)) {
        String expected = functionName(unit, from, to);
        if (!custom.method().getSimpleName().contentEquals(expected)) {
          unit.error(
              "hand-written conversion from "
                  + from.getQualifiedName()
                  + " to "
                  + to.getQualifiedName()
                  + " must be named "
                  + expected
                  + ", not "
                  + custom.method().getSimpleName(),
              custom.method());
        }
      }
    }
  }

  private TypeElement element(TypeMirror type) {
    return type.getKind() == TypeKind.DECLARED
        ? (TypeElement) ((DeclaredType) type).asElement()
        : null;
  }

  /** Whether two classes are the versioned and internal forms of one API class. */
  private boolean isPeer(Unit unit, TypeElement a, TypeElement b) {
    if (unit.internal == null || !a.getSimpleName().contentEquals(b.getSimpleName())) {
      return false;
    }
    PackageElement pa = elements.getPackageOf(a);
    PackageElement pb = elements.getPackageOf(b);
    return a.getNestingKind().isNested() == b.getNestingKind().isNested()
        && !a.getNestingKind().isNested()
        && ((pa.equals(unit.pkg) && pb.equals(unit.internal))
            || (pa.equals(unit.internal) && pb.equals(unit.pkg)));
  }

  private String tag(Unit unit, TypeElement type) {
    if (elements.getPackageOf(type).equals(unit.internal)) {
      return "Internal";
    }
    String name = elements.getPackageOf(type).getQualifiedName().toString();
    return ApiClass.capitalize(name.substring(name.lastIndexOf('.') + 1));
  }

  private String functionName(Unit unit, TypeElement from, TypeElement to) {
    return "convert"
        + tag(unit, from)
        + from.getSimpleName()
        + "To"
        + tag(unit, to)
        + to.getSimpleName();
  }

  private static String key(TypeMirror from, TypeMirror to) {
    return from + " -> " + to;
  }

  static final String CONVERTS_PROPERTIES = "dev.machinery.conversion.ConvertsProperties";

  /**
   * The source properties a hand-written conversion declares it converts itself
   * ({@code @ConvertsProperties}); naming a property the source lacks is an error.
   */
  private Set<String> declaredProperties(Unit unit, HandWritten custom, ApiClass from) {
    javax.lang.model.element.AnnotationMirror mirror =
        ConversionProcessor.annotation(custom.method(), CONVERTS_PROPERTIES);
    if (mirror == null) {
      return Set.of();
    }
    Set<String> names = new java.util.LinkedHashSet<>();
    mirror
        .getElementValues()
        .forEach(
            (key, value) -> {
              for (Object item : (List<?>) value.getValue()) {
                String name =
                    String.valueOf(((javax.lang.model.element.AnnotationValue) item).getValue());
                if (!from.properties.containsKey(name)) {
                  unit.error(
                      "@ConvertsProperties of "
                          + custom.owner()
                          + "."
                          + custom.method().getSimpleName()
                          + " names \""
                          + name
                          + "\", which is not a property of "
                          + from.qualifiedName()
                          + "; its properties: "
                          + String.join(", ", from.properties.keySet()),
                      custom.method());
                }
                names.add(name);
              }
            });
    return names;
  }

  /** A property the automatic part cannot convert and the hand-written one does not claim. */
  private void undeclared(
      Unit unit, HandWritten custom, ApiClass from, ApiClass.Property property, String why) {
    unit.error(
        from.simpleName()
            + "."
            + property.name()
            + " ("
            + from.qualifiedName()
            + ") "
            + why
            + " and would be lost; the hand-written "
            + custom.owner()
            + "."
            + custom.method().getSimpleName()
            + " must convert it and say so with @ConvertsProperties({\""
            + property.name()
            + "\", ...}), or mark the property @NotConverted(reason = \"...\")",
        property.element());
  }

  // ---------------------------------------------------------------- functions

  private void deepCopyFunction(Unit unit, ApiClass type, StringBuilder out) {
    String name = type.qualifiedName();
    out.append("  /**\n   * Returns a deep copy of {@code in}.\n   *\n")
        .append("   * @param in the object, or {@code null}\n")
        .append("   * @return the copy, or {@code null} for {@code null}\n   */\n")
        .append("  public static ")
        .append(name)
        .append(" deepCopy(")
        .append(name)
        .append(" in) {\n    if (in == null) {\n      return null;\n    }\n");
    List<String> arguments = new ArrayList<>();
    if (!type.record) {
      out.append("    ").append(name).append(" out = new ").append(name).append("();\n");
    }
    for (ApiClass.Property property : type.properties.values()) {
      String read = "in." + property.getter() + "()";
      Expr copy =
          value(unit, property.type(), property.type(), read, Mode.COPY, property.element());
      if (copy == null) {
        unit.error(
            type.simpleName()
                + "."
                + property.name()
                + ": cannot deep-copy "
                + property.type()
                + ": "
                + unit.problem,
            property.element());
        continue;
      }
      if (type.record) {
        arguments.add(copy.code());
      } else {
        out.append("    out.")
            .append(property.setter())
            .append("(")
            .append(copy.code())
            .append(");\n");
      }
    }
    if (type.record) {
      out.append("    return new ")
          .append(name)
          .append("(")
          .append(String.join(", ", arguments))
          .append(");\n  }\n\n");
    } else {
      out.append("    return out;\n  }\n\n");
    }
  }

  private void pairFunction(Unit unit, ApiClass from, ApiClass to, StringBuilder out) {
    String name = functionName(unit, from.element, to.element);
    HandWritten custom = unit.handWritten.get(key(from.element.asType(), to.element.asType()));
    String handWrittenName =
        custom == null ? null : custom.owner() + "." + custom.method().getSimpleName();
    Map<String, Expr> values = new LinkedHashMap<>();
    List<String> comments = new ArrayList<>();
    Set<String> declared = custom == null ? Set.of() : declaredProperties(unit, custom, from);
    for (ApiClass.Property property : from.properties.values()) {
      Optional<String> reason = property.notConvertedReason();
      if (reason.isPresent()) {
        if (reason.get().isBlank()) {
          unit.error(
              "@NotConverted on "
                  + from.simpleName()
                  + "."
                  + property.name()
                  + " must give a reason",
              property.element());
        }
        comments.add(property.name() + ": not converted (" + reason.get().strip() + ")");
        continue;
      }
      ApiClass.Property counterpart = to.properties.get(property.name());
      if (counterpart == null) {
        if (custom != null && declared.contains(property.name())) {
          comments.add(property.name() + ": no counterpart; converted by " + handWrittenName);
        } else if (custom != null) {
          undeclared(unit, custom, from, property, "has no counterpart in " + to.qualifiedName());
        } else {
          unit.error(
              from.simpleName()
                  + "."
                  + property.name()
                  + " ("
                  + from.qualifiedName()
                  + ") has no counterpart in "
                  + to.qualifiedName()
                  + " and would be lost; write a hand-written conversion "
                  + name
                  + "("
                  + from.simpleName()
                  + " in, ConversionScope scope) in package "
                  + unit.pkg.getQualifiedName()
                  + ", or mark the property @NotConverted(reason = \"...\")",
              property.element());
        }
        continue;
      }
      String read = "in." + property.getter() + "()";
      Expr converted =
          value(unit, property.type(), counterpart.type(), read, Mode.CONVERT, property.element());
      if (converted == null) {
        if (custom != null && declared.contains(property.name())) {
          comments.add(property.name() + ": types differ; converted by " + handWrittenName);
          continue;
        }
        if (custom != null) {
          undeclared(
              unit,
              custom,
              from,
              property,
              "cannot be converted to " + counterpart.type() + " (" + unit.problem + ")");
          continue;
        }
        unit.error(
            from.simpleName()
                + "."
                + property.name()
                + ": no conversion from "
                + property.type()
                + " to "
                + counterpart.type()
                + " ("
                + to.simpleName()
                + "."
                + counterpart.name()
                + "): "
                + unit.problem,
            property.element());
        continue;
      }
      values.put(counterpart.name(), converted);
    }
    boolean mayThrow = values.values().stream().anyMatch(Expr::mayThrow);
    String source = from.qualifiedName();
    String target = to.qualifiedName();
    out.append("  /**\n   * Converts {@code ")
        .append(source)
        .append("} to {@code ")
        .append(target)
        .append("}, property by property")
        .append(
            custom == null
                ? ""
                : " (the properties the hand-written {@code " + handWrittenName + "} builds on)")
        .append(".\n   *\n")
        .append("   * @param in the object, or {@code null}\n")
        .append("   * @param scope the conversion scope\n")
        .append("   * @return the new object, or {@code null} for {@code null}\n   */\n");
    out.append("  public static ")
        .append(target)
        .append(" auto")
        .append(ApiClass.capitalize(name))
        .append("(")
        .append(source)
        .append(" in, ")
        .append(SCOPE)
        .append(" scope) {\n");
    for (String comment : comments) {
      out.append("    // ").append(comment).append('\n');
    }
    out.append("    if (in == null) {\n      return null;\n    }\n");
    String indent = "    ";
    if (mayThrow) {
      out.append("    String field = null;\n    try {\n");
      indent = "      ";
    }
    if (to.record) {
      List<String> arguments = new ArrayList<>();
      int local = 0;
      for (ApiClass.Property component : to.properties.values()) {
        Expr value = values.get(component.name());
        if (value == null) {
          arguments.add(defaultValue(component.type()));
        } else if (value.mayThrow()) {
          String variable = "v" + local++;
          out.append(indent)
              .append("field = \"")
              .append(component.name())
              .append("\";\n")
              .append(indent)
              .append(component.type())
              .append(' ')
              .append(variable)
              .append(" = ")
              .append(value.code())
              .append(";\n");
          arguments.add(variable);
        } else {
          arguments.add(value.code());
        }
      }
      out.append(indent)
          .append("return new ")
          .append(target)
          .append("(")
          .append(String.join(", ", arguments))
          .append(");\n");
    } else {
      out.append(indent).append(target).append(" out = new ").append(target).append("();\n");
      values.forEach(
          (property, value) -> {
            if (value.mayThrow()) {
              out.append("      field = \"").append(property).append("\";\n");
            }
            out.append(mayThrow ? "      " : "    ")
                .append("out.")
                .append(to.properties.get(property).setter())
                .append("(")
                .append(value.code())
                .append(");\n");
          });
      out.append(indent).append("return out;\n");
    }
    if (mayThrow) {
      out.append("    } catch (")
          .append(EXCEPTION)
          .append(" e) {\n      throw field == null ? e : e.within(field);\n    }\n");
    }
    out.append("  }\n\n");
    if (custom == null) {
      out.append("  /**\n   * Converts {@code ")
          .append(source)
          .append("} to {@code ")
          .append(target)
          .append("}.\n   *\n")
          .append("   * @param in the object, or {@code null}\n")
          .append("   * @param scope the conversion scope\n")
          .append("   * @return the new object, or {@code null} for {@code null}\n   */\n")
          .append("  public static ")
          .append(target)
          .append(' ')
          .append(name)
          .append("(")
          .append(source)
          .append(" in, ")
          .append(SCOPE)
          .append(" scope) {\n    return auto")
          .append(ApiClass.capitalize(name))
          .append("(in, scope);\n  }\n\n");
    }
  }

  private void enumFunction(Unit unit, TypeElement from, TypeElement to, StringBuilder out) {
    if (unit.handWritten.containsKey(key(from.asType(), to.asType()))) {
      return;
    }
    Set<String> targetConstants = constants(to);
    List<String> missing = new ArrayList<>();
    StringBuilder cases = new StringBuilder();
    for (String constant : constants(from)) {
      if (!targetConstants.contains(constant)) {
        missing.add(constant);
      }
      cases
          .append("      case ")
          .append(constant)
          .append(":\n        return ")
          .append(to.getQualifiedName())
          .append('.')
          .append(constant)
          .append(";\n");
    }
    String name = functionName(unit, from, to);
    if (!missing.isEmpty()) {
      unit.error(
          "enum "
              + from.getQualifiedName()
              + " has constants with no counterpart in "
              + to.getQualifiedName()
              + ": "
              + String.join(", ", missing)
              + "; they would be lost: write a hand-written conversion "
              + name
              + "("
              + from.getSimpleName()
              + " in, ConversionScope scope) in package "
              + unit.pkg.getQualifiedName(),
          from);
      return;
    }
    out.append("  /**\n   * Converts {@code ")
        .append(from.getQualifiedName())
        .append("} to {@code ")
        .append(to.getQualifiedName())
        .append("} by constant name.\n   *\n")
        .append("   * @param in the constant, or {@code null}\n")
        .append("   * @param scope the conversion scope\n")
        .append("   * @return the constant of the same name, or {@code null} for {@code null}\n")
        .append("   */\n  public static ")
        .append(to.getQualifiedName())
        .append(' ')
        .append(name)
        .append('(')
        .append(from.getQualifiedName())
        .append(" in, ")
        .append(SCOPE)
        .append(" scope) {\n    if (in == null) {\n      return null;\n    }\n")
        .append("    switch (in) {\n")
        .append(cases)
        .append("      default:\n        throw scope.fail(\"\\\"\" + in.name() + \"\\\" has no")
        .append(" counterpart in ")
        .append(to.getQualifiedName())
        .append("\");\n    }\n  }\n\n");
  }

  private static Set<String> constants(TypeElement type) {
    return type.getEnclosedElements().stream()
        .filter(e -> e.getKind() == ElementKind.ENUM_CONSTANT)
        .map(e -> e.getSimpleName().toString())
        .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
  }

  // ---------------------------------------------------------------- values

  /**
   * Returns code that turns {@code expr}, of type {@code from}, into a value of type {@code to}; or
   * null, with the reason in {@code unit.problem}.
   */
  private Expr value(
      Unit unit, TypeMirror from, TypeMirror to, String expr, Mode mode, Element where) {
    if (types.isSameType(from, to) && isImmutable(from, new HashSet<>())) {
      return new Expr(expr, false);
    }
    if (from.getKind().isPrimitive()
        && to.getKind() == TypeKind.DECLARED
        && types.isSameType(types.boxedClass((PrimitiveType) from).asType(), to)) {
      return new Expr(expr, false);
    }
    if (mode == Mode.CONVERT) {
      HandWritten custom = unit.handWritten.get(key(from, to));
      if (custom != null) {
        return new Expr(custom.call(expr), true);
      }
    }
    if (from.getKind() == TypeKind.ARRAY && types.isSameType(from, to)) {
      TypeMirror component = ((ArrayType) from).getComponentType();
      if (component.getKind().isPrimitive()) {
        return new Expr(
            helper(unit, "copyArray", from, to, Mode.COPY, () -> arrayHelper()) + "(" + expr + ")",
            false);
      }
      unit.problem = "arrays of objects are not supported; use a List";
      return null;
    }
    if (from.getKind() != TypeKind.DECLARED || to.getKind() != TypeKind.DECLARED) {
      unit.problem =
          from.getKind().isPrimitive() && to.getKind() == TypeKind.DECLARED
                  || to.getKind().isPrimitive()
              ? "write a hand-written conversion for the pair (for example"
                  + " StandardConversions.convertIntegerToInt, named in @GenerateConversions(uses ="
                  + " ...))"
              : "unsupported type";
      return null;
    }
    TypeElement fromElement = (TypeElement) ((DeclaredType) from).asElement();
    TypeElement toElement = (TypeElement) ((DeclaredType) to).asElement();
    String fromName = fromElement.getQualifiedName().toString();
    String toName = toElement.getQualifiedName().toString();
    if (isCollection(fromName) && fromName.equals(toName)) {
      return collection(unit, (DeclaredType) from, (DeclaredType) to, fromName, expr, mode, where);
    }
    if (types.isSameType(from, to)) {
      PackageElement pkg = elements.getPackageOf(fromElement);
      if (hasDeepCopy(pkg) && ApiClass.of(fromElement, types).isPresent()) {
        String owner =
            pkg.equals(unit.pkg) && unit.className.equals(DEEP_COPY_CLASS)
                ? ""
                : pkg.getQualifiedName() + "." + DEEP_COPY_CLASS + ".";
        return new Expr(owner + "deepCopy(" + expr + ")", false);
      }
      if (hasDeepCopyMethod(fromElement, from)) {
        return new Expr(
            helper(unit, "deepCopyWithMethod", from, to, Mode.COPY, () -> deepCopyMethodHelper())
                + "("
                + expr
                + ")",
            false);
      }
      if (fromName.equals("java.lang.Object")) {
        return new Expr("dev.machinery.conversion.JsonValues.deepCopy(" + expr + ")", false);
      }
      unit.problem =
          fromName
              + " is neither immutable, nor an API class of a package marked @GenerateDeepCopy,"
              + " nor a class with a public deepCopy() method returning its own type";
      return null;
    }
    if (mode == Mode.COPY) {
      unit.problem = "types differ";
      return null;
    }
    if (isPeer(unit, fromElement, toElement)) {
      if (fromElement.getKind() == ElementKind.ENUM && toElement.getKind() == ElementKind.ENUM) {
        return new Expr(functionName(unit, fromElement, toElement) + "(" + expr + ", scope)", true);
      }
      if (ApiClass.of(fromElement, types).isPresent()
          && ApiClass.of(toElement, types).isPresent()) {
        return new Expr(functionName(unit, fromElement, toElement) + "(" + expr + ", scope)", true);
      }
    }
    if (fromName.equals("java.lang.String") && toElement.getKind() == ElementKind.ENUM) {
      return new Expr(
          helper(unit, "convertStringToEnum", from, to, mode, () -> stringToEnum(toElement))
              + "("
              + expr
              + ", scope)",
          true);
    }
    if (fromElement.getKind() == ElementKind.ENUM && toName.equals("java.lang.String")) {
      return new Expr(
          helper(unit, "convertEnumToString", from, to, mode, () -> enumToString())
              + "("
              + expr
              + ", scope)",
          false);
    }
    unit.problem =
        "the classes are not versions of one API class; write a hand-written conversion"
            + " convert"
            + fromElement.getSimpleName()
            + "To"
            + toElement.getSimpleName()
            + "("
            + fromElement.getSimpleName()
            + " in, ConversionScope scope)";
    return null;
  }

  private static boolean isCollection(String name) {
    return name.equals("java.util.List")
        || name.equals("java.util.Set")
        || name.equals("java.util.Map");
  }

  private Expr collection(
      Unit unit,
      DeclaredType from,
      DeclaredType to,
      String kind,
      String expr,
      Mode mode,
      Element where) {
    List<? extends TypeMirror> fromArgs = from.getTypeArguments();
    List<? extends TypeMirror> toArgs = to.getTypeArguments();
    int expected = kind.equals("java.util.Map") ? 2 : 1;
    if (fromArgs.size() != expected || toArgs.size() != expected) {
      unit.problem = "raw " + kind + " is not supported";
      return null;
    }
    for (TypeMirror argument : fromArgs) {
      if (argument.getKind() != TypeKind.DECLARED) {
        unit.problem = "type argument " + argument + " is not supported (wildcard or variable)";
        return null;
      }
    }
    if (expected == 2
        && (!types.isSameType(fromArgs.get(0), toArgs.get(0))
            || !isImmutable(fromArgs.get(0), new HashSet<>()))) {
      unit.problem = "map keys must be of one immutable type on both sides";
      return null;
    }
    TypeMirror fromElement = fromArgs.get(expected - 1);
    TypeMirror toElement = toArgs.get(expected - 1);
    Expr element = value(unit, fromElement, toElement, "item", mode, where);
    if (element == null) {
      return null;
    }
    String simple = kind.substring(kind.lastIndexOf('.') + 1);
    String prefix = (mode == Mode.COPY ? "copy" : "convert") + simple;
    String name =
        helper(
            unit,
            prefix,
            from,
            to,
            mode,
            () -> collectionHelper(kind, from, to, fromElement, toElement, element, mode));
    return new Expr(
        name + "(" + expr + (mode == Mode.CONVERT ? ", scope)" : ")"), element.mayThrow());
  }

  private String collectionHelper(
      String kind,
      DeclaredType from,
      DeclaredType to,
      TypeMirror fromElement,
      TypeMirror toElement,
      Expr element,
      Mode mode) {
    boolean identity = element.code().equals("item");
    boolean map = kind.equals("java.util.Map");
    String implementation =
        map
            ? "java.util.LinkedHashMap"
            : kind.equals("java.util.Set") ? "java.util.LinkedHashSet" : "java.util.ArrayList";
    StringBuilder body = new StringBuilder();
    body.append("    if (in == null) {\n      return null;\n    }\n");
    if (identity) {
      body.append("    return new ").append(implementation).append("<>(in);\n");
      return body.toString();
    }
    body.append("    ")
        .append(to)
        .append(" out = new ")
        .append(implementation)
        .append(map ? "<>(in.size() * 4 / 3 + 1);\n" : "<>(in.size());\n");
    boolean track = element.mayThrow();
    if (map) {
      TypeMirror key = from.getTypeArguments().get(0);
      body.append("    for (java.util.Map.Entry<")
          .append(key)
          .append(", ")
          .append(fromElement)
          .append("> entry : in.entrySet()) {\n      ")
          .append(fromElement)
          .append(" item = entry.getValue();\n");
      if (track) {
        body.append("      try {\n        out.put(entry.getKey(), ")
            .append(element.code())
            .append(");\n      } catch (")
            .append(EXCEPTION)
            .append(" e) {\n        throw e.withinKey(entry.getKey());\n      }\n");
      } else {
        body.append("      out.put(entry.getKey(), ").append(element.code()).append(");\n");
      }
      body.append("    }\n    return out;\n");
      return body.toString();
    }
    if (track) {
      body.append("    int index = 0;\n");
    }
    body.append("    for (").append(fromElement).append(" item : in) {\n");
    if (track) {
      body.append("      try {\n        out.add(")
          .append(element.code())
          .append(");\n      } catch (")
          .append(EXCEPTION)
          .append(" e) {\n        throw e.withinIndex(index);\n      }\n      index++;\n");
    } else {
      body.append("      out.add(").append(element.code()).append(");\n");
    }
    body.append("    }\n    return out;\n");
    return body.toString();
  }

  private static String arrayHelper() {
    return "    return in == null ? null : in.clone();\n";
  }

  private String stringToEnum(TypeElement type) {
    StringBuilder body = new StringBuilder("    if (in == null) {\n      return null;\n    }\n");
    body.append("    switch (in) {\n");
    Set<String> constants = constants(type);
    for (String constant : constants) {
      body.append("      case \"")
          .append(constant)
          .append("\":\n        return ")
          .append(type.getQualifiedName())
          .append('.')
          .append(constant)
          .append(";\n");
    }
    body.append("      default:\n        throw scope.fail(\"\\\"\" + in + \"\\\" is not one of ")
        .append(String.join(", ", constants))
        .append("\");\n    }\n");
    return body.toString();
  }

  private static String enumToString() {
    return "    return in == null ? null : in.name();\n";
  }

  /** Returns the name of a private helper method, writing it the first time it is needed. */
  private String helper(
      Unit unit,
      String prefix,
      TypeMirror from,
      TypeMirror to,
      Mode mode,
      java.util.function.Supplier<String> body) {
    String key = prefix + ":" + from + "->" + to;
    String existing = unit.helperNames.get(key);
    if (existing != null) {
      return existing;
    }
    String name = prefix + unit.helperNames.size();
    unit.helperNames.put(key, name);
    String code = body.get();
    unit.helpers.add(
        "  private static "
            + to
            + " "
            + name
            + "("
            + from
            + " in"
            + (mode == Mode.CONVERT ? ", " + SCOPE + " scope" : "")
            + ") {\n"
            + code
            + "  }\n\n");
    return name;
  }

  /** Whether a class declares or inherits a public {@code T deepCopy()}, Go's DeepCopy hook. */
  private boolean hasDeepCopyMethod(TypeElement element, TypeMirror type) {
    for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(element))) {
      if (method.getSimpleName().contentEquals("deepCopy")
          && method.getParameters().isEmpty()
          && method.getModifiers().contains(Modifier.PUBLIC)
          && !method.getModifiers().contains(Modifier.STATIC)
          && types.isAssignable(method.getReturnType(), types.erasure(type))) {
        return true;
      }
    }
    return false;
  }

  private static String deepCopyMethodHelper() {
    return "    return in == null ? null : in.deepCopy();\n";
  }

  private boolean hasDeepCopy(PackageElement pkg) {
    return ConversionProcessor.annotation(pkg, ConversionProcessor.GENERATE_DEEP_COPY) != null
        || ConversionProcessor.annotation(pkg, ConversionProcessor.GENERATE_CONVERSIONS) != null;
  }

  private boolean isImmutable(TypeMirror type, Set<String> seen) {
    if (type.getKind().isPrimitive()) {
      return true;
    }
    if (type.getKind() != TypeKind.DECLARED) {
      return false;
    }
    TypeElement element = (TypeElement) ((DeclaredType) type).asElement();
    String name = element.getQualifiedName().toString();
    if (element.getKind() == ElementKind.ENUM || IMMUTABLE.contains(name)) {
      return true;
    }
    if (name.startsWith("java.time.") && element.getModifiers().contains(Modifier.FINAL)) {
      return true;
    }
    if (element.getModifiers().contains(Modifier.FINAL)
        && element.getAnnotationMirrors().stream()
            .anyMatch(
                a ->
                    ((TypeElement) a.getAnnotationType().asElement())
                        .getQualifiedName()
                        .contentEquals("dev.machinery.conversion.Immutable"))) {
      return true;
    }
    if (element.getKind() == ElementKind.RECORD && seen.add(name)) {
      for (RecordComponentElement component : element.getRecordComponents()) {
        if (!isImmutable(component.asType(), seen)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  private static String defaultValue(TypeMirror type) {
    switch (type.getKind()) {
      case BOOLEAN:
        return "false";
      case CHAR:
        return "'\\0'";
      case LONG:
        return "0L";
      case FLOAT:
        return "0.0f";
      case DOUBLE:
        return "0.0";
      case BYTE:
        return "(byte) 0";
      case SHORT:
        return "(short) 0";
      case INT:
        return "0";
      default:
        return "null";
    }
  }

  // ---------------------------------------------------------------- output

  private void write(Unit unit, String summary, StringBuilder body, StringBuilder registrations) {
    String pkg = unit.pkg.getQualifiedName().toString();
    StringBuilder source = new StringBuilder();
    source
        .append("package ")
        .append(pkg)
        .append(";\n\n/**\n * ")
        .append(summary)
        .append("\n *\n * <p>Written by machinery-conversion-processor from the classes of this")
        .append(" package; do not edit. Stateless and safe to use from any thread.\n */\n")
        .append("public final class ")
        .append(unit.className)
        .append(" implements dev.machinery.conversion.ConversionRegistration {\n")
        .append("  /** Creates the registration, for {@code Converter.Builder.add}. */\n")
        .append("  public ")
        .append(unit.className)
        .append("() {}\n\n")
        .append("  /**\n   * Registers every function of this class.\n   *\n")
        .append("   * @param builder the builder\n   */\n")
        .append("  @Override\n  public void registerTo(dev.machinery.conversion.Converter.Builder")
        .append(" builder) {\n")
        .append(registrations)
        .append("  }\n\n")
        .append(body);
    unit.helpers.forEach(source::append);
    source.setLength(source.length() - 1);
    source.append("}\n");
    try (Writer writer =
        env.getFiler().createSourceFile(pkg + "." + unit.className, unit.pkg).openWriter()) {
      writer.write(source.toString());
    } catch (IOException e) {
      env.getMessager()
          .printMessage(
              Diagnostic.Kind.ERROR,
              "cannot write " + pkg + "." + unit.className + ": " + e.getMessage(),
              unit.pkg);
    }
  }
}
