package dev.machinery.storage.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.unversioned.protobuf.ProtoReader;
import dev.machinery.unversioned.protobuf.ProtoWriter;
import java.io.IOException;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The etcd v3 messages this storage sends and reads ({@code etcdserverpb}'s {@code rpc.proto} and
 * {@code mvccpb}'s {@code kv.proto}, by their field numbers), translated between the JSON gateway's
 * form, which {@link EtcdStorage} builds and reads, and protobuf, which etcd's gRPC API speaks. The
 * JSON form is the gateway's: fields by their proto names, bytes in base64 (read back as binary
 * nodes), 64-bit numbers as strings, enums by name. A request field this table does not know fails
 * the call rather than being dropped; unknown fields of an answer are skipped, as protobuf reads
 * them. Immutable and thread-safe.
 */
final class EtcdMessages {
  private EtcdMessages() {}

  /**
   * A gRPC method of etcd's KV and Watch services, with its request and answer (for a watch, each
   * message of its stream), by the gateway path.
   */
  static final class Method {
    final String path;
    final Message request;
    final Message response;

    private Method(String path, Message request, Message response) {
      this.path = path;
      this.request = request;
      this.response = response;
    }
  }

  private enum Type {
    BYTES,
    STRING,
    INT64,
    BOOL,
    ENUM,
    MESSAGE
  }

  private static final class Field {
    final String name;
    final int number;
    final Type type;
    final boolean repeated;
    final List<String> names;
    Message message;

    Field(String name, int number, Type type, boolean repeated, List<String> names) {
      this.name = name;
      this.number = number;
      this.type = type;
      this.repeated = repeated;
      this.names = names;
    }
  }

  /** One message's fields, by name (to write the gateway's JSON) and by number (to read). */
  static final class Message {
    final String name;
    private final Map<String, Field> byName = new LinkedHashMap<>();
    private final Map<Integer, Field> byNumber = new HashMap<>();

    private Message(String name) {
      this.name = name;
    }

    private Message field(String field, int number, Type type) {
      return add(new Field(field, number, type, false, List.of()));
    }

    private Message repeated(String field, int number, Message of) {
      Field f = new Field(field, number, Type.MESSAGE, true, List.of());
      f.message = of;
      return add(f);
    }

    private Message message(String field, int number, Message of) {
      Field f = new Field(field, number, Type.MESSAGE, false, List.of());
      f.message = of;
      return add(f);
    }

    private Message enumeration(String field, int number, String... names) {
      return add(new Field(field, number, Type.ENUM, false, List.of(names)));
    }

    private Message add(Field field) {
      byName.put(field.name, field);
      byNumber.put(field.number, field);
      return this;
    }

    /**
     * Writes a request in the gateway's JSON form as protobuf. Every field given is written, zero
     * values too (a {@code Compare}'s target is a oneof, where a zero that is set differs from one
     * that is not).
     *
     * @throws IllegalArgumentException for a field the message does not have, or a value of the
     *     wrong form
     */
    byte[] encode(JsonNode json) {
      ProtoWriter out = new ProtoWriter();
      write(json, out);
      return out.toByteArray();
    }

    private void write(JsonNode json, ProtoWriter out) {
      if (!json.isObject()) {
        throw new IllegalArgumentException(name + " is an object, not " + json.getNodeType());
      }
      for (Map.Entry<String, JsonNode> entry : json.properties()) {
        Field field = byName.get(entry.getKey());
        if (field == null) {
          throw new IllegalArgumentException(
              name + " has no field \"" + entry.getKey() + "\"; it has " + byName.keySet());
        }
        JsonNode value = entry.getValue();
        if (field.repeated) {
          if (!value.isArray()) {
            throw new IllegalArgumentException(
                name + "." + field.name + " is an array, not " + value.getNodeType());
          }
          for (JsonNode item : value) {
            writeOne(field, item, out);
          }
        } else {
          writeOne(field, value, out);
        }
      }
    }

    private void writeOne(Field field, JsonNode value, ProtoWriter out) {
      String where = name + "." + field.name;
      switch (field.type) {
        case BYTES -> out.bytesField(field.number, bytesOf(value, where));
        case STRING -> {
          if (!value.isTextual()) {
            throw new IllegalArgumentException(where + " is text, not " + value.getNodeType());
          }
          out.stringField(field.number, value.textValue());
        }
        case INT64 -> out.varintField(field.number, longOf(value, where));
        case BOOL -> {
          if (!value.isBoolean()) {
            throw new IllegalArgumentException(where + " is a boolean, not " + value);
          }
          out.varintField(field.number, value.booleanValue() ? 1 : 0);
        }
        case ENUM -> {
          int index = value.isTextual() ? field.names.indexOf(value.textValue()) : -1;
          if (index < 0) {
            throw new IllegalArgumentException(
                where + " is one of " + field.names + ", not " + value);
          }
          out.varintField(field.number, index);
        }
        case MESSAGE -> {
          ProtoWriter nested = new ProtoWriter();
          field.message.write(value, nested);
          out.bytesField(field.number, nested.toByteArray());
        }
      }
    }

    /**
     * Reads an answer in protobuf into the gateway's JSON form.
     *
     * @throws DecodeException when the bytes are not such a message
     */
    ObjectNode decode(byte[] bytes) {
      return read(new ProtoReader(bytes, 0, bytes.length));
    }

    private ObjectNode read(ProtoReader in) {
      ObjectNode json = JsonNodeFactory.instance.objectNode();
      while (in.hasMore()) {
        long tag = in.varint(name);
        int number = (int) (tag >>> 3);
        int wireType = (int) (tag & 7);
        Field field = byNumber.get(number);
        if (field == null) {
          in.skip(wireType, name + " field " + number);
          continue;
        }
        String where = name + "." + field.name;
        int expected =
            field.type == Type.BYTES || field.type == Type.STRING || field.type == Type.MESSAGE
                ? 2
                : 0;
        if (wireType != expected) {
          throw new DecodeException(
              where + " has wire type " + wireType + ", not " + expected, field.name);
        }
        JsonNode value =
            switch (field.type) {
              case BYTES -> JsonNodeFactory.instance.binaryNode(in.bytes(where));
              case STRING -> JsonNodeFactory.instance.textNode(in.string(where));
              case INT64 -> JsonNodeFactory.instance.textNode(Long.toString(in.varint(where)));
              case BOOL -> JsonNodeFactory.instance.booleanNode(in.varint(where) != 0);
              case ENUM -> {
                long index = in.varint(where);
                yield JsonNodeFactory.instance.textNode(
                    index >= 0 && index < field.names.size()
                        ? field.names.get((int) index)
                        : Long.toString(index));
              }
              case MESSAGE -> field.message.read(in.message(where));
            };
        if (field.repeated) {
          JsonNode items = json.get(field.name);
          ArrayNode array = items == null ? json.putArray(field.name) : (ArrayNode) items;
          array.add(value);
        } else {
          json.set(field.name, value);
        }
      }
      return json;
    }
  }

  private static byte[] bytesOf(JsonNode value, String where) {
    if (value.isBinary()) {
      try {
        return value.binaryValue();
      } catch (IOException e) {
        throw new IllegalStateException(where + ": a binary node without bytes", e);
      }
    }
    if (!value.isTextual()) {
      throw new IllegalArgumentException(where + " is base64 text, not " + value.getNodeType());
    }
    try {
      return Base64.getDecoder().decode(value.textValue());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + " is not base64: " + e.getMessage(), e);
    }
  }

  private static long longOf(JsonNode value, String where) {
    if (value.isIntegralNumber()) {
      return value.longValue();
    }
    if (value.isTextual()) {
      try {
        return Long.parseLong(value.textValue());
      } catch (NumberFormatException e) {
        // Said below.
      }
    }
    throw new IllegalArgumentException(where + " is a 64-bit integer, not " + value);
  }

  // ---- the messages (field numbers from etcd's rpc.proto and kv.proto)

  private static final Message HEADER =
      new Message("ResponseHeader")
          .field("cluster_id", 1, Type.INT64)
          .field("member_id", 2, Type.INT64)
          .field("revision", 3, Type.INT64)
          .field("raft_term", 4, Type.INT64);

  private static final Message KEY_VALUE =
      new Message("KeyValue")
          .field("key", 1, Type.BYTES)
          .field("create_revision", 2, Type.INT64)
          .field("mod_revision", 3, Type.INT64)
          .field("version", 4, Type.INT64)
          .field("value", 5, Type.BYTES)
          .field("lease", 6, Type.INT64);

  private static final Message RANGE_REQUEST =
      new Message("RangeRequest")
          .field("key", 1, Type.BYTES)
          .field("range_end", 2, Type.BYTES)
          .field("limit", 3, Type.INT64)
          .field("revision", 4, Type.INT64)
          .enumeration("sort_order", 5, "NONE", "ASCEND", "DESCEND")
          .enumeration("sort_target", 6, "KEY", "VERSION", "CREATE", "MOD", "VALUE")
          .field("serializable", 7, Type.BOOL)
          .field("keys_only", 8, Type.BOOL)
          .field("count_only", 9, Type.BOOL)
          .field("min_mod_revision", 10, Type.INT64)
          .field("max_mod_revision", 11, Type.INT64)
          .field("min_create_revision", 12, Type.INT64)
          .field("max_create_revision", 13, Type.INT64);

  private static final Message RANGE_RESPONSE =
      new Message("RangeResponse")
          .message("header", 1, HEADER)
          .repeated("kvs", 2, KEY_VALUE)
          .field("more", 3, Type.BOOL)
          .field("count", 4, Type.INT64);

  private static final Message PUT_REQUEST =
      new Message("PutRequest")
          .field("key", 1, Type.BYTES)
          .field("value", 2, Type.BYTES)
          .field("lease", 3, Type.INT64)
          .field("prev_kv", 4, Type.BOOL)
          .field("ignore_value", 5, Type.BOOL)
          .field("ignore_lease", 6, Type.BOOL);

  private static final Message PUT_RESPONSE =
      new Message("PutResponse").message("header", 1, HEADER).message("prev_kv", 2, KEY_VALUE);

  private static final Message DELETE_REQUEST =
      new Message("DeleteRangeRequest")
          .field("key", 1, Type.BYTES)
          .field("range_end", 2, Type.BYTES)
          .field("prev_kv", 3, Type.BOOL);

  private static final Message DELETE_RESPONSE =
      new Message("DeleteRangeResponse")
          .message("header", 1, HEADER)
          .field("deleted", 2, Type.INT64)
          .repeated("prev_kvs", 3, KEY_VALUE);

  private static final Message COMPARE =
      new Message("Compare")
          .enumeration("result", 1, "EQUAL", "GREATER", "LESS", "NOT_EQUAL")
          .enumeration("target", 2, "VERSION", "CREATE", "MOD", "VALUE", "LEASE")
          .field("key", 3, Type.BYTES)
          .field("version", 4, Type.INT64)
          .field("create_revision", 5, Type.INT64)
          .field("mod_revision", 6, Type.INT64)
          .field("value", 7, Type.BYTES)
          .field("lease", 8, Type.INT64)
          .field("range_end", 64, Type.BYTES);

  private static final Message REQUEST_OP = new Message("RequestOp");
  private static final Message RESPONSE_OP = new Message("ResponseOp");

  private static final Message TXN_REQUEST =
      new Message("TxnRequest")
          .repeated("compare", 1, COMPARE)
          .repeated("success", 2, REQUEST_OP)
          .repeated("failure", 3, REQUEST_OP);

  private static final Message TXN_RESPONSE =
      new Message("TxnResponse")
          .message("header", 1, HEADER)
          .field("succeeded", 2, Type.BOOL)
          .repeated("responses", 3, RESPONSE_OP);

  static {
    REQUEST_OP
        .message("request_range", 1, RANGE_REQUEST)
        .message("request_put", 2, PUT_REQUEST)
        .message("request_delete_range", 3, DELETE_REQUEST)
        .message("request_txn", 4, TXN_REQUEST);
    RESPONSE_OP
        .message("response_range", 1, RANGE_RESPONSE)
        .message("response_put", 2, PUT_RESPONSE)
        .message("response_delete_range", 3, DELETE_RESPONSE)
        .message("response_txn", 4, TXN_RESPONSE);
  }

  private static final Message COMPACTION_REQUEST =
      new Message("CompactionRequest")
          .field("revision", 1, Type.INT64)
          .field("physical", 2, Type.BOOL);

  private static final Message COMPACTION_RESPONSE =
      new Message("CompactionResponse").message("header", 1, HEADER);

  private static final Message WATCH_CREATE_REQUEST =
      new Message("WatchCreateRequest")
          .field("key", 1, Type.BYTES)
          .field("range_end", 2, Type.BYTES)
          .field("start_revision", 3, Type.INT64)
          .field("progress_notify", 4, Type.BOOL)
          .field("prev_kv", 6, Type.BOOL)
          .field("watch_id", 7, Type.INT64)
          .field("fragment", 8, Type.BOOL);

  private static final Message WATCH_REQUEST =
      new Message("WatchRequest").message("create_request", 1, WATCH_CREATE_REQUEST);

  private static final Message EVENT =
      new Message("Event")
          .enumeration("type", 1, "PUT", "DELETE")
          .message("kv", 2, KEY_VALUE)
          .message("prev_kv", 3, KEY_VALUE);

  private static final Message WATCH_RESPONSE =
      new Message("WatchResponse")
          .message("header", 1, HEADER)
          .field("watch_id", 2, Type.INT64)
          .field("created", 3, Type.BOOL)
          .field("canceled", 4, Type.BOOL)
          .field("compact_revision", 5, Type.INT64)
          .field("cancel_reason", 6, Type.STRING)
          .field("fragment", 7, Type.BOOL)
          .repeated("events", 11, EVENT);

  private static final Message LEASE_GRANT_REQUEST =
      new Message("LeaseGrantRequest").field("TTL", 1, Type.INT64).field("ID", 2, Type.INT64);

  private static final Message LEASE_GRANT_RESPONSE =
      new Message("LeaseGrantResponse")
          .message("header", 1, HEADER)
          .field("ID", 2, Type.INT64)
          .field("TTL", 3, Type.INT64)
          .field("error", 4, Type.STRING);

  private static final Map<String, Method> METHODS =
      Map.of(
          "/v3/kv/range",
          new Method("/etcdserverpb.KV/Range", RANGE_REQUEST, RANGE_RESPONSE),
          "/v3/kv/put",
          new Method("/etcdserverpb.KV/Put", PUT_REQUEST, PUT_RESPONSE),
          "/v3/kv/deleterange",
          new Method("/etcdserverpb.KV/DeleteRange", DELETE_REQUEST, DELETE_RESPONSE),
          "/v3/kv/txn",
          new Method("/etcdserverpb.KV/Txn", TXN_REQUEST, TXN_RESPONSE),
          "/v3/kv/compaction",
          new Method("/etcdserverpb.KV/Compact", COMPACTION_REQUEST, COMPACTION_RESPONSE),
          "/v3/watch",
          new Method("/etcdserverpb.Watch/Watch", WATCH_REQUEST, WATCH_RESPONSE),
          "/v3/lease/grant",
          new Method("/etcdserverpb.Lease/LeaseGrant", LEASE_GRANT_REQUEST, LEASE_GRANT_RESPONSE));

  /**
   * The gRPC method of a gateway path.
   *
   * @throws IllegalArgumentException for a path that is not one of the KV calls or the watch
   */
  static Method method(String gatewayPath) {
    Method method = METHODS.get(gatewayPath);
    if (method == null) {
      throw new IllegalArgumentException(
          "no gRPC method for the gateway path " + gatewayPath + "; known: " + METHODS.keySet());
    }
    return method;
  }
}
