package dev.machinery.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.OptionalType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Kubernetes' {@code format} CEL library: {@code format.named(name)} (an optional format, empty for
 * an unknown name), {@code format.<name>()} for each of {@link NamedFormat#FORMATS}, and {@code
 * <format>.validate(value)}, an optional list of what is wrong with the value, empty when nothing
 * is. Stateless.
 */
final class FormatLibrary {
  static final OpaqueType FORMAT = OpaqueType.create("kubernetes.NamedFormat");

  private FormatLibrary() {}

  static List<CelFunctionDecl> declarations() {
    List<CelFunctionDecl> out = new ArrayList<>();
    out.add(
        CelFunctionDecl.newFunctionDeclaration(
            "validate",
            CelOverloadDecl.newMemberOverload(
                "format-validate",
                OptionalType.create(ListType.create(SimpleType.STRING)),
                FORMAT,
                SimpleType.STRING)));
    out.add(
        CelFunctionDecl.newFunctionDeclaration(
            "format.named",
            CelOverloadDecl.newGlobalOverload(
                "format-named", OptionalType.create(FORMAT), SimpleType.STRING)));
    for (String name : NamedFormat.FORMATS.keySet()) {
      out.add(
          CelFunctionDecl.newFunctionDeclaration(
              "format." + name,
              CelOverloadDecl.newGlobalOverload("format." + name, FORMAT, List.of())));
    }
    return out;
  }

  static List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> out = new ArrayList<>();
    out.add(
        CelFunctionBinding.from(
            "format-validate",
            NamedFormat.class,
            String.class,
            (format, value) -> {
              List<String> errors = format.validate(value);
              return errors.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(errors));
            }));
    out.add(
        CelFunctionBinding.from(
            "format-named",
            String.class,
            name -> Optional.ofNullable(NamedFormat.FORMATS.get(name))));
    for (NamedFormat format : NamedFormat.FORMATS.values()) {
      out.add(CelFunctionBinding.from("format." + format.function(), List.of(), args -> format));
    }
    return out;
  }
}
