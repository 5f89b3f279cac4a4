package dev.machinery.storage.etcd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.codec.DecodeException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The gateway's JSON form of etcd's messages against their protobuf bytes, worked out by hand from
 * the field numbers of etcd's {@code rpc.proto} and {@code kv.proto} (tag = number &lt;&lt; 3 |
 * wire type); that etcd itself reads and writes them is {@link EtcdStorageGrpcTest}'s part.
 */
class EtcdMessagesTest {
  private static final HexFormat HEX = HexFormat.of();

  private static ObjectNode json(String text) throws Exception {
    return (ObjectNode) EtcdClient.JSON.readTree(text);
  }

  @Test
  void aRangeRequestIsWrittenFieldByFieldWithZerosThatAreGiven() throws Exception {
    // key "a" (1, bytes: 0a 01 61), limit 0 given (3, varint: 18 00), count_only (9: 48 01).
    JsonNode range = json("{\"key\":\"YQ==\",\"limit\":\"0\",\"count_only\":true}");
    assertEquals(
        "0a0161" + "1800" + "4801",
        HEX.formatHex(EtcdMessages.method("/v3/kv/range").request.encode(range)));
  }

  @Test
  void aTransactionNestsItsComparesAndOperations() throws Exception {
    // compare (1), its fields in the order given (a protobuf reader takes any order): key "k"
    // (1a 01 6b), target CREATE (10 01), result EQUAL (08 00), create_revision 0 (28 00);
    // success (2): request_put (2) of key "k" and value "v".
    JsonNode txn =
        json(
            "{\"compare\":[{\"key\":\"aw==\",\"target\":\"CREATE\",\"result\":\"EQUAL\","
                + "\"create_revision\":\"0\"}],"
                + "\"success\":[{\"request_put\":{\"key\":\"aw==\",\"value\":\"dg==\"}}]}");
    String compare = "1a016b" + "1001" + "0800" + "2800";
    String put = "0a016b" + "120176";
    String op = "12" + String.format("%02x", put.length() / 2) + put;
    assertEquals(
        "0a"
            + String.format("%02x", compare.length() / 2)
            + compare
            + "12"
            + String.format("%02x", op.length() / 2)
            + op,
        HEX.formatHex(EtcdMessages.method("/v3/kv/txn").request.encode(txn)));
  }

  @Test
  void anAnswerIsReadInTheGatewaysFormBytesAsBinaryNumbersAsText() {
    // header (1) { revision (3) 300: 18 ac 02 }, kvs (2) { key "k", mod_revision (3) 7,
    // value (5) "v" }, an unknown field 15 (78 05) skipped, count (4) 1.
    byte[] answer =
        HEX.parseHex("0a0318ac02" + "1208" + "0a016b" + "1807" + "2a0176" + "7805" + "2001");
    ObjectNode read = EtcdMessages.method("/v3/kv/range").response.decode(answer);
    assertEquals(300, EtcdClient.revision(read));
    assertEquals("1", read.get("count").textValue());
    JsonNode kv = read.get("kvs").get(0);
    assertTrue(kv.get("key").isBinary());
    assertEquals("k", EtcdClient.text(kv.get("key")));
    assertArrayEquals(new byte[] {'v'}, EtcdClient.bytes(kv.get("value")));
    assertEquals(7, EtcdClient.number(kv.get("mod_revision")));
  }

  @Test
  void aNegativeNumberTakesTenBytesAsProtobufsInt64Does() throws Exception {
    JsonNode range = json("{\"revision\":\"-1\"}");
    assertEquals(
        "20ffffffffffffffffff01",
        HEX.formatHex(EtcdMessages.method("/v3/kv/range").request.encode(range)));
  }

  @Test
  void whatARequestCannotCarryFailsNamingIt() throws Exception {
    EtcdMessages.Method range = EtcdMessages.method("/v3/kv/range");
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> range.request.encode(json("{\"keys\":\"YQ==\"}")));
    assertTrue(
        unknown.getMessage().startsWith("RangeRequest has no field \"keys\"; it has [key, "),
        unknown.getMessage());
    assertEquals(
        "RangeRequest.limit is a 64-bit integer, not \"ten\"",
        assertThrows(
                IllegalArgumentException.class,
                () -> range.request.encode(json("{\"limit\":\"ten\"}")))
            .getMessage());
    assertEquals(
        "RangeRequest.sort_order is one of [NONE, ASCEND, DESCEND], not \"UP\"",
        assertThrows(
                IllegalArgumentException.class,
                () -> range.request.encode(json("{\"sort_order\":\"UP\"}")))
            .getMessage());
    assertEquals(
        "no gRPC method for the gateway path /v3/maintenance/status; known: ",
        assertThrows(
                IllegalArgumentException.class, () -> EtcdMessages.method("/v3/maintenance/status"))
            .getMessage()
            .replaceAll("known: .*", "known: "));
  }

  @Test
  void aTruncatedOrMistypedAnswerIsADecodeException() {
    EtcdMessages.Message response = EtcdMessages.method("/v3/kv/range").response;
    // kvs (2) says 10 bytes and holds 2.
    DecodeException truncated =
        assertThrows(DecodeException.class, () -> response.decode(HEX.parseHex("120a0a01")));
    assertTrue(truncated.getMessage().contains("RangeResponse.kvs"), truncated.getMessage());
    // count (4) as bytes (wire type 2).
    DecodeException mistyped =
        assertThrows(DecodeException.class, () -> response.decode(HEX.parseHex("220131")));
    assertTrue(
        mistyped.getMessage().startsWith("RangeResponse.count has wire type 2, not 0"),
        mistyped.getMessage());
  }
}
