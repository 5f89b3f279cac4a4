package dev.machinery.core.codec.yaml;

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
public abstract class YamlNode {
  /** The node's 1-based line in the stream. */
  public final int line;

  /** The node's 1-based column, counted in code points. */
  public final int column;

  /**
   * Nodes in this subtree, counting every repetition of shared nodes.
   *
   * @return the count, at least 1
   */
  public long size() {
    return 1;
  }

  YamlNode(int line, int column) {
    this.line = line;
    this.column = column;
  }

  /** A scalar: its text as written and the JSON token it resolves to. */
  public static final class Scalar extends YamlNode {
    /** The JSON token the scalar resolves to. */
    public final JsonToken token;

    /** The scalar's text, as written (quotes and escapes resolved). */
    public final String text;

    /** Integer, Long or BigInteger for ints, Double for floats, else null. */
    public final Number number;

    Scalar(int line, int column, JsonToken token, String text, Number number) {
      super(line, column);
      this.token = token;
      this.text = text;
      this.number = number;
    }
  }

  /** A mapping: its keys in order, and a value for each. */
  public static final class Mapping extends YamlNode {
    /** Mappings up to this size look keys up by scanning them; larger ones keep an index. */
    private static final int SCANNED = 8;

    /** The keys, in the order the document gives them; not to be changed. */
    public final List<String> keys = new ArrayList<>();

    /** The value of each key, at the key's index; not to be changed. */
    public final List<YamlNode> values = new ArrayList<>();

    private Map<String, Integer> index;

    /** See {@link #size()}. */
    long total = 1;

    Mapping(int line, int column) {
      super(line, column);
    }

    @Override
    public long size() {
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

  /** A sequence of nodes. */
  public static final class Sequence extends YamlNode {
    /** The items, in order; not to be changed. */
    public final List<YamlNode> items = new ArrayList<>();

    /** See {@link #size()}. */
    long total = 1;

    Sequence(int line, int column) {
      super(line, column);
    }

    @Override
    public long size() {
      return total;
    }
  }
}
