package dev.machinery.unversioned.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.TimeFormats;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.resource.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Laws of {@link SchemaProtobufCodec} on seeded random trees of every kind of the v1.33.0 fixtures:
 * a tree in the form decoding produces (no zero where Go's JSON leaves it out, no empty lists or
 * maps, no zero times) decodes back from its bytes unchanged, and re-encoding gives the same bytes.
 * The trees come from the message descriptors, with Kubernetes' JSON forms for the special
 * messages; a failure names its seed and kind, and replays.
 */
class SchemaProtobufCodecProperties {
  private static final ProtoSchema SCHEMA = KubeProtos.v1_33();
  private static final SchemaProtobufCodec CODEC = SchemaProtobufCodec.create(SCHEMA);
  private static final int MAX_DEPTH = 7;

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233})
  void decodeAfterEncodeIsTheIdentity(long seed) {
    long total = 0;
    for (String name : KubeFixtures.v133()) {
      GroupVersionKind kind = KubeFixtures.kind(name);
      SplittableRandom random = new SplittableRandom(seed * 31 + name.hashCode());
      MessageDescriptor message = CODEC.messageFor(kind).orElseThrow();
      Map<String, Object> tree = new LinkedHashMap<>();
      tree.put("apiVersion", kind.apiVersion());
      tree.put("kind", kind.kind());
      tree.putAll(object(message, random, 0));
      String where = "seed " + seed + ", " + kind + ": " + tree;
      byte[] encoded = CODEC.encode(kind, tree);
      Map<String, Object> decoded = CODEC.decode(encoded);
      assertEquals("", firstDifference("", tree, decoded), where);
      assertEquals(tree, decoded, where);
      assertArrayEquals(encoded, CODEC.encode(kind, decoded), where);
      total += encoded.length;
    }
    // The trees are not trivial: about 300 bytes of protobuf a kind, nested up to 7 deep.
    assertTrue(total > 178 * 200, "only " + total + " bytes");
  }

  /** The path and values of the first difference between two trees, or empty. */
  static String firstDifference(String path, Object expected, Object actual) {
    if (expected instanceof Map<?, ?> a && actual instanceof Map<?, ?> b) {
      for (Map.Entry<?, ?> entry : a.entrySet()) {
        String at = path + "." + entry.getKey();
        if (!b.containsKey(entry.getKey())) {
          return at + " is missing (" + entry.getValue() + ")";
        }
        String difference = firstDifference(at, entry.getValue(), b.get(entry.getKey()));
        if (!difference.isEmpty()) {
          return difference;
        }
      }
      for (Object key : b.keySet()) {
        if (!a.containsKey(key)) {
          return path + "." + key + " is extra (" + b.get(key) + ")";
        }
      }
      return "";
    }
    if (expected instanceof List<?> a && actual instanceof List<?> b && a.size() == b.size()) {
      for (int i = 0; i < a.size(); i++) {
        String difference = firstDifference(path + "[" + i + "]", a.get(i), b.get(i));
        if (!difference.isEmpty()) {
          return difference;
        }
      }
      return "";
    }
    return java.util.Objects.equals(expected, actual)
        ? ""
        : path
            + ": "
            + expected
            + " became "
            + actual
            + " ("
            + (actual == null ? "null" : actual.getClass().getSimpleName())
            + ")";
  }

  private static Map<String, Object> object(
      MessageDescriptor message, SplittableRandom random, int depth) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (FieldDescriptor field : message.fields()) {
      if (KubeJson.inline(message, field)) {
        out.putAll(object(SCHEMA.message(field.messageType()).orElseThrow(), random, depth + 1));
        continue;
      }
      boolean nested = field.messageType() != null || field.isMany();
      if (random.nextInt(100)
          >= (nested && depth >= MAX_DEPTH ? 0 : nested ? (depth < 3 ? 75 : 35) : 55)) {
        continue;
      }
      String json = KubeJson.jsonName(message, field);
      switch (field.label()) {
        case REPEATED -> {
          List<Object> list = new ArrayList<>();
          for (int i = 1 + random.nextInt(3); i > 0; i--) {
            list.add(value(field, random, depth));
          }
          out.put(json, list);
        }
        case MAP -> {
          Map<String, Object> map = new LinkedHashMap<>();
          for (int i = 1 + random.nextInt(3); i > 0; i--) {
            map.put(
                field.mapKey() == ScalarType.STRING ? text(random, 0) : "" + random.nextInt(),
                value(field, random, depth));
          }
          out.put(json, map);
        }
        default -> {
          Object value =
              field.scalar() != null
                  ? scalar(field.scalar(), random, KubeJson.zeroRule(message, field))
                  : value(field, random, depth);
          out.put(json, value);
        }
      }
    }
    return out;
  }

  private static Object value(FieldDescriptor field, SplittableRandom random, int depth) {
    if (field.scalar() != null) {
      return scalar(field.scalar(), random, KubeJson.ZeroRule.KEEP);
    }
    MessageDescriptor message = SCHEMA.message(field.messageType()).orElseThrow();
    return switch (KubeJson.special(message)) {
      case NONE -> object(message, random, depth + 1);
      case TIME ->
          TimeFormats.formatSeconds(
              Instant.ofEpochSecond(random.nextLong(-62_167_219_200L, 253_402_300_800L)));
      case MICRO_TIME ->
          TimeFormats.formatMicros(
              Instant.ofEpochSecond(
                  random.nextLong(0, 253_402_300_800L), random.nextInt(1_000_000) * 1000L));
      case DURATION ->
          TimeFormats.formatDuration(
              Duration.ofNanos(random.nextLong(-1_000_000_000_000_000L, 1_000_000_000_000_000L)));
      case QUANTITY ->
          Quantity.parse(
                  random.nextInt(1_000_000)
                      + List.of("", "m", "k", "Ki", "Mi", "G", "e3", "n").get(random.nextInt(8)))
              .toString();
      case INT_OR_STRING ->
          random.nextBoolean() ? (Object) (long) random.nextInt() : text(random, 1);
      case RAW_JSON -> json(random, 0, message.simpleName().equals("FieldsV1"));
      case STRING_LIST -> {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
          list.add(text(random, 0));
        }
        yield list;
      }
      case SCHEMA_OR_ARRAY, SCHEMA_OR_BOOL, SCHEMA_OR_STRING_ARRAY -> union(message, random, depth);
    };
  }

  private static Object union(MessageDescriptor message, SplittableRandom random, int depth) {
    MessageDescriptor props =
        SCHEMA
            .message("k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps")
            .orElseThrow();
    int choice = random.nextInt(3);
    if (choice == 0 || depth >= MAX_DEPTH) {
      return object(props, random, MAX_DEPTH);
    }
    return switch (KubeJson.special(message)) {
      case SCHEMA_OR_BOOL -> random.nextBoolean();
      case SCHEMA_OR_ARRAY -> List.of(object(props, random, depth + 2), Map.of());
      default -> List.of(text(random, 0), text(random, 1));
    };
  }

  private static Object json(SplittableRandom random, int depth, boolean object) {
    int choice = object ? 0 : random.nextInt(depth > 2 ? 6 : 8);
    return switch (choice) {
      case 0 -> {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) {
          map.put(text(random, 0), json(random, depth + 1, false));
        }
        yield map;
      }
      case 1 -> text(random, 0);
      case 2 -> random.nextLong();
      case 3 -> random.nextDouble() * 1e6;
      case 4 -> random.nextBoolean();
      case 5 -> (long) random.nextInt(100);
      default -> {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
          list.add(json(random, depth + 1, false));
        }
        yield list;
      }
    };
  }

  /** A scalar value; a field whose zero decoding leaves out gets no zero. */
  private static Object scalar(ScalarType type, SplittableRandom random, KubeJson.ZeroRule rule) {
    boolean zeroAllowed = rule == KubeJson.ZeroRule.KEEP;
    boolean emptyAllowed = zeroAllowed;
    Object value =
        switch (type) {
          case STRING -> text(random, emptyAllowed ? 0 : 1);
          case BYTES -> {
            byte[] bytes = new byte[(emptyAllowed ? 0 : 1) + random.nextInt(6)];
            random.nextBytes(bytes);
            yield Base64.getEncoder().encodeToString(bytes);
          }
          case BOOL -> random.nextBoolean();
          case INT32, SINT32, SFIXED32 -> (long) random.nextInt();
          case INT64, SINT64, SFIXED64 -> random.nextLong();
          case UINT32, FIXED32 -> random.nextLong(0, 1L << 32);
          case UINT64, FIXED64 -> random.nextLong(0, Long.MAX_VALUE);
          case DOUBLE -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-5, 20));
          case FLOAT -> (double) (float) random.nextDouble();
        };
    if (rule == KubeJson.ZeroRule.DROP_ZERO) {
      if (Boolean.FALSE.equals(value)) {
        return true;
      }
      if (value instanceof Long n && n == 0) {
        return 1L;
      }
      if (value instanceof Double d && d == 0) {
        return 1.5d;
      }
    }
    if (zeroAllowed && random.nextInt(10) == 0) {
      // Zeros that Go writes: a pointer set to zero, a field without omitempty.
      return switch (type) {
        case STRING, BYTES -> "";
        case BOOL -> false;
        case DOUBLE, FLOAT -> 0.0d;
        default -> 0L;
      };
    }
    return value;
  }

  private static String text(SplittableRandom random, int minLength) {
    String alphabet = "abcXYZ019-_. /:é\u00e9\uFFFD\uD83D\uDE00\"\\\n";
    StringBuilder out = new StringBuilder();
    for (int i = minLength + random.nextInt(6); i > 0; i--) {
      int at = random.nextInt(alphabet.length());
      char c = alphabet.charAt(at);
      if (Character.isHighSurrogate(c)) {
        out.append(c).append(alphabet.charAt(at + 1));
      } else if (!Character.isLowSurrogate(c)) {
        out.append(c);
      }
    }
    if (out.length() < minLength) {
      out.append('x');
    }
    return out.toString();
  }
}
