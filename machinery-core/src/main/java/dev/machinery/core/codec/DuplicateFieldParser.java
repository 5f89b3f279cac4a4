package dev.machinery.core.codec;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;
import com.fasterxml.jackson.core.sym.ByteQuadsCanonicalizer;
import dev.machinery.core.internal.FieldPaths;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Jackson's UTF-8 parser, recording every field name given twice in one object, with its path, and
 * going on.
 *
 * <p>Jackson's own duplicate detection stops at the first duplicate and allocates a hash set for
 * every object of three or more fields. Here the names of the object being read at each depth sit
 * in a reused array, compared by identity first (Jackson canonicalises field names, so equal names
 * are nearly always one instance); only objects of more than {@value #LINEAR_LIMIT} fields get a
 * hash set. A new object is recognised by its first field having index 0, so no token other than a
 * field name costs anything. The root object's {@code apiVersion} and {@code kind} are left to the
 * decoder, which rejects their repetition in every mode. Confined to the decoding thread.
 */
final class DuplicateFieldParser extends UTF8StreamJsonParser {
  private static final int LINEAR_LIMIT = 16;

  private final ProblemCollector problems;
  private String[][] names = new String[8][];
  private int[] counts = new int[8];
  private Set<String>[] large = newSets(8);

  private DuplicateFieldParser(
      IOContext context,
      int features,
      ObjectCodec codec,
      ByteQuadsCanonicalizer symbols,
      byte[] data,
      int start,
      int end,
      ProblemCollector problems) {
    super(context, features, null, codec, symbols, data, start, end, 0, false);
    this.problems = problems;
  }

  /** A JSON factory whose byte-array parsers are {@link DuplicateFieldParser}s. */
  static final class Factory extends NameBoundedJsonFactory {
    private static final long serialVersionUID = 1L;

    Factory(JsonFactoryBuilder builder) {
      super(builder);
    }

    private Factory(Factory source) {
      super(source);
    }

    @Override
    public JsonFactory copy() {
      return new Factory(this);
    }

    @Override
    protected JsonParser _createParser(byte[] data, int offset, int len, IOContext context) {
      ProblemCollector problems = ProblemCollector.CURRENT.get();
      if (problems == null) {
        throw new IllegalStateException("no decode is under way on this thread");
      }
      context.setEncoding(JsonEncoding.UTF8);
      return new DuplicateFieldParser(
          context,
          _parserFeatures,
          _objectCodec,
          names().makeChild(_factoryFeatures),
          data,
          offset,
          offset + len,
          problems);
    }
  }

  @SuppressWarnings("unchecked")
  private static Set<String>[] newSets(int n) {
    return (Set<String>[]) new Set<?>[n];
  }

  @Override
  public JsonToken nextToken() throws IOException {
    JsonToken token = super.nextToken();
    if (token == JsonToken.FIELD_NAME) {
      name(currentName());
    }
    return token;
  }

  @Override
  public String nextFieldName() throws IOException {
    String name = super.nextFieldName();
    if (name != null) {
      name(name);
    }
    return name;
  }

  @Override
  public boolean nextFieldName(SerializableString expected) throws IOException {
    boolean matched = super.nextFieldName(expected);
    if (_currToken == JsonToken.FIELD_NAME) {
      name(currentName());
    }
    return matched;
  }

  private void name(String name) {
    JsonStreamContext context = getParsingContext();
    int depth = context.getNestingDepth();
    if (depth >= names.length) {
      int size = Math.max(depth + 1, names.length * 2);
      names = Arrays.copyOf(names, size);
      counts = Arrays.copyOf(counts, size);
      large = Arrays.copyOf(large, size);
    }
    String[] level = names[depth];
    if (level == null) {
      level = names[depth] = new String[LINEAR_LIMIT];
    }
    if (context.getCurrentIndex() == 0) {
      // The first field of a new object at this depth.
      level[0] = name;
      counts[depth] = 1;
      large[depth] = null;
      return;
    }
    int count = counts[depth];
    Set<String> set = large[depth];
    boolean seen = false;
    if (set != null) {
      seen = !set.add(name);
    } else {
      int hash = name.hashCode();
      for (int i = 0; i < count; i++) {
        String other = level[i];
        if (other == name || (other.hashCode() == hash && other.equals(name))) {
          seen = true;
          break;
        }
      }
      if (!seen) {
        if (count < LINEAR_LIMIT) {
          level[count] = name;
        } else {
          set = new HashSet<>(Arrays.asList(level));
          set.add(name);
          large[depth] = set;
        }
        counts[depth] = count + 1;
      }
    }
    if (seen
        && !(depth == 1
            && (MachineryModule.API_VERSION.equals(name) || MachineryModule.KIND.equals(name)))) {
      problems.duplicate(FieldPaths.of(context));
    }
  }
}
