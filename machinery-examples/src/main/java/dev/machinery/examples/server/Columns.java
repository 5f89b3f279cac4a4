package dev.machinery.examples.server;

import dev.machinery.apiserver.negotiation.TableConvertor;
import dev.machinery.unversioned.meta.v1.TableColumnDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A {@link TableConvertor} made of named columns, each a function of the object: how a kind
 * modelled in Java (the sample's Rollout) gets columns as kube-apiserver's printers give
 * Kubernetes' kinds. Immutable; thread-safe.
 *
 * @param <T> the class of the objects
 */
final class Columns<T> implements TableConvertor {
  private final Function<Object, T> view;
  private final List<TableColumnDefinition> definitions = new ArrayList<>();
  private final List<Function<T, Object>> cells = new ArrayList<>();

  private Columns(Function<Object, T> view) {
    this.view = view;
  }

  /** Columns over objects seen through a view (a cast, or a conversion to one version). */
  static <T> Columns<T> of(Function<Object, T> view) {
    return new Columns<>(view);
  }

  Columns<T> add(
      String name, String kind, int priority, String description, Function<T, Object> cell) {
    TableColumnDefinition definition = new TableColumnDefinition();
    definition.setName(name);
    definition.setType(kind);
    definition.setFormat(name.equals("Name") ? "name" : "");
    definition.setDescription(description);
    definition.setPriority(priority);
    definitions.add(definition);
    cells.add(cell);
    return this;
  }

  @Override
  public List<TableColumnDefinition> columns() {
    return List.copyOf(definitions);
  }

  @Override
  public List<Object> cells(Object object) {
    T typed = view.apply(object);
    List<Object> row = new ArrayList<>(cells.size());
    for (Function<T, Object> cell : cells) {
      row.add(cell.apply(typed));
    }
    return row;
  }
}
