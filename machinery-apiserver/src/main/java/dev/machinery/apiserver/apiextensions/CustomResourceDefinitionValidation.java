package dev.machinery.apiserver.apiextensions;

import dev.machinery.apiserver.apiextensions.schema.StructuralSchemas;
import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceColumnDefinition;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinition;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinitionNames;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinitionSpec;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinitionVersion;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceSubresourceScale;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.Validation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules kube-apiserver applies to a CustomResourceDefinition before storing it, with its field
 * paths and messages: the name is {@code <plural>.<group>}, the group a domain, the names DNS
 * labels, the scope {@code Namespaced} or {@code Cluster}, versions unique with exactly one stored,
 * every version's schema given and structural, printer columns, scale paths and selectable fields
 * well formed; on update the scope and group do not change. Stateless; thread-safe.
 */
final class CustomResourceDefinitionValidation {
  private static final List<String> SCOPES = List.of("Cluster", "Namespaced");
  private static final List<String> COLUMN_TYPES =
      List.of("boolean", "date", "integer", "number", "string");

  private CustomResourceDefinitionValidation() {}

  static List<FieldError> validate(Object object, Object previous, ValidationRules rules) {
    CustomResourceDefinition crd = (CustomResourceDefinition) object;
    List<FieldError> errors = new ArrayList<>();
    CustomResourceDefinitionSpec spec = crd.getSpec();
    FieldPath path = FieldPath.of("spec");
    if (spec == null) {
      errors.add(FieldError.required(path, ""));
      return errors;
    }
    CustomResourceDefinitionNames names = spec.names();
    String plural = names == null ? null : names.plural();
    String name = crd.getMetadata() == null ? null : crd.getMetadata().getName();
    if (name != null && !name.equals(plural + "." + spec.group())) {
      errors.add(
          FieldError.invalid(
              FieldPath.of("metadata", "name"),
              name,
              "must be spec.names.plural+\".\"+spec.group"));
    }
    if (empty(spec.group())) {
      errors.add(FieldError.required(path.child("group"), ""));
    } else {
      List<String> problems = Validation.isDNS1123Subdomain(spec.group());
      if (!problems.isEmpty()) {
        errors.add(
            FieldError.invalid(path.child("group"), spec.group(), String.join(",", problems)));
      } else if (spec.group().split("\\.").length < 2) {
        errors.add(
            FieldError.invalid(
                path.child("group"), spec.group(), "should be a domain with at least one dot"));
      }
    }
    if (empty(spec.scope())) {
      errors.add(FieldError.required(path.child("scope"), ""));
    } else if (!spec.scope().equals("Cluster") && !spec.scope().equals("Namespaced")) {
      errors.add(FieldError.notSupported(path.child("scope"), spec.scope(), SCOPES));
    }
    names(names, path.child("names"), errors);
    versions(spec, path, errors);
    if (errors.isEmpty()) {
      validationRules(spec, path, rules, errors);
    }
    if (spec.preserveUnknownFields()) {
      errors.add(
          FieldError.invalid(
              path.child("preserveUnknownFields"),
              true,
              "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in"
                  + " spec.versions[*].schema instead"));
    }
    if (spec.conversion() != null
        && spec.conversion().strategy() != null
        && !spec.conversion().strategy().equals("None")
        && !spec.conversion().strategy().equals("Webhook")) {
      errors.add(
          FieldError.notSupported(
              path.child("conversion").child("strategy"),
              spec.conversion().strategy(),
              List.of("None", "Webhook")));
    }
    errors.addAll(WebhookConversion.validate(spec.conversion(), path.child("conversion")));
    if (previous instanceof CustomResourceDefinition old && old.getSpec() != null) {
      if (old.getSpec().scope() != null && !old.getSpec().scope().equals(spec.scope())) {
        errors.add(FieldError.invalid(path.child("scope"), spec.scope(), "field is immutable"));
      }
      if (old.getSpec().group() != null && !old.getSpec().group().equals(spec.group())) {
        errors.add(FieldError.invalid(path.child("group"), spec.group(), "field is immutable"));
      }
    }
    return errors;
  }

  private static void names(
      CustomResourceDefinitionNames names, FieldPath path, List<FieldError> errors) {
    if (names == null) {
      errors.add(FieldError.required(path, ""));
      return;
    }
    label(names.plural(), path.child("plural"), true, errors);
    label(names.singular(), path.child("singular"), false, errors);
    if (empty(names.kind())) {
      errors.add(FieldError.required(path.child("kind"), ""));
    } else if (!names.kind().matches("[A-Za-z][A-Za-z0-9]*")
        || Validation.isDNS1035Label(names.kind().toLowerCase(java.util.Locale.ROOT)).size() > 0) {
      errors.add(
          FieldError.invalid(
              path.child("kind"),
              names.kind(),
              "may have mixed case, but should otherwise match: " + "[a-z]([-a-z0-9]*[a-z0-9])?"));
    }
    if (!empty(names.listKind()) && names.listKind().equals(names.kind())) {
      errors.add(
          FieldError.invalid(
              path.child("listKind"), names.listKind(), "kind and listKind may not be the same"));
    }
    for (int i = 0; i < names.shortNames().size(); i++) {
      label(names.shortNames().get(i), path.child("shortNames").index(i), true, errors);
    }
    for (int i = 0; i < names.categories().size(); i++) {
      label(names.categories().get(i), path.child("categories").index(i), true, errors);
    }
  }

  private static void label(
      String value, FieldPath path, boolean required, List<FieldError> errors) {
    if (empty(value)) {
      if (required) {
        errors.add(FieldError.required(path, ""));
      }
      return;
    }
    List<String> problems = Validation.isDNS1035Label(value);
    if (!problems.isEmpty()) {
      errors.add(FieldError.invalid(path, value, String.join(",", problems)));
    }
  }

  private static void versions(
      CustomResourceDefinitionSpec spec, FieldPath path, List<FieldError> errors) {
    FieldPath versions = path.child("versions");
    if (spec.versions().isEmpty()) {
      errors.add(
          FieldError.required(versions, "must have exactly one version marked as storage version"));
      return;
    }
    int storage = 0;
    boolean served = false;
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < spec.versions().size(); i++) {
      CustomResourceDefinitionVersion version = spec.versions().get(i);
      FieldPath at = versions.index(i);
      if (empty(version.name())) {
        errors.add(FieldError.required(at.child("name"), ""));
      } else {
        List<String> problems = Validation.isDNS1035Label(version.name());
        if (!problems.isEmpty()) {
          errors.add(
              FieldError.invalid(at.child("name"), version.name(), String.join(",", problems)));
        }
        if (!seen.add(version.name())) {
          errors.add(FieldError.invalid(at.child("name"), version.name(), "must be unique"));
        }
      }
      if (version.storage()) {
        storage++;
      }
      served |= version.served();
      if (version.schema() == null || version.schema().openAPIV3Schema() == null) {
        errors.add(
            FieldError.required(
                at.child("schema").child("openAPIV3Schema"), "schemas are required"));
      } else {
        errors.addAll(
            StructuralSchemas.check(
                version.schema().openAPIV3Schema(), at.child("schema").child("openAPIV3Schema")));
      }
      columns(version.additionalPrinterColumns(), at.child("additionalPrinterColumns"), errors);
      if (version.subresources() != null && version.subresources().scale() != null) {
        scale(version.subresources().scale(), at.child("subresources").child("scale"), errors);
      }
      for (int j = 0; j < version.selectableFields().size(); j++) {
        FieldPath field = at.child("selectableFields").index(j).child("jsonPath");
        String jsonPath = version.selectableFields().get(j).jsonPath();
        jsonPath(jsonPath, field, true, errors);
      }
    }
    if (storage != 1) {
      errors.add(
          FieldError.invalid(
              versions,
              storage + " versions",
              "must have exactly one version marked as storage version"));
    }
    if (!served) {
      errors.add(FieldError.invalid(versions, "", "must have at least one served version"));
    }
  }

  /**
   * The CEL rules of every version's schema, checked once a schema is structural. As
   * kube-apiserver's internal version holds a schema every version shares once, in {@code
   * spec.validation}, the errors of such a schema are reported there.
   */
  private static void validationRules(
      CustomResourceDefinitionSpec spec,
      FieldPath path,
      ValidationRules rules,
      List<FieldError> errors) {
    List<CustomResourceDefinitionVersion> versions = spec.versions();
    boolean shared =
        versions.stream()
            .allMatch(
                v ->
                    v.schema()
                        .openAPIV3Schema()
                        .equals(versions.get(0).schema().openAPIV3Schema()));
    if (shared) {
      errors.addAll(
          rules.check(
              versions.get(0).schema().openAPIV3Schema(),
              path.child("validation").child("openAPIV3Schema")));
      return;
    }
    for (int i = 0; i < versions.size(); i++) {
      errors.addAll(
          rules.check(
              versions.get(i).schema().openAPIV3Schema(),
              path.child("versions").index(i).child("schema").child("openAPIV3Schema")));
    }
  }

  private static void columns(
      List<CustomResourceColumnDefinition> columns, FieldPath path, List<FieldError> errors) {
    for (int i = 0; i < columns.size(); i++) {
      CustomResourceColumnDefinition column = columns.get(i);
      FieldPath at = path.index(i);
      if (empty(column.name())) {
        errors.add(FieldError.required(at.child("name"), ""));
      }
      if (empty(column.type())) {
        errors.add(FieldError.required(at.child("type"), ""));
      } else if (!COLUMN_TYPES.contains(column.type())) {
        errors.add(FieldError.notSupported(at.child("type"), column.type(), COLUMN_TYPES));
      }
      if (empty(column.jsonPath())) {
        errors.add(FieldError.required(at.child("jsonPath"), ""));
      } else {
        jsonPath(column.jsonPath(), at.child("jsonPath"), false, errors);
      }
    }
  }

  private static void scale(
      CustomResourceSubresourceScale scale, FieldPath path, List<FieldError> errors) {
    if (empty(scale.specReplicasPath())) {
      errors.add(FieldError.required(path.child("specReplicasPath"), ""));
    } else if (!scale.specReplicasPath().startsWith(".spec.")) {
      errors.add(
          FieldError.invalid(
              path.child("specReplicasPath"),
              scale.specReplicasPath(),
              "should be a json path under .spec"));
    } else {
      jsonPath(scale.specReplicasPath(), path.child("specReplicasPath"), true, errors);
    }
    if (empty(scale.statusReplicasPath())) {
      errors.add(FieldError.required(path.child("statusReplicasPath"), ""));
    } else if (!scale.statusReplicasPath().startsWith(".status.")) {
      errors.add(
          FieldError.invalid(
              path.child("statusReplicasPath"),
              scale.statusReplicasPath(),
              "should be a json path under .status"));
    } else {
      jsonPath(scale.statusReplicasPath(), path.child("statusReplicasPath"), true, errors);
    }
    if (!empty(scale.labelSelectorPath())) {
      jsonPath(scale.labelSelectorPath(), path.child("labelSelectorPath"), true, errors);
    }
  }

  private static void jsonPath(
      String text, FieldPath path, boolean fieldsOnly, List<FieldError> errors) {
    try {
      JsonPath parsed = JsonPath.parse(text);
      if (fieldsOnly) {
        parsed.fields();
      }
    } catch (IllegalArgumentException e) {
      errors.add(FieldError.invalid(path, text, e.getMessage()));
    }
  }

  private static boolean empty(String text) {
    return text == null || text.isEmpty();
  }
}
