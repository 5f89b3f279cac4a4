package dev.machinery.apiserver.negotiation;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Rfc3339;
import dev.machinery.unversioned.meta.v1.Table;
import dev.machinery.unversioned.meta.v1.TableColumnDefinition;
import dev.machinery.unversioned.meta.v1.TableRow;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@code Table} transform: an object or list as rows of the columns a server registered for its
 * kind (name and creation time when it registered none), each row carrying the object, its metadata
 * or nothing as {@code includeObject} asks; and a table as RFC 4180 CSV. Safe for concurrent use.
 */
final class Tables {
  private final Map<GroupKind, TableConvertor> convertors;
  private final Function<GroupKind, TableConvertor> more;
  private final ObjectParts parts;
  private final Codec json;
  private final Function<Object, GroupVersionKind> kindOf;

  Tables(
      Map<GroupKind, TableConvertor> convertors,
      Function<GroupKind, TableConvertor> more,
      ObjectParts parts,
      Codec json,
      Function<Object, GroupVersionKind> kindOf) {
    this.convertors = Map.copyOf(convertors);
    this.more = more;
    this.parts = parts;
    this.json = json;
    this.kindOf = kindOf;
  }

  /** What a row's metadata is remembered under ({@link ItemMemo}). */
  private static final Object ROW_METADATA = "table row metadata";

  /** What a row's metadata, encoded as compact JSON, is remembered under ({@link ItemMemo}). */
  private static final Object ROW_METADATA_JSON = "table row metadata, JSON";

  /**
   * An object or list as a table.
   *
   * @param object the object or list
   * @param include what each row carries: {@code None}, {@code Metadata} or {@code Object}
   * @param memo where values computed from items are remembered
   * @param compactJson whether the table is to be encoded as compact JSON only: each row's metadata
   *     is then encoded once per object (remembered in the memo) and written into the table as it
   *     is, not serialized again for every table
   */
  Table table(Object object, String include, ItemMemo memo, boolean compactJson) {
    List<Object> items = parts.items(object);
    List<Object> rows = items == null ? List.of(object) : items;
    GroupKind kind = kindOf.apply(object).groupKind();
    if (items != null && kind.kind().endsWith("List")) {
      // The columns of a list are its items' (an empty list still gets them).
      kind = GroupKind.of(kind.group(), kind.kind().substring(0, kind.kind().length() - 4));
    }
    TableConvertor convertor = convertors.get(kind);
    if (convertor == null) {
      convertor = more.apply(kind);
    }
    if (convertor == null) {
      convertor = defaultTable(memo);
    }
    convertor = convertor.forVersion(kindOf.apply(object).groupVersion());
    Table table = new Table();
    table.setApiVersion(MetaV1.META_V1.toString());
    table.setKind("Table");
    ListMeta listMeta = items == null ? null : parts.listMetaOf(object);
    if (listMeta != null) {
      table.setMetadata(listMeta);
    }
    table.setColumnDefinitions(convertor.columns());
    List<TableRow> out = new ArrayList<>(rows.size());
    for (Object row : rows) {
      TableRow tableRow = new TableRow();
      tableRow.setCells(convertor.cells(row));
      if (include.equals("Metadata")) {
        Map<String, Object> partial = new LinkedHashMap<>();
        partial.put("kind", "PartialObjectMetadata");
        partial.put("apiVersion", MetaV1.META_V1.toString());
        // The object's own metadata, written as it is when the table is encoded (no copy).
        partial.put("metadata", compactJson ? metadataJsonOf(row, memo) : metadataOf(row, memo));
        tableRow.setObject(partial);
      } else if (include.equals("Object")) {
        tableRow.setObject(json.decode(json.encode(row), Unstructured.class).object().content());
      }
      out.add(tableRow);
    }
    table.setRows(out);
    return table;
  }

  private ObjectMeta metadataOf(Object row, ItemMemo memo) {
    return (ObjectMeta) memo.computeIfAbsent(row, ROW_METADATA, parts::metadataOf);
  }

  /** A row's metadata as compact JSON, encoded once per object the memo holds; null when none. */
  private Object metadataJsonOf(Object row, ItemMemo memo) {
    Object encoded =
        memo.computeIfAbsent(
            row,
            ROW_METADATA_JSON,
            item -> {
              ObjectMeta meta = parts.metadataOf(item);
              return meta == null ? NO_METADATA : json.encodeItem(meta);
            });
    return encoded == NO_METADATA ? null : RawJson.of((byte[]) encoded);
  }

  /** What the memo holds for a row without metadata (it holds no nulls). */
  private static final Object NO_METADATA = new Object();

  private TableConvertor defaultTable(ItemMemo memo) {
    return new TableConvertor() {
      @Override
      public List<TableColumnDefinition> columns() {
        TableColumnDefinition name = new TableColumnDefinition();
        name.setName("Name");
        name.setType("string");
        name.setFormat("name");
        name.setDescription("Name must be unique within a namespace.");
        name.setPriority(0);
        TableColumnDefinition created = new TableColumnDefinition();
        created.setName("Created At");
        created.setType("date");
        created.setFormat("");
        created.setDescription("The time the object was created.");
        created.setPriority(0);
        return List.of(name, created);
      }

      @Override
      public List<Object> cells(Object object) {
        ObjectMeta meta = metadataOf(object, memo);
        List<Object> cells = new ArrayList<>(2);
        cells.add(meta == null ? null : meta.getName());
        cells.add(
            meta == null || meta.getCreationTimestamp() == null
                ? null
                : Rfc3339.format(meta.getCreationTimestamp()));
        return cells;
      }
    };
  }

  /** A table as RFC 4180 CSV: a header row of column names, then one row per object. */
  static byte[] csv(Table table) {
    StringBuilder text = new StringBuilder();
    List<String> header = new ArrayList<>();
    table.getColumnDefinitions().forEach(column -> header.add(column.getName()));
    line(text, new ArrayList<Object>(header));
    for (TableRow row : table.getRows()) {
      line(text, row.getCells());
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void line(StringBuilder text, List<Object> cells) {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        text.append(',');
      }
      Object cell = cells.get(i);
      String value = cell == null ? "" : String.valueOf(cell);
      if (value.indexOf(',') >= 0
          || value.indexOf('"') >= 0
          || value.indexOf('\n') >= 0
          || value.indexOf('\r') >= 0) {
        text.append('"').append(value.replace("\"", "\"\"")).append('"');
      } else {
        text.append(value);
      }
    }
    text.append("\r\n");
  }
}
