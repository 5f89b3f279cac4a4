package dev.machinery.core.codec.yaml;

import static dev.machinery.core.internal.Text.quote;

import com.fasterxml.jackson.core.JsonToken;
import dev.machinery.core.codec.CodecLimits;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.LimitExceededException;
import dev.machinery.core.internal.FieldPaths;
import dev.machinery.core.internal.Messages;
import dev.machinery.core.internal.Surrogates;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.ScannerImpl;

/**
 * Reads a YAML stream into documents of {@link YamlNode}s: aliases resolved under a budget with
 * cycle detection, merge keys ({@code <<}) expanded, duplicate keys recorded, and plain scalars
 * resolved by the YAML 1.2 core schema. Iterative, so deep nesting cannot overflow the stack. One
 * instance reads one stream on one thread.
 */
public final class YamlReader {
  /** The most duplicate keys of a document kept by path; the rest are counted. */
  public static final int MAX_KEPT_DUPLICATES = 100;

  private static final String TAG = "tag:yaml.org,2002:";
  private static final Pattern INT = Pattern.compile("[-+]?[0-9]+");
  private static final Pattern OCT = Pattern.compile("0o[0-7]+");
  private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]+");
  private static final Pattern FLOAT =
      Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  private static final Pattern INF = Pattern.compile("[-+]?\\.(inf|Inf|INF)");
  private static final Pattern NAN = Pattern.compile("\\.(nan|NaN|NAN)");
  private static final String MERGE_KEY = "<<";

  /** One document of a stream, with the duplicate keys found in it (the first 100, and a count). */
  public static final class Document {
    /** The document's root node. */
    public final YamlNode root;

    /** The paths of the duplicate keys found, the first {@link #MAX_KEPT_DUPLICATES}. */
    public final List<String> duplicatePaths;

    /** How many more duplicate keys were found than {@link #duplicatePaths} holds. */
    public final int omittedDuplicates;

    /** Whether empty documents came before this one, the first that is not empty. */
    public final boolean afterEmpty;

    /**
     * A document that is not the first of its stream after empty ones.
     *
     * @param root the root node
     * @param duplicatePaths the paths of duplicate keys
     * @param omittedDuplicates how many more duplicates there were
     */
    public Document(YamlNode root, List<String> duplicatePaths, int omittedDuplicates) {
      this(root, duplicatePaths, omittedDuplicates, false);
    }

    Document(
        YamlNode root, List<String> duplicatePaths, int omittedDuplicates, boolean afterEmpty) {
      this.root = root;
      this.duplicatePaths = duplicatePaths;
      this.omittedDuplicates = omittedDuplicates;
      this.afterEmpty = afterEmpty;
    }
  }

  private static final class Frame {
    final YamlNode node;
    final String anchor;

    /** Where the collection sits in its parent: a key, or (key null) an index; null at the root. */
    final Frame parent;

    final String keyInParent;
    final int indexInParent;

    /** The path, computed when a message first needs it. */
    private String path;

    String key;
    boolean keyIsMerge;
    List<YamlNode.Mapping> merges;

    Frame(YamlNode node, String anchor, Frame parent) {
      this.node = node;
      this.anchor = anchor;
      this.parent = parent;
      if (parent == null) {
        this.keyInParent = null;
        this.indexInParent = -1;
        this.path = "";
      } else if (parent.node instanceof YamlNode.Sequence) {
        this.keyInParent = null;
        this.indexInParent = ((YamlNode.Sequence) parent.node).items.size();
      } else {
        this.keyInParent = parent.key;
        this.indexInParent = -1;
      }
    }

    /** The collection's path, built from the nearest ancestor that has one (no recursion). */
    String path() {
      if (path != null) {
        return path;
      }
      Deque<Frame> unknown = new ArrayDeque<>();
      Frame frame = this;
      while (frame.path == null) {
        unknown.push(frame);
        frame = frame.parent;
      }
      while (!unknown.isEmpty()) {
        Frame child = unknown.pop();
        String base = child.parent.path;
        if (child.indexInParent >= 0) {
          child.path = base + "[" + child.indexInParent + "]";
        } else {
          child.path = child.keyInParent == null ? base : FieldPaths.child(base, child.keyInParent);
        }
      }
      return path;
    }
  }

  private final CodecLimits limits;
  private final Map<String, YamlNode> anchors = new HashMap<>();
  private final Set<String> openAnchors = new HashSet<>();
  private final Deque<Frame> stack = new ArrayDeque<>();
  private List<String> duplicates = new ArrayList<>();
  private int omittedDuplicates;
  private YamlNode root;
  private long aliasNodes;
  private long events;

  private YamlReader(CodecLimits limits) {
    this.limits = limits;
  }

  /**
   * Reads every non-empty document of a YAML stream (the codec decodes its UTF-8 once, into the
   * characters the block scanner reads; a string is made only for SnakeYAML).
   *
   * @param chars the stream's characters
   * @param length how many of them there are
   * @param limits the limits to read under
   * @return the documents
   * @throws DecodeException if the stream is not valid YAML or breaks a limit
   */
  public static List<Document> read(char[] chars, int length, CodecLimits limits) {
    return new YamlReader(limits).read(chars, length);
  }

  /**
   * Reads every non-empty document of {@code text}, as the codec does. For tests.
   *
   * @param text the stream
   * @param limits the limits to read under
   * @return the documents
   */
  public static List<Document> read(String text, CodecLimits limits) {
    return new YamlReader(limits).read(text.toCharArray(), text.length());
  }

  /**
   * Reads {@code text} with the block scanner alone: null when it declines the text. For tests.
   *
   * @param text the stream
   * @param limits the limits to read under
   * @return the documents, or null
   */
  public static List<Document> readWithBlockScanner(String text, CodecLimits limits) {
    return YamlBlockScanner.read(text.toCharArray(), text.length(), new YamlReader(limits));
  }

  /**
   * Reads every non-empty document of {@code text} through SnakeYAML alone. For tests.
   *
   * @param text the stream
   * @param limits the limits to read under
   * @return the documents
   */
  public static List<Document> readWithSnakeYaml(String text, CodecLimits limits) {
    return new YamlReader(limits).readSnakeYaml(text);
  }

  /**
   * The document sizes checked first; then the block scanner; outside its subset, or with a problem
   * to report, SnakeYAML.
   */
  private List<Document> read(char[] chars, int length) {
    checkDocumentSizes(chars, length, limits.maxYamlDocumentBytes());
    List<Document> documents = YamlBlockScanner.read(chars, length, this);
    if (documents != null) {
      return documents;
    }
    reset();
    return readSnakeYaml(new String(chars, 0, length));
  }

  /**
   * Refuses a stream in which the text from one document marker ({@code ---} or {@code ...} at the
   * start of a line, followed by a space, tab, line break or the end) to the next, or from the
   * start of the stream to the first, is longer than {@code maxBytes} in UTF-8: a document of the
   * stream can be no longer than that text, as a marker line always ends a document (or is an
   * error). One pass over the characters, before any parsing, so that an oversized document costs
   * no more than that pass, whatever it holds.
   */
  static void checkDocumentSizes(char[] chars, int length, int maxBytes) {
    long bytes = 0;
    int line = 1;
    int startLine = 1;
    boolean lineStart = true;
    for (int i = 0; i < length; i++) {
      char c = chars[i];
      if (lineStart && (c == '-' || c == '.') && isMarker(chars, i, length) && i > 0) {
        bytes = 0;
        startLine = line;
      }
      if (c < 0x80) {
        bytes++;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < length
          && Character.isLowSurrogate(chars[i + 1])) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
      if (bytes > maxBytes) {
        throw new LimitExceededException(
            "maxYamlDocumentBytes",
            maxBytes,
            "the YAML document starting at line "
                + startLine
                + " is larger than the limit of "
                + maxBytes
                + " bytes for one document (maxYamlDocumentBytes)",
            "",
            startLine,
            1);
      }
      lineStart = c == '\n' || (c == '\r' && (i + 1 >= length || chars[i + 1] != '\n'));
      if (lineStart) {
        line++;
      }
    }
  }

  /** Whether a document marker starts at {@code i}, the start of a line. */
  private static boolean isMarker(char[] chars, int i, int length) {
    if (i + 2 >= length || chars[i + 1] != chars[i] || chars[i + 2] != chars[i]) {
      return false;
    }
    if (i + 3 == length) {
      return true;
    }
    char after = chars[i + 3];
    return after == ' ' || after == '\t' || after == '\n' || after == '\r';
  }

  private List<Document> readSnakeYaml(String text) {
    LoaderOptions options = new LoaderOptions();
    // Each document's size is checked before parsing (checkDocumentSizes); SnakeYAML's own limit
    // on a document's code points, which it checks only between tokens, is set past it.
    options.setCodePointLimit(Integer.MAX_VALUE);
    options.setProcessComments(false);
    StreamReader stream = new StreamReader(withFinalBreak(text));
    ParserImpl parser =
        new ParserImpl(
            new YamlSyntaxChecks(new ScannerImpl(stream, options), text, this::currentPath));
    List<Document> documents = new ArrayList<>();
    int empties = 0;
    try {
      while (true) {
        Event event = parser.getEvent();
        count(line(event), column(event));
        switch (event.getEventId()) {
          case StreamStart:
            break;
          case StreamEnd:
            return documents;
          case DocumentStart:
            startDocument();
            break;
          case DocumentEnd:
            empties = endDocument(documents, empties);
            break;
          case MappingStart:
          case SequenceStart:
            {
              CollectionStartEvent start = (CollectionStartEvent) event;
              startCollection(
                  event.getEventId() == Event.ID.MappingStart,
                  start.getTag(),
                  start.getAnchor(),
                  line(event),
                  column(event));
              break;
            }
          case MappingEnd:
          case SequenceEnd:
            end();
            break;
          case Scalar:
            {
              ScalarEvent scalar = (ScalarEvent) event;
              scalar(
                  scalar.getValue(),
                  scalar.isPlain(),
                  scalar.getTag(),
                  scalar.getAnchor(),
                  line(event),
                  column(event));
              break;
            }
          case Alias:
            alias(((AliasEvent) event).getAnchor(), line(event), column(event));
            break;
          default:
            break;
        }
      }
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
      throw new DecodeException(
          "invalid YAML"
              + (mark == null
                  ? ""
                  : " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1))
              + ": "
              + Messages.sanitize(problem),
          currentPath(),
          mark == null ? 0 : mark.getLine() + 1,
          mark == null ? 0 : mark.getColumn() + 1,
          null);
    } catch (YAMLException e) {
      throw new DecodeException(
          "invalid YAML: " + Messages.sanitize(e.getMessage()), currentPath());
    } catch (DecodeException e) {
      throw e; // the reader's own errors and limits, already worded
    } catch (RuntimeException e) {
      throw parserFailure(e, stream.getMark());
    }
  }

  /**
   * Words an exception SnakeYAML did not mean to throw (it escapes its scanner as a raw runtime
   * exception) as a DecodeException at the position where the scanner stopped. The one known case,
   * an escape {@code \UXXXXXXXX} above {@code \U7FFFFFFF} (SnakeYAML parses the digits as an {@code
   * int}), gets the message SnakeYAML gives every other escape that is not a code point.
   */
  private DecodeException parserFailure(RuntimeException e, Mark mark) {
    int[] window = mark.getBuffer();
    int at = mark.getPointer();
    String problem;
    if (at >= 2
        && at + 8 <= window.length
        && window[at - 1] == 'U'
        && window[at - 2] == '\\'
        && isHex(window, at, at + 8)) {
      problem = "found unknown escape character " + new String(window, at, 8);
    } else {
      problem =
          "the YAML parser failed ("
              + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + Messages.sanitize(e.getMessage()))
              + ")";
    }
    int line = mark.getLine() + 1;
    int column = mark.getColumn() + 1;
    return new DecodeException(
        "invalid YAML at line " + line + ", column " + column + ": " + problem,
        currentPath(),
        line,
        column,
        e);
  }

  private static boolean isHex(int[] codePoints, int from, int to) {
    for (int i = from; i < to; i++) {
      if (Character.digit(codePoints[i], 16) < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The text, with a line break added when its last line holds only spaces and has none: YAML 1.2
   * ends that line at the end of the stream as at a break ({@code "foo: |\n x\n "} is {@code "x\n
   * \n"}), while SnakeYAML drops it. Elsewhere a line of spaces means nothing either way.
   */
  private static String withFinalBreak(String text) {
    int i = text.length();
    while (i > 0 && text.charAt(i - 1) == ' ') {
      i--;
    }
    if (i == text.length() || (i > 0 && text.charAt(i - 1) != '\n')) {
      return text;
    }
    return text + "\n";
  }

  /** Forgets what an abandoned read of the stream left behind. */
  private void reset() {
    anchors.clear();
    openAnchors.clear();
    stack.clear();
    duplicates = new ArrayList<>();
    omittedDuplicates = 0;
    root = null;
    aliasNodes = 0;
    events = 0;
  }

  /** Counts one event of the stream against {@code maxTokenCount}. */
  void count(int line, int column) {
    if (++events > limits.maxTokenCount()) {
      throw limit(
          "maxTokenCount",
          limits.maxTokenCount(),
          "the YAML stream has more than " + limits.maxTokenCount() + " nodes",
          line,
          column);
    }
  }

  void startDocument() {
    anchors.clear();
    openAnchors.clear();
    duplicates = new ArrayList<>();
    omittedDuplicates = 0;
    root = null;
  }

  /** Ends a document: kept when it is not empty. Returns the count of empty documents so far. */
  int endDocument(List<Document> documents, int empties) {
    if (root != null && !isNull(root)) {
      documents.add(
          new Document(root, duplicates, omittedDuplicates, documents.isEmpty() && empties > 0));
      return empties;
    }
    return empties + 1;
  }

  private static boolean isNull(YamlNode node) {
    return node instanceof YamlNode.Scalar
        && ((YamlNode.Scalar) node).token == JsonToken.VALUE_NULL;
  }

  void startCollection(boolean mapping, String tag, String anchor, int line, int column) {
    YamlNode node =
        mapping ? new YamlNode.Mapping(line, column) : new YamlNode.Sequence(line, column);
    if (tag != null && !tag.equals("!") && !tag.equals(TAG + (mapping ? "map" : "seq"))) {
      throw error(
          "unsupported YAML tag " + quote(tag) + " on a " + (mapping ? "mapping" : "sequence"),
          line,
          column);
    }
    if (stack.size() >= limits.maxNestingDepth()) {
      throw limit(
          "maxNestingDepth",
          limits.maxNestingDepth(),
          "the document nests deeper than " + limits.maxNestingDepth() + " levels",
          line,
          column);
    }
    if (anchor != null) {
      openAnchors.add(anchor);
    }
    stack.push(new Frame(node, anchor, stack.peek()));
  }

  void end() {
    Frame frame = stack.pop();
    if (frame.merges != null) {
      YamlNode.Mapping mapping = (YamlNode.Mapping) frame.node;
      for (YamlNode.Mapping merged : frame.merges) {
        for (int i = 0; i < merged.keys.size(); i++) {
          String key = merged.keys.get(i);
          if (!mapping.containsKey(key)) {
            mapping.put(key, merged.values.get(i));
            mapping.total += merged.values.get(i).size();
          }
        }
      }
    }
    if (frame.anchor != null) {
      openAnchors.remove(frame.anchor);
      anchors.put(frame.anchor, frame.node);
    }
    add(frame.node, false, frame.node.line, frame.node.column);
  }

  void scalar(String value, boolean plain, String tag, String anchor, int line, int column) {
    YamlNode.Scalar node = resolve(Surrogates.repair(value), plain, tag, line, column);
    if (anchor != null) {
      anchors.put(anchor, node);
    }
    add(node, plain && tag == null, line, column);
  }

  /** A scalar with no tag or anchor whose text holds no lone surrogate (the block scanner's). */
  void scalar(String text, boolean plain, int line, int column) {
    add(resolve(text, plain, null, line, column), plain, line, column);
  }

  private void alias(String anchor, int line, int column) {
    if (openAnchors.contains(anchor)) {
      throw error(
          "the alias *" + anchor + " refers to a node that contains it (a cycle)", line, column);
    }
    YamlNode node = anchors.get(anchor);
    if (node == null) {
      throw error("the alias *" + anchor + " refers to no anchor defined before it", line, column);
    }
    aliasNodes += node.size();
    if (aliasNodes > limits.maxYamlAliasNodes()) {
      throw limit(
          "maxYamlAliasNodes",
          limits.maxYamlAliasNodes(),
          "YAML aliases expand to more than " + limits.maxYamlAliasNodes() + " nodes",
          line,
          column);
    }
    add(node, false, line, column);
  }

  /**
   * Adds a node to the collection being read; {@code plainUntagged} tells whether it was a plain
   * scalar without a tag, the only form of {@code <<} that is a merge key.
   */
  private void add(YamlNode node, boolean plainUntagged, int line, int column) {
    Frame top = stack.peek();
    if (top == null) {
      root = node;
      return;
    }
    if (top.node instanceof YamlNode.Sequence) {
      ((YamlNode.Sequence) top.node).items.add(node);
      ((YamlNode.Sequence) top.node).total += node.size();
      return;
    }
    YamlNode.Mapping mapping = (YamlNode.Mapping) top.node;
    if (top.key == null) {
      if (!(node instanceof YamlNode.Scalar)) {
        throw error(
            "a mapping key at "
                + quote(top.path().isEmpty() ? "(root)" : top.path())
                + " is a mapping or sequence; only scalar keys are supported",
            line,
            column);
      }
      YamlNode.Scalar key = (YamlNode.Scalar) node;
      if (key.text.length() > limits.maxNameLength()) {
        throw limit(
            "maxNameLength",
            limits.maxNameLength(),
            "a key at "
                + quote(top.path())
                + " is longer than "
                + limits.maxNameLength()
                + " characters",
            line,
            column);
      }
      top.key = key.text;
      top.keyIsMerge = plainUntagged && MERGE_KEY.equals(key.text);
      return;
    }
    String key = top.key;
    top.key = null;
    if (top.keyIsMerge) {
      top.keyIsMerge = false;
      merge(top, node, line, column);
      return;
    }
    if (mapping.put(key, node)) {
      mapping.total += node.size();
    } else if (duplicates.size() < MAX_KEPT_DUPLICATES) {
      duplicates.add(FieldPaths.child(top.path(), key));
    } else {
      omittedDuplicates++;
    }
  }

  private void merge(Frame frame, YamlNode value, int line, int column) {
    if (frame.merges == null) {
      frame.merges = new ArrayList<>();
    }
    if (value instanceof YamlNode.Mapping) {
      frame.merges.add((YamlNode.Mapping) value);
      return;
    }
    if (value instanceof YamlNode.Sequence) {
      boolean allMappings = true;
      for (YamlNode item : ((YamlNode.Sequence) value).items) {
        allMappings &= item instanceof YamlNode.Mapping;
      }
      if (allMappings) {
        for (YamlNode item : ((YamlNode.Sequence) value).items) {
          frame.merges.add((YamlNode.Mapping) item);
        }
        return;
      }
    }
    throw error(
        "the merge key \"<<\" at "
            + quote(FieldPaths.child(frame.path(), MERGE_KEY))
            + " must be given a mapping or a sequence of mappings",
        line,
        column);
  }

  /** The path of the node about to be added. */
  private String childPath() {
    Frame top = stack.peek();
    if (top == null) {
      return "";
    }
    if (top.node instanceof YamlNode.Sequence) {
      return top.path() + "[" + ((YamlNode.Sequence) top.node).items.size() + "]";
    }
    return top.key == null ? top.path() : FieldPaths.child(top.path(), top.key);
  }

  private String currentPath() {
    return stack.isEmpty() ? "" : childPath();
  }

  private YamlNode.Scalar resolve(String text, boolean plain, String tag, int line, int column) {
    if (text.length() > limits.maxStringLength()) {
      throw limit(
          "maxStringLength",
          limits.maxStringLength(),
          "a string at "
              + quote(childPath())
              + " is longer than "
              + limits.maxStringLength()
              + " characters",
          line,
          column);
    }
    if (tag == null && !plain || "!".equals(tag) || (TAG + "str").equals(tag)) {
      return new YamlNode.Scalar(line, column, JsonToken.VALUE_STRING, text, null);
    }
    YamlNode.Scalar resolved = resolvePlain(text, line, column);
    if (tag == null) {
      return resolved;
    }
    String expected;
    switch (tag) {
      case TAG + "int":
        expected = "an integer";
        if (resolved.token == JsonToken.VALUE_NUMBER_INT) {
          return resolved;
        }
        break;
      case TAG + "float":
        expected = "a number";
        if (resolved.token == JsonToken.VALUE_NUMBER_FLOAT) {
          return resolved;
        }
        if (resolved.token == JsonToken.VALUE_NUMBER_INT) {
          return new YamlNode.Scalar(
              line, column, JsonToken.VALUE_NUMBER_FLOAT, text, resolved.number.doubleValue());
        }
        break;
      case TAG + "bool":
        expected = "true or false";
        if (resolved.token == JsonToken.VALUE_TRUE || resolved.token == JsonToken.VALUE_FALSE) {
          return resolved;
        }
        break;
      case TAG + "null":
        expected = "null";
        if (resolved.token == JsonToken.VALUE_NULL) {
          return resolved;
        }
        break;
      default:
        throw error("unsupported YAML tag " + quote(tag), line, column);
    }
    throw error(
        "the value " + quote(text) + " tagged " + tag + " is not " + expected, line, column);
  }

  /**
   * Returns the JSON token a plain (unquoted, untagged) scalar resolves to under the YAML 1.2 core
   * schema: null, true, false, an integer, a float, or a string.
   */
  static JsonToken plainToken(String text) {
    // The words are five characters at most: longer text skips the switch and its hash code.
    if (text.length() <= 5) {
      JsonToken word = word(text);
      if (word != null) {
        return word;
      }
    }
    char first = text.charAt(0);
    if (!((first >= '0' && first <= '9') || first == '-' || first == '+' || first == '.')) {
      return JsonToken.VALUE_STRING;
    }
    if (isDecimal(text)
        || INT.matcher(text).matches()
        || OCT.matcher(text).matches()
        || HEX.matcher(text).matches()) {
      return JsonToken.VALUE_NUMBER_INT;
    }
    if (FLOAT.matcher(text).matches()
        || INF.matcher(text).matches()
        || NAN.matcher(text).matches()) {
      return JsonToken.VALUE_NUMBER_FLOAT;
    }
    return JsonToken.VALUE_STRING;
  }

  /** Whether the text is digits with an optional sign: the common integer, told without a regex. */
  private static boolean isDecimal(String text) {
    int start = text.charAt(0) == '-' || text.charAt(0) == '+' ? 1 : 0;
    if (start == text.length()) {
      return false;
    }
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** The null and boolean words of the core schema, or null for any other text. */
  private static JsonToken word(String text) {
    switch (text) {
      case "":
      case "~":
      case "null":
      case "Null":
      case "NULL":
        return JsonToken.VALUE_NULL;
      case "true":
      case "True":
      case "TRUE":
        return JsonToken.VALUE_TRUE;
      case "false":
      case "False":
      case "FALSE":
        return JsonToken.VALUE_FALSE;
      default:
        return null;
    }
  }

  private YamlNode.Scalar resolvePlain(String text, int line, int column) {
    JsonToken token = plainToken(text);
    switch (token) {
      case VALUE_NUMBER_INT:
        {
          checkNumberLength(text, line, column);
          if (text.length() <= 10 && isDecimal(text)) {
            // At most nine digits and a sign: an int, read without a BigInteger.
            long small = Long.parseLong(text);
            if (small >= Integer.MIN_VALUE && small <= Integer.MAX_VALUE) {
              return new YamlNode.Scalar(line, column, token, text, (int) small);
            }
            return new YamlNode.Scalar(line, column, token, text, small);
          }
          BigInteger integer;
          if (text.startsWith("0o")) {
            integer = new BigInteger(text.substring(2), 8);
          } else if (text.startsWith("0x")) {
            integer = new BigInteger(text.substring(2), 16);
          } else {
            integer = new BigInteger(text.charAt(0) == '+' ? text.substring(1) : text);
          }
          Number number;
          if (integer.bitLength() < 32) {
            number = integer.intValue();
          } else if (integer.bitLength() < 64) {
            number = integer.longValue();
          } else {
            number = integer;
          }
          return new YamlNode.Scalar(line, column, token, text, number);
        }
      case VALUE_NUMBER_FLOAT:
        {
          double value;
          if (INF.matcher(text).matches()) {
            value = text.charAt(0) == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
          } else if (NAN.matcher(text).matches()) {
            value = Double.NaN;
          } else {
            checkNumberLength(text, line, column);
            value = Double.parseDouble(text);
          }
          return new YamlNode.Scalar(line, column, token, text, value);
        }
      default:
        return new YamlNode.Scalar(line, column, token, text, null);
    }
  }

  private void checkNumberLength(String text, int line, int column) {
    if (text.length() > limits.maxNumberLength()) {
      throw limit(
          "maxNumberLength",
          limits.maxNumberLength(),
          "a number at "
              + quote(childPath())
              + " is longer than "
              + limits.maxNumberLength()
              + " characters",
          line,
          column);
    }
  }

  private DecodeException error(String message, int line, int column) {
    return new DecodeException(
        "invalid YAML"
            + (line == 0 ? "" : " at line " + line + ", column " + column)
            + ": "
            + message,
        currentPath(),
        line,
        column,
        null);
  }

  private LimitExceededException limit(
      String name, long maximum, String message, int line, int column) {
    return new LimitExceededException(
        name,
        maximum,
        message + (line == 0 ? "" : " (line " + line + ", column " + column + ")"),
        currentPath(),
        line,
        column);
  }

  private static int line(Event event) {
    return event.getStartMark() == null ? 0 : event.getStartMark().getLine() + 1;
  }

  private static int column(Event event) {
    return event.getStartMark() == null ? 0 : event.getStartMark().getColumn() + 1;
  }
}
