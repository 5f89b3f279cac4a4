package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonToken;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A node of a YAML document after alias and merge-key expansion: a scalar (with its original text
 * and the JSON token it resolves to), a mapping or a sequence. Aliased nodes are shared, not
 * copied. Confined to the decoding thread.
 */
abstract class YamlNode {
  final int line;
  final int column;

  /** Nodes in this subtree, counting every repetition of shared nodes. */
  long size() {
    return 1;
  }

  YamlNode(int line, int column) {
    this.line = line;
    this.column = column;
  }

  static final class Scalar extends YamlNode {
    final JsonToken token;
    final String text;

    /** Integer, Long or BigInteger for ints, Double for floats, else null. */
    final Number number;

    Scalar(int line, int column, JsonToken token, String text, Number number) {
      super(line, column);
      this.token = token;
      this.text = text;
      this.number = number;
    }
  }

  static final class Mapping extends YamlNode {
    /** Mappings up to this size look keys up by scanning them; larger ones keep an index. */
    private static final int SCANNED = 8;

    final List<String> keys = new ArrayList<>();
    final List<YamlNode> values = new ArrayList<>();
    private Map<String, Integer> index;

    /** See {@link #size()}. */
    long total = 1;

    Mapping(int line, int column) {
      super(line, column);
    }

    @Override
    long size() {
      return total;
    }

    /** Adds an entry; returns false (replacing the value in place) if the key was present. */
    boolean put(String key, YamlNode value) {
      int at = indexOf(key);
      if (at >= 0) {
        values.set(at, value);
        return false;
      }
      if (index != null) {
        index.put(key, keys.size());
      } else if (keys.size() == SCANNED) {
        index = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
          index.put(keys.get(i), i);
        }
        index.put(key, keys.size());
      }
      keys.add(key);
      values.add(value);
      return true;
    }

    boolean containsKey(String key) {
      return indexOf(key) >= 0;
    }

    private int indexOf(String key) {
      if (index != null) {
        Integer at = index.get(key);
        return at == null ? -1 : at;
      }
      for (int i = 0; i < keys.size(); i++) {
        if (keys.get(i).equals(key)) {
          return i;
        }
      }
      return -1;
    }
  }

  static final class Sequence extends YamlNode {
    final List<YamlNode> items = new ArrayList<>();

    /** See {@link #size()}. */
    long total = 1;

    Sequence(int line, int column) {
      super(line, column);
    }

    @Override
    long size() {
      return total;
    }
  }
}
