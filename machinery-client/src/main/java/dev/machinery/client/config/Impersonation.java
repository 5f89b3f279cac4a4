package dev.machinery.client.config;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who a client acts as: a kubeconfig user's {@code as}, {@code as-uid}, {@code as-groups} and
 * {@code as-user-extra}, sent as the {@code Impersonate-*} headers. Immutable and thread-safe.
 *
 * @param user the user to act as ({@code Impersonate-User}), or an empty string for none
 * @param uid the user's UID ({@code Impersonate-Uid}), or an empty string
 * @param groups the groups ({@code Impersonate-Group}, one header value each)
 * @param extra the extra attributes ({@code Impersonate-Extra-<key>}), in order
 */
public record Impersonation(
    String user, String uid, List<String> groups, Map<String, List<String>> extra) {
  /** No impersonation. */
  public static final Impersonation NONE = new Impersonation("", "", List.of(), Map.of());

  /**
   * Copies the lists and checks that a UID, groups or extra attributes come with a user, as
   * client-go's validation requires.
   *
   * @param user see the record description
   * @param uid see the record description
   * @param groups see the record description
   * @param extra see the record description
   * @throws KubeconfigException when a UID, groups or extra are given without a user
   */
  public Impersonation {
    user = user == null ? "" : user;
    uid = uid == null ? "" : uid;
    groups = List.copyOf(groups == null ? List.of() : groups);
    Map<String, List<String>> copy = new LinkedHashMap<>();
    if (extra != null) {
      extra.forEach((key, values) -> copy.put(Objects.requireNonNull(key), List.copyOf(values)));
    }
    extra = java.util.Collections.unmodifiableMap(copy);
    if (user.isEmpty() && (!uid.isEmpty() || !groups.isEmpty() || !extra.isEmpty())) {
      throw new KubeconfigException(
          "", "as", "requesting uid, groups or user-extra without impersonating a user");
    }
  }

  /**
   * Returns an impersonation of a user alone.
   *
   * @param user the user name
   * @return the impersonation
   */
  public static Impersonation ofUser(String user) {
    return new Impersonation(user, "", List.of(), Map.of());
  }

  /**
   * Whether a user is impersonated.
   *
   * @return true when {@link #user()} is not empty
   */
  public boolean isPresent() {
    return !user.isEmpty();
  }

  /**
   * Returns the request headers, as client-go's transport writes them: {@code Impersonate-User},
   * {@code Impersonate-Uid}, one {@code Impersonate-Group} value per group, and {@code
   * Impersonate-Extra-<key>} with the key's bytes that are not legal in a header name (and {@code
   * %}) percent-encoded.
   *
   * @return the headers' names and values, in order; empty when no user is impersonated
   */
  public Map<String, List<String>> headers() {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    if (user.isEmpty()) {
      return headers;
    }
    headers.put("Impersonate-User", List.of(user));
    if (!uid.isEmpty()) {
      headers.put("Impersonate-Uid", List.of(uid));
    }
    if (!groups.isEmpty()) {
      headers.put("Impersonate-Group", groups);
    }
    extra.forEach(
        (key, values) -> headers.put("Impersonate-Extra-" + headerKeyEscape(key), values));
    return headers;
  }

  private static String headerKeyEscape(String key) {
    StringBuilder out = new StringBuilder();
    for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c != '%' && isTokenChar(c)) {
        out.append((char) c);
      } else {
        out.append('%').append(String.format(java.util.Locale.ROOT, "%02X", c));
      }
    }
    return out.toString();
  }

  /** RFC 7230 tchar. */
  private static boolean isTokenChar(int c) {
    if (c >= 0x7f || c <= 0x20) {
      return false;
    }
    return "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    if (!user.isEmpty()) {
      parts.add("user=" + user);
    }
    if (!uid.isEmpty()) {
      parts.add("uid=" + uid);
    }
    if (!groups.isEmpty()) {
      parts.add("groups=" + groups);
    }
    if (!extra.isEmpty()) {
      parts.add("extra=" + extra);
    }
    return "Impersonation" + parts;
  }
}
