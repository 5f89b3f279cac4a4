package dev.machinery.unversioned.labels;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Reads Kubernetes' selector syntax: a lexer that splits identifiers from the special symbols
 * ({@code = == != ! ( ) , > <}) and the keywords {@code in} and {@code notin}, and a parser with
 * one token of lookahead, giving Kubernetes' messages for what it found and expected. Used by one
 * thread for one string.
 */
final class SelectorParser {
  private enum Token {
    ERROR,
    END,
    CLOSED_PAR,
    COMMA,
    BANG,
    DOUBLE_EQUALS,
    EQUALS,
    GREATER_THAN,
    IDENTIFIER,
    IN,
    LESS_THAN,
    NOT_EQUALS,
    NOT_IN,
    OPEN_PAR
  }

  private record Item(Token token, String literal) {}

  private final String text;
  private final List<Item> items = new ArrayList<>();
  private int position;

  private SelectorParser(String text) {
    this.text = text;
  }

  static List<Requirement> parse(String text) {
    SelectorParser parser = new SelectorParser(text);
    parser.scan();
    return parser.requirements();
  }

  // ---- lexer

  private static Token symbol(String text) {
    return switch (text) {
      case ")" -> Token.CLOSED_PAR;
      case "," -> Token.COMMA;
      case "!" -> Token.BANG;
      case "==" -> Token.DOUBLE_EQUALS;
      case "=" -> Token.EQUALS;
      case ">" -> Token.GREATER_THAN;
      case "<" -> Token.LESS_THAN;
      case "!=" -> Token.NOT_EQUALS;
      case "(" -> Token.OPEN_PAR;
      case "in" -> Token.IN;
      case "notin" -> Token.NOT_IN;
      default -> null;
    };
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  private static boolean isSpecial(char c) {
    return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
  }

  private void scan() {
    int at = 0;
    while (true) {
      while (at < text.length() && isWhitespace(text.charAt(at))) {
        at++;
      }
      if (at >= text.length()) {
        items.add(new Item(Token.END, ""));
        return;
      }
      if (isSpecial(text.charAt(at))) {
        // The longest run of symbols that is still a token: "!=" and "==" but "=" then "(".
        int end = at;
        Token found = null;
        int foundEnd = at;
        while (end < text.length() && isSpecial(text.charAt(end))) {
          Token token = symbol(text.substring(at, end + 1));
          if (token != null) {
            found = token;
            foundEnd = end + 1;
          } else if (found != null) {
            break;
          }
          end++;
        }
        if (found == null) {
          items.add(
              new Item(
                  Token.ERROR, "error expected: keyword found '" + text.substring(at, end) + "'"));
          at = end;
        } else {
          items.add(new Item(found, text.substring(at, foundEnd)));
          at = foundEnd;
        }
      } else {
        int end = at;
        while (end < text.length()
            && !isSpecial(text.charAt(end))
            && !isWhitespace(text.charAt(end))) {
          end++;
        }
        String word = text.substring(at, end);
        Token keyword = word.equals("in") ? Token.IN : word.equals("notin") ? Token.NOT_IN : null;
        items.add(new Item(keyword == null ? Token.IDENTIFIER : keyword, word));
        at = end;
      }
    }
  }

  // ---- parser

  /** In the values context the keywords are plain identifiers: {@code notin=in} is valid. */
  private Item lookahead(boolean values) {
    return relabel(items.get(position), values);
  }

  private Item consume(boolean values) {
    return relabel(items.get(position++), values);
  }

  private static Item relabel(Item item, boolean values) {
    return values && (item.token() == Token.IN || item.token() == Token.NOT_IN)
        ? new Item(Token.IDENTIFIER, item.literal())
        : item;
  }

  private SelectorParseException error(String message) {
    return new SelectorParseException(text, message, List.of());
  }

  private List<Requirement> requirements() {
    List<Requirement> requirements = new ArrayList<>();
    while (true) {
      Item next = lookahead(true);
      switch (next.token()) {
        case IDENTIFIER, BANG -> {
          try {
            requirements.add(requirement());
          } catch (SelectorParseException e) {
            throw new SelectorParseException(
                text, "unable to parse requirement: " + e.getMessage(), e.errors());
          }
          Item after = consume(true);
          if (after.token() == Token.END) {
            return requirements;
          }
          if (after.token() != Token.COMMA) {
            throw error("found '" + after.literal() + "', expected: ',' or 'end of string'");
          }
          Item following = lookahead(true);
          if (following.token() != Token.IDENTIFIER && following.token() != Token.BANG) {
            throw error("found '" + following.literal() + "', expected: identifier after ','");
          }
        }
        case END -> {
          return requirements;
        }
        default ->
            throw error(
                "found '" + next.literal() + "', expected: !, identifier, or 'end of string'");
      }
    }
  }

  private Requirement requirement() {
    boolean absent = false;
    Item item = consume(true);
    if (item.token() == Token.BANG) {
      absent = true;
      item = consume(true);
    }
    if (item.token() != Token.IDENTIFIER) {
      throw error("found '" + item.literal() + "', expected: identifier");
    }
    String key = item.literal();
    Token next = lookahead(true).token();
    if (absent || next == Token.END || next == Token.COMMA) {
      // "!x=a" ends the requirement at "!x"; the caller then finds "=" where a ',' belongs.
      return Requirement.of(key, absent ? Operator.DOES_NOT_EXIST : Operator.EXISTS, List.of());
    }
    Operator operator = operator();
    List<String> values =
        operator == Operator.IN || operator == Operator.NOT_IN ? setValues() : exactValue();
    return Requirement.of(key, operator, values);
  }

  private Operator operator() {
    Item item = consume(false);
    return switch (item.token()) {
      case IN -> Operator.IN;
      case EQUALS -> Operator.EQUALS;
      case DOUBLE_EQUALS -> Operator.DOUBLE_EQUALS;
      case GREATER_THAN -> Operator.GREATER_THAN;
      case LESS_THAN -> Operator.LESS_THAN;
      case NOT_IN -> Operator.NOT_IN;
      case NOT_EQUALS -> Operator.NOT_EQUALS;
      default ->
          throw error("found '" + item.literal() + "', expected: in, notin, =, ==, !=, gt, lt");
    };
  }

  private List<String> setValues() {
    Item open = consume(true);
    if (open.token() != Token.OPEN_PAR) {
      throw error("found '" + open.literal() + "' expected: '('");
    }
    Item next = lookahead(true);
    switch (next.token()) {
      case IDENTIFIER, COMMA -> {
        List<String> values = identifiers();
        if (consume(true).token() != Token.CLOSED_PAR) {
          throw error("found '" + next.literal() + "', expected: ')'");
        }
        return values;
      }
      case CLOSED_PAR -> {
        consume(true);
        return List.of("");
      }
      default -> throw error("found '" + next.literal() + "', expected: ',', ')' or identifier");
    }
  }

  /** A comma-separated list in which an empty place is the empty value: {@code (a,,)}. */
  private List<String> identifiers() {
    TreeSet<String> values = new TreeSet<>();
    while (true) {
      Item item = consume(true);
      switch (item.token()) {
        case IDENTIFIER -> {
          values.add(item.literal());
          Item next = lookahead(true);
          if (next.token() == Token.CLOSED_PAR) {
            return new ArrayList<>(values);
          }
          if (next.token() != Token.COMMA) {
            throw error("found '" + next.literal() + "', expected: ',' or ')'");
          }
        }
        case COMMA -> {
          if (values.isEmpty()) {
            values.add("");
          }
          Token next = lookahead(true).token();
          if (next == Token.CLOSED_PAR) {
            values.add("");
            return new ArrayList<>(values);
          }
          if (next == Token.COMMA) {
            values.add("");
          }
        }
        default -> throw error("found '" + item.literal() + "', expected: ',', or identifier");
      }
    }
  }

  private List<String> exactValue() {
    Token next = lookahead(true).token();
    if (next == Token.END || next == Token.COMMA) {
      return List.of("");
    }
    Item item = consume(true);
    if (item.token() == Token.IDENTIFIER) {
      return List.of(item.literal());
    }
    throw error("found '" + item.literal() + "', expected: identifier");
  }
}
