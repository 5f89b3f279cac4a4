package dev.machinery.core.codec.yaml;

import com.fasterxml.jackson.core.Base64Variant;
import com.fasterxml.jackson.core.ErrorReportConfiguration;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.base.GeneratorBase;
import com.fasterxml.jackson.core.io.ContentReference;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.JsonWriteContext;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A Jackson generator that writes block-style YAML straight to UTF-8 bytes, in the layout Jackson's
 * YAML generator gives with the codec's settings (two-space indentation, sequences in a mapping not
 * indented, {@code {}} and {@code []} for empty collections, no document marker, no line
 * splitting), without its per-scalar analysis. Strings are written plain when {@link YamlQuoting}
 * allows it; as a literal block ({@code |} or {@code |-}) when they hold line breaks and nothing a
 * literal block cannot carry; otherwise double-quoted, with every character outside printable
 * Unicode escaped. What it does not write in that layout (a root that is not a mapping, raw or
 * binary values, nesting deeper than {@link #MAX_DEPTH}, keys longer than 128 characters) it
 * declines, and {@link #write} returns null so that the caller uses Jackson's generator. One
 * instance writes one object on one thread; the shared cache of key quoting is concurrent.
 */
public final class YamlEmitter extends GeneratorBase {
  /** Deeper documents are left to Jackson's generator. */
  public static final int MAX_DEPTH = 200;

  /** Longer keys are left to Jackson's generator, which writes them as explicit "? " keys. */
  private static final int MAX_IMPLICIT_KEY = 128;

  private static final YamlQuoting QUOTING = new YamlQuoting();
  private static final int CACHED_NAMES = 4096;
  private static final ConcurrentMap<String, Boolean> NAME_QUOTING = new ConcurrentHashMap<>();
  private static final int CHUNK = 4096;
  private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

  private static final int OBJECT = 1;
  private static final int ARRAY = 2;

  /** How a collection about to start was introduced: after "key", after "- ", or as the root. */
  private static final int AFTER_KEY = 1;

  private static final int AFTER_DASH = 2;
  private static final int ROOT = 3;

  /** Thrown when the object holds something this generator leaves to Jackson's. */
  private static final class Declined extends IOException {
    private static final long serialVersionUID = 1L;

    Declined() {
      super("left to Jackson's YAML generator", null);
    }
  }

  /** The chunk being written; full chunks wait in {@link #full} and are joined once, at the end. */
  private byte[] out = new byte[CHUNK];

  private int size;
  private final List<byte[]> full = new ArrayList<>();
  private int fullBytes;

  /** Open collections: their kind, and the column of their keys or dashes. */
  private int[] kinds = new int[16];

  private int[] indents = new int[16];
  private int depth;

  /** Whether the next entry of the innermost collection continues the current line. */
  private boolean inline;

  /** A collection started whose first event decides how it is written (0 if none). */
  private int pendingKind;

  private int pendingIntro;
  private int pendingColumn;

  /** The column of the key whose value comes next, or -1. */
  private int keyColumn = -1;

  private boolean declined;

  private YamlEmitter(int features, ObjectCodec codec, IOContext context) {
    super(features, codec, context);
  }

  /**
   * Serializes an object with the writer's settings and returns its YAML as UTF-8, or null when the
   * emitter declines it.
   *
   * @param writer the YAML mapper's writer for the object
   * @param object the object
   * @return the YAML, or null
   * @throws IOException what serializing the object throws
   */
  public static byte[] write(ObjectWriter writer, Object object) throws IOException {
    JsonFactory factory = writer.getFactory();
    IOContext context =
        new IOContext(
            factory.streamReadConstraints(),
            factory.streamWriteConstraints(),
            ErrorReportConfiguration.defaults(),
            new BufferRecycler(),
            ContentReference.unknown(),
            false);
    YamlEmitter emitter =
        new YamlEmitter(JsonGenerator.Feature.collectDefaults(), factory.getCodec(), context);
    try {
      writer.writeValue(emitter, object);
    } catch (IOException | RuntimeException e) {
      if (emitter.declined) {
        return null;
      }
      throw e;
    }
    if (emitter.depth != 0 || emitter.pendingKind != 0 || emitter.fullBytes + emitter.size == 0) {
      return null;
    }
    return emitter.bytes();
  }

  private Declined decline() {
    declined = true;
    return new Declined();
  }

  // ---- structure

  @Override
  public void writeStartObject() throws IOException {
    _verifyValueWrite("start an object");
    _writeContext = _writeContext.createChildObjectContext();
    start(OBJECT);
  }

  @Override
  public void writeStartArray() throws IOException {
    _verifyValueWrite("start an array");
    _writeContext = _writeContext.createChildArrayContext();
    start(ARRAY);
  }

  private void start(int kind) throws IOException {
    resolvePending();
    if (depth == 0 && size == 0 && kind != OBJECT) {
      throw decline(); // a root that is not a mapping
    }
    pendingKind = kind;
    if (depth == 0) {
      pendingIntro = ROOT;
    } else if (keyColumn >= 0) {
      pendingIntro = AFTER_KEY;
      pendingColumn = keyColumn;
      keyColumn = -1;
    } else {
      dash();
      pendingIntro = AFTER_DASH;
      pendingColumn = indents[depth - 1];
    }
  }

  /** The first event inside a started collection: it is not empty, so open it. */
  private void resolvePending() throws IOException {
    if (pendingKind == 0) {
      return;
    }
    int kind = pendingKind;
    pendingKind = 0;
    if (depth + 1 > MAX_DEPTH) {
      throw decline();
    }
    switch (pendingIntro) {
      case AFTER_KEY:
        ascii(":\n");
        push(kind, kind == OBJECT ? pendingColumn + 2 : pendingColumn, false);
        break;
      case AFTER_DASH:
        push(kind, pendingColumn + 2, true);
        break;
      default:
        push(kind, 0, false);
        break;
    }
  }

  private void push(int kind, int indent, boolean inlineFirst) {
    if (depth == kinds.length) {
      kinds = Arrays.copyOf(kinds, depth * 2);
      indents = Arrays.copyOf(indents, depth * 2);
    }
    kinds[depth] = kind;
    indents[depth] = indent;
    depth++;
    inline = inlineFirst;
  }

  @Override
  public void writeEndObject() throws IOException {
    end(OBJECT, "{}");
  }

  @Override
  public void writeEndArray() throws IOException {
    end(ARRAY, "[]");
  }

  private void end(int kind, String empty) throws IOException {
    if (!(kind == OBJECT ? _writeContext.inObject() : _writeContext.inArray())) {
      _reportError("Current context not " + (kind == OBJECT ? "Object" : "Array"));
    }
    _writeContext = _writeContext.clearAndGetParent();
    if (pendingKind == kind) {
      pendingKind = 0;
      if (pendingIntro == AFTER_KEY) {
        ascii(": ");
      }
      ascii(empty);
      newline();
      return;
    }
    depth--;
  }

  @Override
  public void writeFieldName(String name) throws IOException {
    if (_writeContext.writeFieldName(name) == JsonWriteContext.STATUS_EXPECT_VALUE) {
      _reportError("Can not write a field name, expecting a value");
    }
    resolvePending();
    int indent = indents[depth - 1];
    if (inline) {
      inline = false;
    } else {
      indent(indent);
    }
    if (name.length() > MAX_IMPLICIT_KEY) {
      throw decline(); // YAML readers refuse implicit keys past 1,024 characters
    }
    if (quoteName(name)) {
      doubleQuoted(name);
    } else {
      text(name, 0, name.length());
    }
    keyColumn = indent;
  }

  /** Starts a value: after a key, ": "; in a sequence, the item's dash. */
  private void scalarStart() throws IOException {
    resolvePending();
    if (keyColumn >= 0) {
      ascii(": ");
    } else if (depth > 0) {
      dash();
    } else {
      throw decline(); // a scalar root
    }
  }

  /** The column block content of the value being written is indented to. */
  private int contentIndent() {
    return (keyColumn >= 0 ? keyColumn : indents[depth - 1]) + 2;
  }

  private void scalarEnd() {
    keyColumn = -1;
    newline();
  }

  private void dash() {
    if (inline) {
      inline = false;
    } else {
      indent(indents[depth - 1]);
    }
    ascii("- ");
  }

  @Override
  protected void _verifyValueWrite(String typeMsg) throws IOException {
    if (_writeContext.writeValue() == JsonWriteContext.STATUS_EXPECT_NAME) {
      _reportError("Can not " + typeMsg + ", expecting field name");
    }
  }

  // ---- scalars

  @Override
  public void writeString(String text) throws IOException {
    if (text == null) {
      writeNull();
      return;
    }
    _verifyValueWrite("write a string");
    scalarStart();
    if (!QUOTING.needToQuoteValue(text)) {
      text(text, 0, text.length());
    } else if (literalAllowed(text)) {
      literal(text, contentIndent());
    } else {
      doubleQuoted(text);
    }
    scalarEnd();
  }

  @Override
  public void writeString(char[] text, int offset, int len) throws IOException {
    writeString(new String(text, offset, len));
  }

  @Override
  public void writeRawUTF8String(byte[] text, int offset, int length) throws IOException {
    throw decline();
  }

  @Override
  public void writeUTF8String(byte[] text, int offset, int length) throws IOException {
    writeString(new String(text, offset, length, StandardCharsets.UTF_8));
  }

  @Override
  public void writeNumber(int v) throws IOException {
    plain(Integer.toString(v));
  }

  @Override
  public void writeNumber(long v) throws IOException {
    plain(Long.toString(v));
  }

  @Override
  public void writeNumber(BigInteger v) throws IOException {
    if (v == null) {
      writeNull();
      return;
    }
    plain(v.toString());
  }

  @Override
  public void writeNumber(double v) throws IOException {
    // The codec refuses NaN and infinities before they come here.
    plain(YamlNumbers.format(v));
  }

  @Override
  public void writeNumber(float v) throws IOException {
    plain(YamlNumbers.format(v));
  }

  @Override
  public void writeNumber(BigDecimal v) throws IOException {
    if (v == null) {
      writeNull();
      return;
    }
    plain(YamlNumbers.format(v, isEnabled(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)));
  }

  @Override
  public void writeNumber(String encodedValue) throws IOException {
    throw decline();
  }

  @Override
  public void writeBoolean(boolean state) throws IOException {
    plain(state ? "true" : "false");
  }

  @Override
  public void writeNull() throws IOException {
    plain("null");
  }

  private void plain(String text) throws IOException {
    _verifyValueWrite("write a value");
    scalarStart();
    ascii(text);
    scalarEnd();
  }

  @Override
  public void writeBinary(Base64Variant variant, byte[] data, int offset, int len)
      throws IOException {
    throw decline(); // Jackson's generator writes its own !!binary form
  }

  @Override
  public void writeRaw(String text) throws IOException {
    throw decline();
  }

  @Override
  public void writeRaw(String text, int offset, int len) throws IOException {
    throw decline();
  }

  @Override
  public void writeRaw(char[] text, int offset, int len) throws IOException {
    throw decline();
  }

  @Override
  public void writeRaw(char c) throws IOException {
    throw decline();
  }

  @Override
  public void flush() {
    // Everything is in memory until write() returns it.
  }

  @Override
  protected void _releaseBuffers() {
    // Nothing pooled.
  }

  // ---- strings

  /**
   * Whether a key is quoted. Keys are mostly the same few property names, so the answers for up to
   * {@link #CACHED_NAMES} of them are kept.
   */
  private static boolean quoteName(String name) {
    Boolean known = NAME_QUOTING.get(name);
    if (known != null) {
      return known;
    }
    boolean quote = QUOTING.needToQuoteName(name);
    if (NAME_QUOTING.size() < CACHED_NAMES) {
      NAME_QUOTING.put(name, quote);
    }
    return quote;
  }

  /**
   * A literal block carries a string exactly when it has a line break, does not start with a space
   * or a break, ends with at most one break, has no line ending in a space, and holds only
   * printable characters other than tab and YAML 1.1's extra line breaks.
   */
  private static boolean literalAllowed(String text) {
    int length = text.length();
    if (text.indexOf('\n') < 0 || text.charAt(0) == ' ' || text.charAt(0) == '\n') {
      return false;
    }
    if (length >= 2 && text.charAt(length - 1) == '\n' && text.charAt(length - 2) == '\n') {
      return false;
    }
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        if (i > 0 && text.charAt(i - 1) == ' ') {
          return false;
        }
      } else if (!printable(text, i)) {
        return false;
      } else if (Character.isHighSurrogate(c)) {
        i++;
      }
    }
    return text.charAt(length - 1) != ' ';
  }

  private void literal(String text, int indent) {
    boolean trailingBreak = text.charAt(text.length() - 1) == '\n';
    ascii(trailingBreak ? "|" : "|-");
    int end = trailingBreak ? text.length() - 1 : text.length();
    int start = 0;
    while (start <= end) {
      int next = text.indexOf('\n', start);
      if (next < 0 || next > end) {
        next = end;
      }
      newline();
      if (next > start) {
        indent(indent);
        text(text, start, next);
      }
      start = next + 1;
    }
  }

  private void doubleQuoted(String text) {
    ensure(1);
    out[size++] = '"';
    int length = text.length();
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"':
          ascii("\\\"");
          continue;
        case '\\':
          ascii("\\\\");
          continue;
        case '\n':
          ascii("\\n");
          continue;
        case '\t':
          ascii("\\t");
          continue;
        case '\r':
          ascii("\\r");
          continue;
        default:
          break;
      }
      if (printable(text, i)) {
        if (Character.isHighSurrogate(c)) {
          text(text, i, i + 2);
          i++;
        } else {
          text(text, i, i + 1);
        }
      } else {
        ensure(6);
        out[size++] = '\\';
        out[size++] = 'u';
        out[size++] = HEX[(c >> 12) & 0xF];
        out[size++] = HEX[(c >> 8) & 0xF];
        out[size++] = HEX[(c >> 4) & 0xF];
        out[size++] = HEX[c & 0xF];
      }
    }
    ensure(1);
    out[size++] = '"';
  }

  /**
   * Whether the character at {@code i} may appear as it is in a YAML 1.1 or 1.2 stream (a high
   * surrogate counts when a low one follows it); line breaks other than LF count as not printable.
   */
  private static boolean printable(String text, int i) {
    char c = text.charAt(i);
    if (c >= 0x20 && c <= 0x7E) {
      return true;
    }
    if (c < 0xA0) {
      return false;
    }
    if (Character.isHighSurrogate(c)) {
      return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
    }
    if (Character.isLowSurrogate(c)) {
      return false;
    }
    return c != 0x2028 && c != 0x2029 && c != 0xFEFF && c != 0xFFFE && c != 0xFFFF;
  }

  // ---- bytes

  /** Makes room for {@code more} bytes: a new chunk when the current one has less left. */
  private void ensure(int more) {
    if (size + more > out.length) {
      full.add(size == out.length ? out : Arrays.copyOf(out, size));
      fullBytes += size;
      out = new byte[Math.max(CHUNK, more)];
      size = 0;
    }
  }

  private byte[] bytes() {
    byte[] all = new byte[fullBytes + size];
    int at = 0;
    for (byte[] chunk : full) {
      System.arraycopy(chunk, 0, all, at, chunk.length);
      at += chunk.length;
    }
    System.arraycopy(out, 0, all, at, size);
    return all;
  }

  private void ascii(String text) {
    int length = text.length();
    ensure(length);
    for (int i = 0; i < length; i++) {
      out[size++] = (byte) text.charAt(i);
    }
  }

  private void newline() {
    ensure(1);
    out[size++] = '\n';
  }

  private void indent(int spaces) {
    ensure(spaces);
    Arrays.fill(out, size, size + spaces, (byte) ' ');
    size += spaces;
  }

  /** Writes characters as UTF-8; a lone surrogate (never passed here) would become U+FFFD. */
  private void text(String text, int from, int to) {
    ensure((to - from) * 3);
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        out[size++] = (byte) c;
      } else if (c < 0x800) {
        out[size++] = (byte) (0xC0 | (c >> 6));
        out[size++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c)
          && i + 1 < to
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        int codePoint = Character.toCodePoint(c, text.charAt(++i));
        out[size++] = (byte) (0xF0 | (codePoint >> 18));
        out[size++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
        out[size++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
        out[size++] = (byte) (0x80 | (codePoint & 0x3F));
      } else {
        char unit = Character.isSurrogate(c) ? '\uFFFD' : c;
        out[size++] = (byte) (0xE0 | (unit >> 12));
        out[size++] = (byte) (0x80 | ((unit >> 6) & 0x3F));
        out[size++] = (byte) (0x80 | (unit & 0x3F));
      }
    }
  }
}
