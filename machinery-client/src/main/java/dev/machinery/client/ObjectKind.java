package dev.machinery.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.protobuf.ProtobufEncoding;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Function;

/**
 * How a resource client holds its objects: as a class of the Scheme, or as {@code Unstructured}
 * trees. Decodes an object of a response or of a list's items, and encodes a request body.
 * Immutable; thread-safe.
 *
 * @param <T> the objects' class
 */
abstract class ObjectKind<T> {
  final Class<T> type;
  final Codecs codecs;

  private ObjectKind(Class<T> type, Codecs codecs) {
    this.type = type;
    this.codecs = codecs;
  }

  static <T> ObjectKind<T> typed(Class<T> type, GroupVersionKind kind, Codecs codecs) {
    return new Typed<>(type, kind, codecs);
  }

  static ObjectKind<Unstructured> unstructured(Codecs codecs) {
    return new Untyped(codecs);
  }

  /** Decodes one object of a JSON body. */
  abstract T decodeJson(byte[] body);

  /**
   * Decodes one item of a list whose kind is {@code itemKind}: typed lists write their items
   * without {@code apiVersion} and {@code kind}.
   */
  T decodeItem(JsonNode item, GroupVersionKind itemKind) {
    return itemDecoder(itemKind).apply(item);
  }

  /** The decoder of the items of one list (or watch), whose kind is {@code itemKind}. */
  abstract Function<JsonNode, T> itemDecoder(GroupVersionKind itemKind);

  /**
   * The decoder of the items of one list whose kind is {@code itemKind}, each given as its own JSON
   * bytes (a span of the list's body).
   */
  abstract Function<byte[], T> itemBytesDecoder(GroupVersionKind itemKind);

  /** Encodes a request body as JSON. */
  byte[] encodeJson(Object object) {
    return codecs.json.encode(object);
  }

  /** The protobuf codec when this kind is sent and read as protobuf. */
  Optional<ProtobufEncoding> protobuf() {
    return codecs.protobufFor(type);
  }

  static byte[] bytes(JsonNode node) {
    try {
      return Codecs.TREES.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing a JSON tree failed", e);
    }
  }

  private static final class Typed<T> extends ObjectKind<T> {
    private final Codec itemCodec;

    Typed(Class<T> type, GroupVersionKind kind, Codecs codecs) {
      super(type, codecs);
      this.itemCodec = codecs.json.withDefaultKind(kind);
    }

    @Override
    T decodeJson(byte[] body) {
      return itemCodec.decode(body, type).object();
    }

    @Override
    Function<JsonNode, T> itemDecoder(GroupVersionKind itemKind) {
      Codec codec = codecs.json.withDefaultKind(itemKind);
      return item -> codec.decode(bytes(item), type).object();
    }

    @Override
    Function<byte[], T> itemBytesDecoder(GroupVersionKind itemKind) {
      Codec codec = codecs.json.withDefaultKind(itemKind);
      return item -> codec.decode(item, type).object();
    }
  }

  private static final class Untyped extends ObjectKind<Unstructured> {
    Untyped(Codecs codecs) {
      super(Unstructured.class, codecs);
    }

    @Override
    Unstructured decodeJson(byte[] body) {
      return codecs.json.decode(body, Unstructured.class).object();
    }

    @Override
    Function<JsonNode, Unstructured> itemDecoder(GroupVersionKind itemKind) {
      return item -> {
        JsonNode typed = item;
        if (item.isObject() && (!item.hasNonNull("apiVersion") || !item.hasNonNull("kind"))) {
          ObjectNode copy = ((ObjectNode) item).deepCopy();
          copy.put("apiVersion", itemKind.apiVersion());
          copy.put("kind", itemKind.kind());
          typed = copy;
        }
        return codecs.json.decode(bytes(typed), Unstructured.class).object();
      };
    }

    @Override
    Function<byte[], Unstructured> itemBytesDecoder(GroupVersionKind itemKind) {
      Function<JsonNode, Unstructured> fromTree = itemDecoder(itemKind);
      return item -> {
        try {
          return fromTree.apply(Codecs.TREES.readTree(item));
        } catch (IOException e) {
          throw new DecodeException("a list item is not JSON: " + e.getMessage(), "items");
        }
      };
    }

    @Override
    Optional<ProtobufEncoding> protobuf() {
      return Optional.empty();
    }
  }
}
