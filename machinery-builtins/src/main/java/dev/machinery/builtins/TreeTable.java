package dev.machinery.builtins;

import dev.machinery.apiserver.negotiation.TableConvertor;
import dev.machinery.unversioned.meta.v1.TableColumnDefinition;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A Table of objects held as JSON trees: named columns, each with its type, priority (0 for {@code
 * kubectl get}, 1 for {@code -o wide}) and the function that makes its cell from the object.
 * Immutable once built; thread-safe.
 */
final class TreeTable implements TableConvertor {
  private record Column(
      String name,
      String type,
      String format,
      int priority,
      String description,
      Function<Map<String, Object>, Object> cell) {}

  private final List<Column> columns = new ArrayList<>();
  private UnaryOperator<Map<String, Object>> view = UnaryOperator.identity();

  private TreeTable() {}

  /** A table whose first column is the object's name. */
  static TreeTable named() {
    TreeTable table = new TreeTable();
    table.columns.add(
        new Column(
            "Name",
            "string",
            "name",
            0,
            "Name must be unique within a namespace. Is required when creating resources, although"
                + " some resources may allow a client to request the generation of an appropriate"
                + " name automatically. Name is primarily intended for creation idempotence and"
                + " configuration definition. Cannot be updated. More info:"
                + " https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
            o -> JsonTrees.string(o, "", "metadata", "name")));
    return table;
  }

  /** A table without the name column, for kinds whose name is not their first column. */
  static TreeTable unnamed() {
    return new TreeTable();
  }

  TreeTable add(
      String name,
      String type,
      int priority,
      String description,
      Function<Map<String, Object>, Object> cell) {
    columns.add(new Column(name, type, "", priority, description, cell));
    return this;
  }

  /**
   * The wide columns of a kind that holds a pod template: its containers' names and images, and
   * (when {@code selectorPath} is given) its pod selector.
   */
  TreeTable templateColumns(String[] podSpecPath, String... selectorPath) {
    add(
        "Containers",
        "string",
        1,
        "Names of each container in the template.",
        o -> Cells.containerNames(o, podSpecPath));
    add(
        "Images",
        "string",
        1,
        "Images referenced by each container in the template.",
        o -> Cells.images(o, podSpecPath));
    if (selectorPath.length > 0) {
      add(
          "Selector",
          "string",
          1,
          "The label selector for the pods.",
          o -> Cells.selector(o, selectorPath));
    }
    return this;
  }

  /**
   * Makes the cells of each object from another view of its fields, such as an {@code
   * events.k8s.io} Event read with the core Event's names.
   */
  TreeTable viewing(UnaryOperator<Map<String, Object>> view) {
    this.view = view;
    return this;
  }

  TreeTable name(int priority) {
    columns.add(
        new Column(
            "Name",
            "string",
            "name",
            priority,
            "Name must be unique within a namespace.",
            o -> JsonTrees.string(o, "", "metadata", "name")));
    return this;
  }

  TreeTable age() {
    return add(
        "Age",
        "string",
        0,
        "CreationTimestamp is a timestamp representing the server time when this object was"
            + " created.",
        Cells::age);
  }

  @Override
  public List<TableColumnDefinition> columns() {
    List<TableColumnDefinition> out = new ArrayList<>();
    for (Column column : columns) {
      TableColumnDefinition definition = new TableColumnDefinition();
      definition.setName(column.name());
      definition.setType(column.type());
      definition.setFormat(column.format());
      definition.setDescription(column.description());
      definition.setPriority(column.priority());
      out.add(definition);
    }
    return out;
  }

  @Override
  public List<Object> cells(Object object) {
    Map<String, Object> tree = view.apply(((Unstructured) object).content());
    List<Object> cells = new ArrayList<>();
    for (Column column : columns) {
      cells.add(column.cell().apply(tree));
    }
    return cells;
  }
}
