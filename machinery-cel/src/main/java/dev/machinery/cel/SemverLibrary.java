package dev.machinery.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * Kubernetes' {@code semver} CEL library, at the version Kubernetes 1.33 declares (with the
 * normalizing overloads): {@code semver(s)}, {@code semver(s, normalize)}, {@code isSemver(s)},
 * {@code isSemver(s, normalize)}, {@code major}, {@code minor}, {@code patch}, {@code compareTo},
 * {@code isGreaterThan}, {@code isLessThan}. Stateless.
 */
final class SemverLibrary {
  static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");

  private SemverLibrary() {}

  static List<CelFunctionDecl> declarations() {
    CelType bool = SimpleType.BOOL;
    CelType string = SimpleType.STRING;
    return List.of(
        fn(
            "semver",
            CelOverloadDecl.newGlobalOverload("string_to_semver", SEMVER, string),
            CelOverloadDecl.newGlobalOverload("string_bool_to_semver", SEMVER, string, bool)),
        fn(
            "isSemver",
            CelOverloadDecl.newGlobalOverload("is_semver_string", bool, string),
            CelOverloadDecl.newGlobalOverload("is_semver_string_bool", bool, string, bool)),
        fn(
            "isGreaterThan",
            CelOverloadDecl.newMemberOverload("semver_is_greater_than", bool, SEMVER, SEMVER)),
        fn(
            "isLessThan",
            CelOverloadDecl.newMemberOverload("semver_is_less_than", bool, SEMVER, SEMVER)),
        fn(
            "compareTo",
            CelOverloadDecl.newMemberOverload("semver_compare_to", SimpleType.INT, SEMVER, SEMVER)),
        fn("major", CelOverloadDecl.newMemberOverload("semver_major", SimpleType.INT, SEMVER)),
        fn("minor", CelOverloadDecl.newMemberOverload("semver_minor", SimpleType.INT, SEMVER)),
        fn("patch", CelOverloadDecl.newMemberOverload("semver_patch", SimpleType.INT, SEMVER)));
  }

  private static CelFunctionDecl fn(String name, CelOverloadDecl... overloads) {
    return CelFunctionDecl.newFunctionDeclaration(name, overloads);
  }

  static List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_to_semver", String.class, s -> semver(s, false)),
        CelFunctionBinding.from(
            "string_bool_to_semver", String.class, Boolean.class, SemverLibrary::semver),
        CelFunctionBinding.from("is_semver_string", String.class, s -> isSemver(s, false)),
        CelFunctionBinding.from(
            "is_semver_string_bool", String.class, Boolean.class, SemverLibrary::isSemver),
        CelFunctionBinding.from(
            "semver_is_greater_than", Semver.class, Semver.class, (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from(
            "semver_is_less_than", Semver.class, Semver.class, (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from(
            "semver_compare_to", Semver.class, Semver.class, (a, b) -> (long) a.compareTo(b)),
        CelFunctionBinding.from("semver_major", Semver.class, Semver::major),
        CelFunctionBinding.from("semver_minor", Semver.class, Semver::minor),
        CelFunctionBinding.from("semver_patch", Semver.class, Semver::patch));
  }

  private static Semver semver(String text, boolean normalize) throws CelEvaluationException {
    try {
      return normalize ? Semver.parseNormalized(text) : Semver.parse(text);
    } catch (Semver.ParseException e) {
      throw new CelEvaluationException(e.getMessage());
    }
  }

  private static boolean isSemver(String text, boolean normalize) {
    try {
      semver(text, normalize);
      return true;
    } catch (CelEvaluationException e) {
      return false;
    }
  }
}
