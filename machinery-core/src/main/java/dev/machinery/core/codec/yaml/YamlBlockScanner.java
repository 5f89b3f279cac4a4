package dev.machinery.core.codec.yaml;

import dev.machinery.core.internal.Surrogates;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the block-style YAML that manifests and the library's own emitter use, straight into a
 * {@link YamlReader}'s events, with the marks SnakeYAML would give them: one document of block
 * mappings and sequences (indentless and compact forms included), plain scalars on one line,
 * single- and double-quoted scalars on one line, literal block scalars ({@code |} and {@code |-}),
 * {@code {}} and {@code []}, and comments. Anything else (document markers, directives, tabs,
 * carriage returns, flow collections, anchors, aliases, tags, folded or kept block scalars,
 * multi-line plain or quoted scalars, explicit keys, characters a YAML stream may not hold) is
 * declined, as is any input the reader reports a problem in: the caller then reads the stream
 * through SnakeYAML, which also words every error. Recursion is bounded by {@link #MAX_DEPTH}. One
 * instance reads one stream on one thread.
 */
public final class YamlBlockScanner {
  /** Documents that nest deeper are left to SnakeYAML, which does not recurse on the stack. */
  public static final int MAX_DEPTH = 100;

  private static final int MAX_SIMPLE_KEY = 1024;

  /** Thrown inside the scanner when the text is outside its subset. */
  private static final class Declined extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Declined() {
      super(null, null, false, false);
    }
  }

  private static final Declined DECLINED = new Declined();

  private final char[] chars;
  private final int length;
  private final YamlReader reader;

  /** Whether the text holds characters beyond the BMP, so that columns count code points. */
  private final boolean surrogates;

  private int pos;
  private int line = 1;
  private int lineStart;
  private int depth;

  private YamlBlockScanner(char[] chars, int length, YamlReader reader, boolean surrogates) {
    this.chars = chars;
    this.length = length;
    this.reader = reader;
    this.surrogates = surrogates;
  }

  /**
   * Reads the stream, or returns null when it is outside the subset or holds a problem.
   *
   * @param chars the stream's characters
   * @param length how many of them there are
   * @param reader the reader to feed
   * @return the documents, or null
   */
  static List<YamlReader.Document> read(char[] chars, int length, YamlReader reader) {
    int alphabet = alphabet(chars, length);
    if (alphabet < 0) {
      return null;
    }
    try {
      return new YamlBlockScanner(chars, length, reader, alphabet > 0).stream();
    } catch (RuntimeException e) {
      // Declined, or a problem (a limit, a bad merge key) that SnakeYAML's pass reports with its
      // own wording; a defect here costs speed, never a wrong result.
      return null;
    }
  }

  /**
   * Returns -1 unless the text has only LF line breaks, no tabs, no byte order mark and only
   * characters YAML may carry; else 1 if it holds surrogate pairs, 0 if not.
   */
  private static int alphabet(char[] text, int length) {
    int pairs = 0;
    for (int i = 0; i < length; i++) {
      char c = text[i];
      if (c >= 0x20 && c <= 0x7E || c == '\n') {
        continue;
      }
      if (c < 0xA0 || c == 0xFEFF || c == 0xFFFE || c == 0xFFFF || c == 0x2028 || c == 0x2029) {
        return -1;
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= length || !Character.isLowSurrogate(text[i + 1])) {
          return -1;
        }
        i++;
        pairs = 1;
      } else if (Character.isLowSurrogate(c)) {
        return -1;
      }
    }
    return pairs;
  }

  private List<YamlReader.Document> stream() {
    List<YamlReader.Document> documents = new ArrayList<>(1);
    reader.count(1, 1); // stream start
    skipBlankLines();
    if (pos >= length) {
      reader.count(line, 1); // stream end
      return documents;
    }
    int indent = pos - lineStart;
    if (indent != 0 || startsMarker()) {
      throw DECLINED;
    }
    reader.count(line, 1); // document start
    reader.startDocument();
    if (isDash(pos)) {
      sequence(0, false);
    } else if (keyAhead()) {
      mapping(0);
    } else {
      throw DECLINED;
    }
    skipBlankLines();
    if (pos < length) {
      throw DECLINED;
    }
    reader.count(line, 1); // document end
    reader.endDocument(documents, 0);
    reader.count(line, 1); // stream end
    return documents;
  }

  /**
   * Whether pos starts a directive or something that may be a document marker: {@code %}, or {@code
   * ---} or {@code ...} followed by anything (declining {@code ---x} too is merely slower).
   */
  private boolean startsMarker() {
    return chars[pos] == '%'
        || pos + 2 < length
            && (chars[pos] == '-' || chars[pos] == '.')
            && chars[pos + 1] == chars[pos]
            && chars[pos + 2] == chars[pos];
  }

  // ---- collections

  /** A block mapping whose first key is at {@code pos}, in column {@code indent}. */
  private void mapping(int indent) {
    enter();
    reader.count(line, indent + 1);
    reader.startCollection(true, null, null, line, indent + 1);
    while (true) {
      entry(indent);
      skipBlankLines();
      if (pos >= length) {
        break;
      }
      int next = pos - lineStart;
      if (next < indent) {
        break;
      }
      if (next > indent || isDash(pos) || !keyAhead()) {
        throw DECLINED;
      }
    }
    reader.count(line, 1);
    reader.end();
    depth--;
  }

  /** A block sequence whose first "-" is at {@code pos}, in column {@code indent}. */
  private void sequence(int indent, boolean indentless) {
    enter();
    reader.count(line, indent + 1);
    reader.startCollection(false, null, null, line, indent + 1);
    while (true) {
      int dashLine = line;
      int dashColumn = pos - lineStart;
      pos++; // the dash
      skipSpaces();
      if (atLineEnd()) {
        endLine();
        valueBelow(indent, false, dashLine, dashColumn + 2);
      } else {
        compact(indent);
      }
      skipBlankLines();
      if (pos >= length) {
        break;
      }
      int next = pos - lineStart;
      if (next < indent) {
        break;
      }
      if (next > indent) {
        throw DECLINED;
      }
      if (!isDash(pos)) {
        if (indentless) {
          break; // the parent mapping's next key
        }
        throw DECLINED;
      }
    }
    reader.count(line, 1);
    reader.end();
    depth--;
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw DECLINED;
    }
  }

  /** The node after "- " on the same line, in a sequence whose dashes are in column indent. */
  private void compact(int indent) {
    int column = pos - lineStart;
    if (isDash(pos)) {
      sequence(column, false);
    } else if (keyAhead()) {
      mapping(column);
    } else {
      inlineValue(indent);
    }
  }

  /** One "key: value" of a mapping whose keys are in column indent. */
  private void entry(int indent) {
    key();
    int colonLine = line;
    int colonColumn = column(pos);
    pos++; // the colon
    skipSpaces();
    if (atLineEnd()) {
      endLine();
      valueBelow(indent, true, colonLine, colonColumn + 1);
    } else {
      inlineValue(indent);
    }
  }

  /**
   * The value of a key or dash that ended its line: a collection on the lines below, or null. An
   * empty value has the mark SnakeYAML gives it, just after its ":" or "-".
   */
  private void valueBelow(int indent, boolean indentlessAllowed, int markLine, int markColumn) {
    skipBlankLines();
    if (pos < length) {
      int next = pos - lineStart;
      if (next > indent) {
        if (isDash(pos)) {
          sequence(next, false);
        } else if (keyAhead()) {
          mapping(next);
        } else {
          throw DECLINED; // a scalar on its own line
        }
        return;
      }
      if (next == indent && indentlessAllowed && isDash(pos)) {
        sequence(indent, true);
        return;
      }
    }
    reader.count(markLine, markColumn);
    reader.scalar("", true, markLine, markColumn);
  }

  // ---- scalars

  /** A value that starts on the current line, in a collection whose entries are at indent. */
  private void inlineValue(int indent) {
    int column = column(pos);
    char c = chars[pos];
    reader.count(line, column);
    switch (c) {
      case '"':
        reader.scalar(doubleQuoted(), false, line, column);
        endValueLine();
        return;
      case '\'':
        reader.scalar(singleQuoted(), false, line, column);
        endValueLine();
        return;
      case '{':
      case '[':
        if (pos + 1 < length && chars[pos + 1] == (c == '{' ? '}' : ']')) {
          reader.startCollection(c == '{', null, null, line, column);
          pos += 2;
          reader.count(line, column);
          reader.end();
          endValueLine();
          return;
        }
        throw DECLINED;
      case '|':
        literal(indent, column);
        return;
      case '&':
      case '*':
      case '!':
      case '>':
      case '%':
      case '@':
      case '`':
      case ',':
      case ']':
      case '}':
      case '#':
        throw DECLINED;
      case '-':
      case '?':
      case ':':
        if (pos + 1 >= length || chars[pos + 1] == ' ' || chars[pos + 1] == '\n') {
          throw DECLINED;
        }
        break;
      default:
        break;
    }
    int startLine = line;
    String value = plainToLineEnd();
    reader.scalar(value, true, startLine, column);
    // A more indented line after a plain scalar would continue it: left to SnakeYAML.
    int save = pos;
    int saveLine = line;
    int saveStart = lineStart;
    skipBlankLines();
    boolean continued = pos < length && pos - lineStart > indent;
    pos = save;
    line = saveLine;
    lineStart = saveStart;
    if (continued) {
      throw DECLINED;
    }
  }

  /** A plain value from pos to a comment or the end of the line, which it consumes. */
  private String plainToLineEnd() {
    int start = pos;
    int end = pos;
    while (end < length) {
      char c = chars[end];
      if (c == '\n') {
        break;
      }
      if (c == ':' && (end + 1 >= length || chars[end + 1] == ' ' || chars[end + 1] == '\n')) {
        throw DECLINED; // "a: b" as a value is an error SnakeYAML words
      }
      if (c == '#' && chars[end - 1] == ' ') {
        break;
      }
      end++;
    }
    int last = end;
    while (chars[last - 1] == ' ') {
      last--;
    }
    pos = end;
    endValueLine();
    return new String(chars, start, last - start);
  }

  /** After a value: spaces, then a comment or the end of the line, which is consumed. */
  private void endValueLine() {
    skipSpaces();
    if (!atLineEnd()) {
      throw DECLINED;
    }
    endLine();
  }

  /** A key at pos (plain, or quoted on one line), its event sent; leaves pos at its colon. */
  private void key() {
    int column = column(pos);
    int keyStart = pos;
    char c = chars[pos];
    String key;
    boolean plain = false;
    if (c == '"') {
      key = doubleQuoted();
    } else if (c == '\'') {
      key = singleQuoted();
    } else {
      int start = pos;
      while (!(chars[pos] == ':' && colonEndsKey(pos))) {
        pos++;
      }
      int last = pos;
      while (chars[last - 1] == ' ') {
        last--;
      }
      key = new String(chars, start, last - start);
      plain = true;
    }
    skipSpaces();
    if (pos >= length || chars[pos] != ':' || pos - keyStart > MAX_SIMPLE_KEY) {
      throw DECLINED; // SnakeYAML refuses implicit keys longer than this
    }
    reader.count(line, column);
    reader.scalar(key, plain, line, column);
  }

  /**
   * Whether a mapping key starts at pos: a quoted scalar on this line followed by ":", or a plain
   * one (not starting with an indicator) with ": " or a final ":" before any comment.
   */
  private boolean keyAhead() {
    char c = chars[pos];
    int i;
    if (c == '"' || c == '\'') {
      i = quotedEnd(pos);
      if (i < 0) {
        return false;
      }
      while (i < length && chars[i] == ' ') {
        i++;
      }
      return i < length && chars[i] == ':' && colonEndsKey(i);
    }
    if ("&*!|>%@`{}[],#\"'".indexOf(c) >= 0) {
      return false;
    }
    if ((c == '-' || c == '?' || c == ':')
        && (pos + 1 >= length || chars[pos + 1] == ' ' || chars[pos + 1] == '\n')) {
      return false;
    }
    for (i = pos; i < length; i++) {
      char d = chars[i];
      if (d == '\n' || (d == '#' && i > pos && chars[i - 1] == ' ')) {
        return false;
      }
      if (d == ':' && colonEndsKey(i)) {
        return i > pos;
      }
    }
    return false;
  }

  private boolean colonEndsKey(int at) {
    return at + 1 >= length || chars[at + 1] == ' ' || chars[at + 1] == '\n';
  }

  /** The index just after the quoted scalar starting at {@code from}, or -1 if not on one line. */
  private int quotedEnd(int from) {
    char quote = chars[from];
    for (int i = from + 1; i < length; i++) {
      char c = chars[i];
      if (c == '\n') {
        return -1;
      }
      if (quote == '"' && c == '\\') {
        i++;
      } else if (c == quote) {
        if (quote == '\'' && i + 1 < length && chars[i + 1] == '\'') {
          i++;
        } else {
          return i + 1;
        }
      }
    }
    return -1;
  }

  private String singleQuoted() {
    int end = quotedEnd(pos);
    if (end < 0) {
      throw DECLINED;
    }
    String value = new String(chars, pos + 1, end - 1 - (pos + 1));
    pos = end;
    return value.indexOf('\'') < 0 ? value : value.replace("''", "'");
  }

  private String doubleQuoted() {
    int start = ++pos;
    while (pos < length) {
      char c = chars[pos];
      if (c == '"') {
        String value = new String(chars, start, pos - start);
        pos++;
        return value;
      }
      if (c == '\\') {
        return doubleQuotedEscaped(start);
      }
      if (c == '\n') {
        throw DECLINED;
      }
      pos++;
    }
    throw DECLINED;
  }

  private String doubleQuotedEscaped(int start) {
    StringBuilder value = new StringBuilder(64);
    value.append(chars, start, pos - start);
    while (pos < length) {
      char c = chars[pos++];
      if (c == '"') {
        // A "backslash u" escape may have written half a surrogate pair; nothing else can.
        return Surrogates.repair(value.toString());
      }
      if (c == '\n') {
        throw DECLINED;
      }
      if (c != '\\') {
        value.append(c);
        continue;
      }
      if (pos >= length) {
        throw DECLINED;
      }
      // Exactly the escapes SnakeYAML accepts (YAML 1.1's: no "\/"), so that whether a document
      // reads never depends on which of the two readers reads it.
      char e = chars[pos++];
      switch (e) {
        case '0':
          value.append('\0');
          break;
        case 'a':
          value.append('\u0007');
          break;
        case 'b':
          value.append('\b');
          break;
        case 't':
          value.append('\t');
          break;
        case 'n':
          value.append('\n');
          break;
        case 'v':
          value.append('\u000B');
          break;
        case 'f':
          value.append('\f');
          break;
        case 'r':
          value.append('\r');
          break;
        case 'e':
          value.append('\u001B');
          break;
        case ' ':
        case '"':
        case '\\':
          value.append(e);
          break;
        case 'N':
          value.append('\u0085');
          break;
        case '_':
          value.append('\u00A0');
          break;
        case 'L':
          value.append('\u2028');
          break;
        case 'P':
          value.append('\u2029');
          break;
        case 'x':
          value.append((char) hex(2));
          break;
        case 'u':
          value.append((char) hex(4));
          break;
        case 'U':
          {
            int codePoint = hex(8);
            if (!Character.isValidCodePoint(codePoint)) {
              throw DECLINED;
            }
            value.appendCodePoint(codePoint);
            break;
          }
        default:
          throw DECLINED;
      }
    }
    throw DECLINED;
  }

  private int hex(int digits) {
    if (pos + digits > length) {
      throw DECLINED;
    }
    int value = 0;
    for (int i = 0; i < digits; i++) {
      int digit = Character.digit(chars[pos++], 16);
      if (digit < 0) {
        throw DECLINED;
      }
      value = value * 16 + digit;
    }
    return value;
  }

  /**
   * A literal block scalar ("|" or "|-", indentation detected) whose header is at pos, in a
   * collection whose entries are in column indent.
   */
  private void literal(int indent, int column) {
    int headerLine = line;
    pos++;
    boolean strip = false;
    if (pos < length && chars[pos] == '-') {
      strip = true;
      pos++;
    }
    if (pos < length && chars[pos] != ' ' && chars[pos] != '\n') {
      throw DECLINED; // "|+", an indentation indicator, or something else
    }
    skipSpaces();
    if (!atLineEnd()) {
      throw DECLINED;
    }
    endLine();
    StringBuilder value = new StringBuilder();
    int contentIndent = -1;
    int pendingBreaks = 0;
    boolean endsWithBreak = false;
    while (pos < length) {
      int spaces = 0;
      while (pos + spaces < length && chars[pos + spaces] == ' ') {
        spaces++;
      }
      int end = lineEnd(pos);
      if (end < 0) {
        end = length;
      }
      if (pos + spaces == end) {
        // A line of spaces only: an empty line, unless it is indented past the content.
        if (contentIndent < 0 || spaces > contentIndent) {
          throw DECLINED;
        }
        pendingBreaks++;
      } else {
        if (contentIndent < 0) {
          if (spaces <= indent) {
            break; // no content: an empty block
          }
          contentIndent = spaces;
        } else if (spaces < contentIndent) {
          break;
        }
        if (value.length() > 0 || pendingBreaks > 0) {
          value.append('\n');
        }
        for (; pendingBreaks > 0; pendingBreaks--) {
          value.append('\n');
        }
        value.append(chars, pos + contentIndent, end - (pos + contentIndent));
      }
      endsWithBreak = end < length;
      pos = end;
      if (end < length) {
        pos++;
        line++;
        lineStart = pos;
      }
    }
    if (!strip && contentIndent >= 0 && (endsWithBreak || pendingBreaks > 0)) {
      value.append('\n');
    }
    reader.scalar(value.toString(), false, headerLine, column);
  }

  // ---- lines

  /** The index of the next line break at or after {@code from}, or -1. */
  private int lineEnd(int from) {
    for (int i = from; i < length; i++) {
      if (chars[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /** The 1-based column of a position, counted in code points as SnakeYAML counts it. */
  private int column(int at) {
    return surrogates
        ? Character.codePointCount(chars, lineStart, at - lineStart) + 1
        : at - lineStart + 1;
  }

  /** Whether pos is at "-" followed by a space or the end of a line. */
  private boolean isDash(int at) {
    return chars[at] == '-' && (at + 1 >= length || chars[at + 1] == ' ' || chars[at + 1] == '\n');
  }

  private void skipSpaces() {
    while (pos < length && chars[pos] == ' ') {
      pos++;
    }
  }

  /** Whether pos (after spaces) is at the end of the line, the text, or a comment. */
  private boolean atLineEnd() {
    return pos >= length
        || chars[pos] == '\n'
        || (chars[pos] == '#' && (pos == lineStart || chars[pos - 1] == ' '));
  }

  /** Consumes the rest of the line and its break. */
  private void endLine() {
    int end = lineEnd(pos);
    if (end < 0) {
      pos = length;
      return;
    }
    pos = end + 1;
    line++;
    lineStart = pos;
  }

  /**
   * Skips empty and comment lines; leaves pos at the first character of the next content line.
   * Every content line after the first is reached here, so this is where a line that starts with a
   * document marker or a directive is declined: {@code ---} or {@code ...} in column 0 ends the
   * document (or is an error) wherever it appears, never part of a key or value.
   */
  private void skipBlankLines() {
    while (pos < length) {
      int start = pos;
      while (pos < length && chars[pos] == ' ') {
        pos++;
      }
      if (pos < length && chars[pos] != '\n' && chars[pos] != '#') {
        if (pos == lineStart && startsMarker()) {
          throw DECLINED;
        }
        return;
      }
      pos = start;
      endLine();
    }
  }
}
