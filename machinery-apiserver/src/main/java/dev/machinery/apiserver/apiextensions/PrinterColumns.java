package dev.machinery.apiserver.apiextensions;

import dev.machinery.apiserver.apiextensions.v1.CustomResourceColumnDefinition;
import dev.machinery.apiserver.negotiation.Ages;
import dev.machinery.apiserver.negotiation.TableConvertor;
import dev.machinery.unversioned.meta.v1.TableColumnDefinition;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A custom resource's Table: {@code Name}, then its {@code additionalPrinterColumns} (or {@code
 * Age} when it has none), each cell the first value its JSONPath finds, typed as the column says.
 * Immutable; thread-safe.
 */
final class PrinterColumns implements TableConvertor {
  private static final String NAME_DESCRIPTION =
      "Name must be unique within a namespace. Is required when creating resources, although some"
          + " resources may allow a client to request the generation of an appropriate name"
          + " automatically. Name is primarily intended for creation idempotence and configuration"
          + " definition. Cannot be updated. More info:"
          + " https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  private final List<CustomResourceColumnDefinition> columns;
  private final List<JsonPath> paths;

  /** The columns of each served version, by version name; others print as {@code fallback}. */
  private final Map<String, PrinterColumns> versions;

  /**
   * A Table whose columns are each version's own, as kube-apiserver prints a custom resource in the
   * version it is asked for.
   *
   * @param byVersion each version's columns, by version name
   * @param fallback the columns of a version not named (the storage version's)
   */
  static PrinterColumns byVersion(
      Map<String, List<CustomResourceColumnDefinition>> byVersion,
      List<CustomResourceColumnDefinition> fallback) {
    Map<String, PrinterColumns> versions = new java.util.HashMap<>();
    byVersion.forEach((version, columns) -> versions.put(version, new PrinterColumns(columns)));
    return new PrinterColumns(fallback, Map.copyOf(versions));
  }

  @Override
  public TableConvertor forVersion(dev.machinery.core.schema.GroupVersion version) {
    return versions.getOrDefault(version.version(), this);
  }

  PrinterColumns(List<CustomResourceColumnDefinition> given) {
    this(given, Map.of());
  }

  private PrinterColumns(
      List<CustomResourceColumnDefinition> given, Map<String, PrinterColumns> versions) {
    this.versions = versions;
    List<CustomResourceColumnDefinition> columns =
        given.isEmpty()
            ? List.of(
                new CustomResourceColumnDefinition(
                    "Age",
                    "date",
                    null,
                    "CreationTimestamp is a timestamp representing the server time when this"
                        + " object was created.",
                    0,
                    ".metadata.creationTimestamp"))
            : given;
    this.columns = List.copyOf(columns);
    List<JsonPath> paths = new ArrayList<>();
    columns.forEach(c -> paths.add(JsonPath.parse(c.jsonPath())));
    this.paths = List.copyOf(paths);
  }

  @Override
  public List<TableColumnDefinition> columns() {
    List<TableColumnDefinition> out = new ArrayList<>();
    TableColumnDefinition name = new TableColumnDefinition();
    name.setName("Name");
    name.setType("string");
    name.setFormat("name");
    name.setDescription(NAME_DESCRIPTION);
    name.setPriority(0);
    out.add(name);
    for (CustomResourceColumnDefinition column : columns) {
      TableColumnDefinition definition = new TableColumnDefinition();
      definition.setName(column.name());
      definition.setType(column.type());
      definition.setFormat(column.format() == null ? "" : column.format());
      definition.setDescription(column.description() == null ? "" : column.description());
      definition.setPriority(column.priority());
      out.add(definition);
    }
    return out;
  }

  @Override
  public List<Object> cells(Object object) {
    Unstructured u = (Unstructured) object;
    List<Object> cells = new ArrayList<>();
    cells.add(u.getName());
    for (int i = 0; i < columns.size(); i++) {
      List<Object> found = paths.get(i).find(u.content());
      cells.add(found.isEmpty() ? null : cell(columns.get(i).type(), found.get(0)));
    }
    return cells;
  }

  private static Object cell(String type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type) {
      case "integer":
        return value instanceof Number n ? (Object) n.longValue() : null;
      case "number":
        return value instanceof Number n ? (Object) n.doubleValue() : null;
      case "boolean":
        return value instanceof Boolean ? value : null;
      case "date":
        // As kube-apiserver's custom resource tables: a time is shown as its age.
        if (value instanceof String text) {
          try {
            return Ages.since(dev.machinery.unversioned.meta.v1.Rfc3339.parse(text));
          } catch (java.time.format.DateTimeParseException e) {
            return text;
          }
        }
        return String.valueOf(value);
      default:
        return value instanceof String || value instanceof Number || value instanceof Boolean
            ? value.toString()
            : jsonText(value);
    }
  }

  /** A list or map cell as JSON text, as kubectl shows it. */
  private static String jsonText(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return String.valueOf(value);
    }
  }
}
