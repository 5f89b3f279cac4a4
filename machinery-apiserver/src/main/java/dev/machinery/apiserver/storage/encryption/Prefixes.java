package dev.machinery.apiserver.storage.encryption;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Transformers chosen by the prefix of the stored bytes, as kube's {@code prefixTransformers}:
 * writes use the first and put its prefix in front; a read tries each whose prefix matches, in
 * order (two providers of one kind share a prefix, so a failure goes on to the next), and is stale
 * when read by any but the first. An {@code identity} entry (empty prefix) that fails is passed
 * over. When none reads the bytes, the errors of those that tried, else {@code noMatch}.
 */
final class Prefixes implements ValueTransformer {
  /** One transformer and the prefix of what it writes. */
  record Entry(byte[] prefix, ValueTransformer transformer) {
    Entry(String prefix, ValueTransformer transformer) {
      this(prefix.getBytes(StandardCharsets.UTF_8), transformer);
    }
  }

  private final List<Entry> entries;
  private final String noMatch;

  Prefixes(List<Entry> entries, String noMatch) {
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("no transformers");
    }
    this.entries = List.copyOf(entries);
    this.noMatch = noMatch;
  }

  static boolean startsWith(byte[] data, byte[] prefix) {
    if (data.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (data[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public byte[] toStorage(byte[] value, byte[] authenticatedData) {
    Entry first = entries.get(0);
    byte[] result = first.transformer().toStorage(value, authenticatedData);
    byte[] out = new byte[first.prefix().length + result.length];
    System.arraycopy(first.prefix(), 0, out, 0, first.prefix().length);
    System.arraycopy(result, 0, out, first.prefix().length, result.length);
    return out;
  }

  @Override
  public Read fromStorage(byte[] stored, byte[] authenticatedData) {
    List<String> errors = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      Entry entry = entries.get(i);
      if (!startsWith(stored, entry.prefix())) {
        continue;
      }
      byte[] rest = new byte[stored.length - entry.prefix().length];
      System.arraycopy(stored, entry.prefix().length, rest, 0, rest.length);
      try {
        Read read = entry.transformer().fromStorage(rest, authenticatedData);
        return new Read(read.value(), read.stale() || i != 0);
      } catch (ValueTransformException e) {
        if (entry.prefix().length > 0) {
          errors.add(e.getMessage());
        }
      }
    }
    if (errors.size() == 1) {
      throw new ValueTransformException(errors.get(0));
    }
    if (!errors.isEmpty()) {
      throw new ValueTransformException("[" + String.join(", ", errors) + "]");
    }
    throw new ValueTransformException(noMatch);
  }
}
