package dev.machinery.builtins;

import dev.machinery.apiserver.negotiation.TableConvertor;
import dev.machinery.unversioned.meta.v1.TableColumnDefinition;
import java.util.List;
import java.util.function.Supplier;

/** A Table whose columns are made on first use, so that a server starts without making them. */
final class LazyTable implements TableConvertor {
  private final Lazy<TableConvertor> table;

  LazyTable(Supplier<TableConvertor> make) {
    this.table = new Lazy<>(make);
  }

  @Override
  public List<TableColumnDefinition> columns() {
    return table.get().columns();
  }

  @Override
  public List<Object> cells(Object object) {
    return table.get().cells(object);
  }

  @Override
  public TableConvertor forVersion(dev.machinery.core.schema.GroupVersion version) {
    TableConvertor made = table.get();
    TableConvertor versioned = made.forVersion(version);
    return versioned == made ? this : versioned;
  }
}
