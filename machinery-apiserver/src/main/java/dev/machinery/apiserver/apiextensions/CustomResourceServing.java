package dev.machinery.apiserver.apiextensions;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.apiextensions.schema.StructuralSchema;
import dev.machinery.apiserver.apiextensions.schema.ValidationRules;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceColumnDefinition;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinition;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinitionNames;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinitionSpec;
import dev.machinery.apiserver.apiextensions.v1.CustomResourceDefinitionVersion;
import dev.machinery.apiserver.apiextensions.v1.SelectableField;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.apiserver.registry.rest.UnstructuredConversion;
import dev.machinery.core.codec.FieldProblem;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.typed.OpenApiSchemas;
import dev.machinery.core.typed.SchemaType;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.validation.FieldError;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How one established CustomResourceDefinition is served: its {@link ResourceDefinition} (names,
 * scope, subresources, Table, selectable fields, and its schemas' pruning, defaulting and
 * validation), its storage version and its served versions, most preferred first. Immutable;
 * thread-safe.
 */
final class CustomResourceServing {
  private static final ObjectMapper TREES = new ObjectMapper();
  private final ResourceDefinition definition;
  private final GroupVersion storageVersion;
  private final List<GroupVersion> servedVersions;

  private CustomResourceServing(
      ResourceDefinition definition, GroupVersion storageVersion, List<GroupVersion> served) {
    this.definition = definition;
    this.storageVersion = storageVersion;
    this.servedVersions = served;
  }

  static CustomResourceServing of(
      CustomResourceDefinition crd, ValidationRules rules, UnstructuredConversion conversion) {
    CustomResourceDefinitionSpec spec = crd.getSpec();
    CustomResourceDefinitionNames names = spec.names();
    Map<String, StructuralSchema> schemas = new HashMap<>();
    Map<String, ValidationRules.Validator> validators = new HashMap<>();
    Map<String, SchemaType> applySchemas = new HashMap<>();
    CustomResourceDefinitionVersion storage = null;
    List<CustomResourceDefinitionVersion> served = new ArrayList<>();
    for (CustomResourceDefinitionVersion version : spec.versions()) {
      if (version.schema() != null && version.schema().openAPIV3Schema() != null) {
        String apiVersion = GroupVersion.of(spec.group(), version.name()).toString();
        schemas.put(apiVersion, StructuralSchema.of(version.schema().openAPIV3Schema()));
        validators.put(apiVersion, rules.compile(version.schema().openAPIV3Schema()));
        applySchema(names.kind(), version).ifPresent(t -> applySchemas.put(apiVersion, t));
      }
      if (version.storage()) {
        storage = version;
      }
      if (version.served()) {
        served.add(version);
      }
    }
    if (storage == null) {
      throw new IllegalArgumentException(
          "CustomResourceDefinition " + crd.getMetadata().getName() + " has no storage version");
    }
    Map<String, List<CustomResourceColumnDefinition>> columns = new HashMap<>();
    for (CustomResourceDefinitionVersion version : served) {
      columns.put(version.name(), version.additionalPrinterColumns());
    }
    ResourceDefinition.Builder builder =
        ResourceDefinition.builder(
                GroupKind.of(spec.group(), names.kind()), "Namespaced".equals(spec.scope()))
            .resource(names.plural())
            .shortNames(names.shortNames().toArray(String[]::new))
            .categories(names.categories().toArray(String[]::new))
            .tracksGeneration()
            .conversion(conversion)
            .applySchemas(applySchemas::get)
            .table(PrinterColumns.byVersion(columns, storage.additionalPrinterColumns()))
            .normalizer(
                object -> {
                  Unstructured u = (Unstructured) object;
                  StructuralSchema schema = schemas.get(u.getApiVersion());
                  if (schema == null) {
                    return List.of();
                  }
                  List<FieldProblem> pruned = new ArrayList<>();
                  List<String> dropped = new ArrayList<>(schema.prune(u.content()));
                  dropped.addAll(StructuralSchema.pruneMetadata(u.content()));
                  for (String path : dropped) {
                    pruned.add(new FieldProblem(FieldProblem.Type.UNKNOWN_FIELD, path));
                  }
                  schema.applyDefaults(u.content());
                  schema.pruneNonNullableNulls(u.content());
                  return pruned;
                })
            .readDefaults(
                object -> {
                  Unstructured u = (Unstructured) object;
                  StructuralSchema schema = schemas.get(u.getApiVersion());
                  if (schema != null) {
                    schema.applyDefaults(u.content());
                  }
                })
            .validator(
                (object, old) -> {
                  Unstructured u = (Unstructured) object;
                  StructuralSchema schema = schemas.get(u.getApiVersion());
                  if (schema == null) {
                    return List.of();
                  }
                  Map<String, Object> previous =
                      old == null ? null : ((Unstructured) old).content();
                  // Ratcheting: what an update leaves unchanged is not refused again.
                  List<FieldError> errors =
                      new ArrayList<>(
                          Ratcheting.ratchet(schema.validate(u.content()), u.content(), previous));
                  if (errors.isEmpty()) {
                    // As kube-apiserver: CEL rules run on objects the schema's own checks pass.
                    errors.addAll(
                        Ratcheting.ratchet(
                            validators.get(u.getApiVersion()).validate(u.content(), previous),
                            u.content(),
                            previous));
                  }
                  return errors;
                });
    if (names.singular() != null && !names.singular().isEmpty()) {
      builder.singular(names.singular());
    }
    if (storage.subresources() != null) {
      if (storage.subresources().status() != null) {
        builder.statusSubresource();
      }
      if (storage.subresources().scale() != null) {
        builder.scaleSubresource(
            Unstructured.class, new UnstructuredScale(storage.subresources().scale()));
      }
    }
    for (SelectableField field : storage.selectableFields()) {
      JsonPath path = JsonPath.parse(field.jsonPath());
      String label = String.join(".", path.fields());
      builder.fieldLabel(
          label,
          object -> {
            List<Object> found = path.find(((Unstructured) object).content());
            return found.isEmpty() || found.get(0) == null ? "" : String.valueOf(found.get(0));
          });
    }
    served.sort(Comparator.comparing(CustomResourceDefinitionVersion::name, VERSION_PRIORITY));
    List<GroupVersion> versions = new ArrayList<>();
    served.forEach(v -> versions.add(GroupVersion.of(spec.group(), v.name())));
    return new CustomResourceServing(
        builder.build(), GroupVersion.of(spec.group(), storage.name()), List.copyOf(versions));
  }

  /**
   * The schema server-side apply reads a version's objects by: its {@code openAPIV3Schema} with the
   * fields every object has (apiVersion, kind, and metadata, whose fields are kept as they come),
   * as kube-apiserver completes it; empty, so that objects are read by their values, when the
   * schema cannot be converted.
   */
  private static Optional<SchemaType> applySchema(
      String kind, CustomResourceDefinitionVersion version) {
    try {
      ObjectNode schema = TREES.valueToTree(version.schema().openAPIV3Schema());
      ObjectNode properties =
          schema.get("properties") instanceof ObjectNode declared
              ? declared
              : schema.putObject("properties");
      properties.putObject("apiVersion").put("type", "string");
      properties.putObject("kind").put("type", "string");
      properties
          .putObject("metadata")
          .put("type", "object")
          .put("x-kubernetes-preserve-unknown-fields", true);
      String name = kind + "." + version.name();
      return Optional.of(OpenApiSchemas.fromSchema(name, schema, false).type(name));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  ResourceDefinition definition() {
    return definition;
  }

  GroupVersion storageVersion() {
    return storageVersion;
  }

  List<GroupVersion> servedVersions() {
    return servedVersions;
  }

  /**
   * Kubernetes' version priority: GA before beta before alpha, higher major and minor first, and
   * versions of no such form last, alphabetically.
   */
  static final Comparator<String> VERSION_PRIORITY =
      (a, b) -> {
        long[] x = parse(a);
        long[] y = parse(b);
        if (x == null && y == null) {
          return a.compareTo(b);
        }
        if (x == null) {
          return 1;
        }
        if (y == null) {
          return -1;
        }
        if (x[1] != y[1]) {
          return Long.compare(y[1], x[1]);
        }
        if (x[0] != y[0]) {
          return Long.compare(y[0], x[0]);
        }
        return Long.compare(y[2], x[2]);
      };

  /** {major, level (2 GA, 1 beta, 0 alpha), minor}, or null. */
  private static long[] parse(String version) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("^v(\\d+)(?:(alpha|beta)(\\d+))?$").matcher(version);
    if (!m.matches()) {
      return null;
    }
    long major = Long.parseLong(m.group(1));
    long level = m.group(2) == null ? 2 : m.group(2).equals("beta") ? 1 : 0;
    long minor = m.group(3) == null ? 0 : Long.parseLong(m.group(3));
    return new long[] {major, level, minor};
  }
}
