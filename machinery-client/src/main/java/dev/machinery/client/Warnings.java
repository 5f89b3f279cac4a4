package dev.machinery.client;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code Warning} headers as RFC 7234 writes them and Kubernetes sends them ({@code
 * net.ParseWarningHeaders}): {@code warn-code SP warn-agent SP warn-text [SP warn-date]}, several
 * separated by commas in one header; the text is a quoted string with backslash escapes. A
 * malformed warning is dropped with the rest of its header. Stateless.
 */
final class Warnings {
  private Warnings() {}

  /** One warning. */
  record Warning(int code, String agent, String text) {}

  static List<Warning> parse(List<String> headers) {
    List<Warning> all = new ArrayList<>();
    for (String header : headers) {
      parseOne(header, all);
    }
    return all;
  }

  private static void parseOne(String header, List<Warning> into) {
    int i = 0;
    int n = header.length();
    while (true) {
      i = skipSpaces(header, i);
      if (i >= n) {
        return;
      }
      // warn-code: three digits
      if (i + 3 > n) {
        return;
      }
      String code = header.substring(i, i + 3);
      if (!code.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return;
      }
      i += 3;
      if (i >= n || header.charAt(i) != ' ') {
        return;
      }
      i++;
      int agentEnd = header.indexOf(' ', i);
      if (agentEnd < 0 || agentEnd == i) {
        return;
      }
      String agent = header.substring(i, agentEnd);
      i = agentEnd + 1;
      if (i >= n || header.charAt(i) != '"') {
        return;
      }
      i++;
      StringBuilder text = new StringBuilder();
      boolean closed = false;
      while (i < n) {
        char c = header.charAt(i++);
        if (c == '\\') {
          if (i >= n) {
            return;
          }
          text.append(header.charAt(i++));
        } else if (c == '"') {
          closed = true;
          break;
        } else {
          text.append(c);
        }
      }
      if (!closed) {
        return;
      }
      // an optional warn-date, a quoted string
      int j = skipSpaces(header, i);
      if (j < n && header.charAt(j) == '"') {
        int end = header.indexOf('"', j + 1);
        if (end < 0) {
          return;
        }
        i = end + 1;
      }
      into.add(new Warning(Integer.parseInt(code), agent, text.toString()));
      i = skipSpaces(header, i);
      if (i >= n) {
        return;
      }
      if (header.charAt(i) != ',') {
        return;
      }
      i++;
    }
  }

  private static int skipSpaces(String s, int i) {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }
}
