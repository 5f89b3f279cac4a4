package dev.machinery.apiserver.negotiation;

import dev.machinery.unversioned.meta.v1.TableColumnDefinition;
import java.util.List;

/**
 * The columns of a kind in {@code as=Table}, and the cells of one object: registered by the
 * embedding server per kind ({@code kubectl get}'s columns). Kinds without one get name and
 * creation time. Implementations are stateless and safe to call from any thread; a row must come
 * from the object's fields, never from encoding it.
 */
public interface TableConvertor {
  /**
   * Returns the column definitions.
   *
   * @return the columns
   */
  List<TableColumnDefinition> columns();

  /**
   * Returns one object's cells, in column order: strings, numbers, booleans or {@code null}.
   *
   * @param object the object
   * @return the cells
   */
  List<Object> cells(Object object);

  /**
   * Returns the Table of one version of the kind, for kinds whose versions print differently (a
   * CustomResourceDefinition gives each version its own columns); this one by default.
   *
   * @param version the version the objects are in
   * @return the convertor of that version
   */
  default TableConvertor forVersion(dev.machinery.core.schema.GroupVersion version) {
    return this;
  }
}
