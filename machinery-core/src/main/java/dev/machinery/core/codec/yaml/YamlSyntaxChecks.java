package dev.machinery.core.codec.yaml;

import dev.machinery.core.codec.DecodeException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Supplier;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.scanner.Scanner;
import org.yaml.snakeyaml.tokens.AliasToken;
import org.yaml.snakeyaml.tokens.AnchorToken;
import org.yaml.snakeyaml.tokens.ScalarToken;
import org.yaml.snakeyaml.tokens.Token;

/**
 * SnakeYAML's scanner with the YAML 1.2 rules it does not apply (it implements YAML 1.1), checked
 * on every token the parser takes: where SnakeYAML would read a document differently from a YAML
 * 1.2 reader, or accept one that YAML 1.2 forbids, the document is refused with a {@link
 * DecodeException} naming the rule and the position. The rules, each found by the YAML test suite
 * ({@code YamlTestSuiteTest}):
 *
 * <ul>
 *   <li>a comment is separated by whitespace from a closing quote, bracket, brace or comma before
 *       it;
 *   <li>{@code ?} followed by anything but whitespace starts a plain scalar ({@code [?x]}), which
 *       SnakeYAML reads as an explicit key;
 *   <li>a plain scalar that starts with {@code -}, {@code ?} or {@code :} goes on with a character
 *       that is not whitespace (nor, in a flow collection, a flow indicator): never {@code [-]};
 *   <li>an anchor or alias name ends at whitespace or a flow indicator; SnakeYAML ends it at any
 *       other character too, and reads the rest as the node ({@code &an:chor value});
 *   <li>a directive comes first in the stream or after {@code ...}, and is followed by {@code ---};
 *   <li>the leading empty lines of a block scalar hold no more spaces than its first content line.
 * </ul>
 *
 * <p>Not checked, on purpose: the indentation of the lines of a flow collection or a multi-line
 * quoted scalar inside a block collection ({@code args: [\n "a",\n]} with the bracket in the key's
 * column). YAML 1.2 requires them to be indented past the collection; SnakeYAML, like many widely
 * used YAML readers, does not, the text has one reading either way, and hand-written manifests rely
 * on it.
 *
 * <p>The checks read the stream's text, which the tokens' marks index in code points. One instance
 * reads one stream on one thread.
 */
final class YamlSyntaxChecks implements Scanner {
  private final Scanner scanner;
  private final String text;

  /** The text's code points, when it holds characters beyond the BMP; else null. */
  private final int[] codePoints;

  private final int size;
  private final Supplier<String> path;

  /** The columns of the open block collections, the innermost first. */
  private final Deque<Integer> blocks = new ArrayDeque<>();

  private int flowLevel;
  private boolean documentOpen;
  private boolean afterDirective;

  YamlSyntaxChecks(Scanner scanner, String text, Supplier<String> path) {
    this.scanner = scanner;
    this.text = text;
    boolean pairs = false;
    for (int i = 0; i < text.length() && !pairs; i++) {
      pairs = Character.isSurrogate(text.charAt(i));
    }
    this.codePoints = pairs ? text.codePoints().toArray() : null;
    this.size = pairs ? codePoints.length : text.length();
    this.path = path;
  }

  @Override
  public boolean checkToken(Token.ID... choices) {
    return scanner.checkToken(choices);
  }

  @Override
  public Token peekToken() {
    return scanner.peekToken();
  }

  @Override
  public Token getToken() {
    Token token = scanner.getToken();
    check(token);
    return token;
  }

  @Override
  public void resetDocumentIndex() {
    scanner.resetDocumentIndex();
  }

  private void check(Token token) {
    Token.ID id = token.getTokenId();
    Mark start = token.getStartMark();
    Mark end = token.getEndMark();
    if (afterDirective && id != Token.ID.Directive && id != Token.ID.DocumentStart) {
      throw error(start, "a directive must be followed by a document start marker \"---\"");
    }
    switch (id) {
      case StreamStart:
      case StreamEnd:
        break;
      case Directive:
        if (documentOpen) {
          throw error(
              start,
              "a directive after a document must follow a document end marker \"...\" that ends"
                  + " it");
        }
        afterDirective = true;
        break;
      case DocumentStart:
        afterDirective = false;
        documentOpen = true;
        break;
      case DocumentEnd:
        documentOpen = false;
        break;
      case BlockMappingStart:
      case BlockSequenceStart:
        documentOpen = true;
        blocks.push(start.getColumn());
        break;
      case BlockEnd:
        if (!blocks.isEmpty()) {
          blocks.pop();
        }
        break;
      case FlowSequenceStart:
      case FlowMappingStart:
        documentOpen = true;
        flowLevel++;
        break;
      case FlowSequenceEnd:
      case FlowMappingEnd:
        flowLevel = Math.max(0, flowLevel - 1);
        commentAfter(end);
        break;
      case FlowEntry:
        commentAfter(end);
        break;
      case Key:
        documentOpen = true;
        if (end.getIndex() > start.getIndex() && at(start.getIndex()) == '?' && !blankAt(end)) {
          throw error(
              start,
              "\"?\" followed by "
                  + describe(end.getIndex())
                  + " starts a plain scalar in YAML 1.2 but an explicit key in YAML 1.1; quote the"
                  + " scalar or put a space after \"?\"");
        }
        break;
      case Value:
        documentOpen = true;
        break;
      case Anchor:
        documentOpen = true;
        nameEnds(end, "&" + ((AnchorToken) token).getValue());
        break;
      case Alias:
        documentOpen = true;
        nameEnds(end, "*" + ((AliasToken) token).getValue());
        break;
      case Scalar:
        documentOpen = true;
        scalar((ScalarToken) token, start, end);
        break;
      default:
        documentOpen = true;
        break;
    }
  }

  private void scalar(ScalarToken token, Mark start, Mark end) {
    DumperOptions.ScalarStyle style = token.getStyle();
    if (style == DumperOptions.ScalarStyle.PLAIN) {
      String value = token.getValue();
      if (value.length() == 1 && "-?:".indexOf(value.charAt(0)) >= 0 && !plainSafeAt(end)) {
        throw error(
            start,
            "a plain scalar cannot be a lone \""
                + value
                + "\" followed by "
                + describe(end.getIndex())
                + "; quote it to mean the text");
      }
    } else if (style == DumperOptions.ScalarStyle.DOUBLE_QUOTED
        || style == DumperOptions.ScalarStyle.SINGLE_QUOTED) {
      commentAfter(end);
    } else {
      leadingEmptyLines(start);
    }
  }

  /** A "#" right after a token starts no comment in YAML 1.2: it is an error. */
  private void commentAfter(Mark end) {
    int index = end.getIndex();
    if (index < size && at(index) == '#') {
      throw error(
          end,
          "a comment must be separated by a space from what comes before it (\"#\" right after"
              + " "
              + describe(index - 1)
              + ")");
    }
  }

  /** An anchor or alias name ends at whitespace, a flow indicator or the end of the stream. */
  private void nameEnds(Mark end, String name) {
    int index = end.getIndex();
    if (index >= size) {
      return;
    }
    int c = at(index);
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && ",[]{}".indexOf(c) < 0) {
      throw error(
          end,
          "the name "
              + name
              + " is followed by "
              + describe(index)
              + ", which YAML 1.2 reads as part of the name and YAML 1.1 as the start of the node;"
              + " use only letters, digits, \"-\" and \"_\" in anchor names");
    }
  }

  /**
   * The leading empty lines of a block scalar with no indentation indicator hold no more spaces
   * than its first content line: the first line after the header with more than spaces on it,
   * indented past the block collection around the scalar (inside the scalar as YAML 1.2 reads it,
   * where SnakeYAML may end the scalar before it).
   */
  private void leadingEmptyLines(Mark start) {
    int i = start.getIndex() + 1;
    while (i < size && at(i) != '\n' && at(i) != ' ' && at(i) != '#') {
      if (at(i) >= '1' && at(i) <= '9') {
        return; // an explicit indentation indicator
      }
      i++;
    }
    while (i < size && at(i) != '\n') {
      i++;
    }
    int parent = blocks.isEmpty() ? -1 : blocks.peek();
    int most = 0;
    int line = start.getLine();
    while (i < size) {
      i++; // the line break
      line++;
      int spaces = leadingSpaces(i);
      int after = i + spaces;
      if (after < size && at(after) != '\n' && at(after) != '\r') {
        if (spaces > parent && spaces < most) {
          throw error(
              new Mark(null, after, line, spaces, new int[0], 0),
              "a leading empty line of a block scalar has more spaces ("
                  + most
                  + ") than its first content line ("
                  + spaces
                  + ")");
        }
        return;
      }
      most = Math.max(most, spaces);
      i = after;
    }
  }

  /**
   * Whether the character at a mark may follow "-", "?" or ":" at the start of a plain scalar: not
   * whitespace, and in a flow collection not a flow indicator.
   */
  private boolean plainSafeAt(Mark mark) {
    return !blankAt(mark) && (flowLevel == 0 || ",[]{}".indexOf(at(mark.getIndex())) < 0);
  }

  private boolean blankAt(Mark mark) {
    int index = mark.getIndex();
    if (index >= size) {
      return true;
    }
    int c = at(index);
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  private int leadingSpaces(int from) {
    int i = from;
    while (i < size && at(i) == ' ') {
      i++;
    }
    return i - from;
  }

  private String describe(int index) {
    if (index < 0 || index >= size) {
      return "the end of the stream";
    }
    int c = at(index);
    return c >= 0x21 && c <= 0x7E ? "\"" + (char) c + "\"" : String.format("U+%04X", c);
  }

  private int at(int index) {
    return codePoints != null ? codePoints[index] : text.charAt(index);
  }

  private DecodeException error(Mark mark, String problem) {
    int line = mark.getLine() + 1;
    int column = mark.getColumn() + 1;
    return new DecodeException(
        "invalid YAML at line " + line + ", column " + column + ": " + problem,
        path.get(),
        line,
        column,
        null);
  }
}
