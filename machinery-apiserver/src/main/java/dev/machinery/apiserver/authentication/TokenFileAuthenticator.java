package dev.machinery.apiserver.authentication;

import dev.machinery.apiserver.http.ApiRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Authenticates a request by its bearer token ({@code Authorization: Bearer TOKEN}) against a
 * static token file, as kube-apiserver's {@code --token-auth-file}: a CSV file of lines {@code
 * token,user,uid,"group1,group2"} (the groups column is optional; further columns are ignored;
 * blank lines are skipped; a token given twice counts as its last line). A request without a bearer
 * token is not this authenticator's; an unknown token fails the request.
 */
public final class TokenFileAuthenticator implements Authenticator {
  private final Map<String, UserInfo> users;

  private TokenFileAuthenticator(Map<String, UserInfo> users) {
    this.users = Map.copyOf(users);
  }

  /**
   * Reads a token file.
   *
   * @param file the file
   * @return the authenticator
   * @throws IOException when the file cannot be read or a line is not valid; the message names the
   *     file and the line
   */
  public static TokenFileAuthenticator load(Path file) throws IOException {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new IOException("token file " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses a token file's text.
   *
   * @param text the text
   * @return the authenticator
   * @throws IllegalArgumentException when a line is not valid; the message names the line
   */
  public static TokenFileAuthenticator parse(String text) {
    Map<String, UserInfo> users = new HashMap<>();
    for (Record record : records(text)) {
      List<String> fields = record.fields;
      if (fields.size() < 3) {
        throw new IllegalArgumentException(
            "line "
                + record.line
                + " has "
                + fields.size()
                + (fields.size() == 1 ? " column" : " columns")
                + "; at least 3 are needed (token, user name, user uid)");
      }
      String token = fields.get(0).strip();
      if (token.isEmpty()) {
        throw new IllegalArgumentException("line " + record.line + " has an empty token");
      }
      if (fields.get(1).isEmpty()) {
        throw new IllegalArgumentException("line " + record.line + " has an empty user name");
      }
      List<String> groups = new ArrayList<>();
      if (fields.size() >= 4 && !fields.get(3).isEmpty()) {
        for (String group : fields.get(3).split(",", -1)) {
          groups.add(group.strip());
        }
      }
      users.put(token, new UserInfo(fields.get(1), fields.get(2), groups, Map.of()));
    }
    return new TokenFileAuthenticator(users);
  }

  /**
   * Returns the number of tokens the file holds.
   *
   * @return the number
   */
  public int size() {
    return users.size();
  }

  @Override
  public Optional<UserInfo> authenticate(ApiRequest request) throws AuthenticationException {
    String token = bearerToken(request);
    if (token == null) {
      return Optional.empty();
    }
    UserInfo found = null;
    byte[] given = token.getBytes(StandardCharsets.UTF_8);
    for (Map.Entry<String, UserInfo> entry : users.entrySet()) {
      if (MessageDigest.isEqual(entry.getKey().getBytes(StandardCharsets.UTF_8), given)) {
        found = entry.getValue();
      }
    }
    if (found == null) {
      throw new AuthenticationException("invalid bearer token");
    }
    return Optional.of(found);
  }

  /**
   * Returns the bearer token of a request's {@code Authorization} header, as Kubernetes reads it:
   * the scheme {@code Bearer} in any case, then the token.
   *
   * @param request the request
   * @return the token, or {@code null} when the request has none
   */
  static String bearerToken(ApiRequest request) {
    String authorization = request.header("Authorization");
    if (authorization == null) {
      return null;
    }
    String[] parts = authorization.strip().split(" ", 2);
    if (parts.length < 2 || !parts[0].toLowerCase(Locale.ROOT).equals("bearer")) {
      return null;
    }
    String token = parts[1].strip();
    return token.isEmpty() ? null : token;
  }

  private record Record(int line, List<String> fields) {}

  /** Splits CSV text into records (RFC 4180 quoting, as Go's encoding/csv reads it). */
  private static List<Record> records(String text) {
    List<Record> records = new ArrayList<>();
    int line = 1;
    int i = 0;
    int n = text.length();
    while (i < n) {
      int start = line;
      List<String> fields = new ArrayList<>();
      StringBuilder field = new StringBuilder();
      boolean blank = true;
      while (true) {
        // Leading spaces of a field are dropped, as Go's csv.Reader with TrimLeadingSpace.
        while (i < n && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
          i++;
        }
        if (i < n && text.charAt(i) == '"') {
          blank = false;
          i++;
          while (true) {
            if (i >= n) {
              throw new IllegalArgumentException(
                  "line " + start + " has a quoted field without its closing quote");
            }
            char c = text.charAt(i++);
            if (c == '"') {
              if (i < n && text.charAt(i) == '"') {
                field.append('"');
                i++;
              } else {
                break;
              }
            } else {
              if (c == '\n') {
                line++;
              }
              field.append(c);
            }
          }
          if (i < n && text.charAt(i) != ',' && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
            throw new IllegalArgumentException(
                "line " + line + " has text after a quoted field's closing quote");
          }
        } else {
          while (i < n && text.charAt(i) != ',' && text.charAt(i) != '\n') {
            char c = text.charAt(i++);
            if (c == '"') {
              throw new IllegalArgumentException(
                  "line " + line + " has a quote inside an unquoted field");
            }
            if (c != '\r') {
              field.append(c);
              blank = false;
            }
          }
        }
        fields.add(field.toString());
        field.setLength(0);
        if (i < n && text.charAt(i) == ',') {
          blank = false;
          i++;
          continue;
        }
        if (i < n && text.charAt(i) == '\r') {
          i++;
        }
        if (i < n && text.charAt(i) == '\n') {
          i++;
        }
        line++;
        break;
      }
      if (!blank) {
        records.add(new Record(start, fields));
      }
    }
    return records;
  }
}
