package dev.machinery.apiserver.authentication;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A user as authentication found it, as Kubernetes' {@code user.Info}: name, uid, groups and extra
 * attributes.
 *
 * @param name the user name, such as {@code jane} or {@link #ANONYMOUS}
 * @param uid the user's uid; empty when unknown
 * @param groups the groups the user is in, in order
 * @param extra further attributes, by key
 */
public record UserInfo(
    String name, String uid, List<String> groups, Map<String, List<String>> extra) {
  /** The user name of a request without credentials. */
  public static final String ANONYMOUS = "system:anonymous";

  /** The group every authenticated user is in. */
  public static final String ALL_AUTHENTICATED = "system:authenticated";

  /** The group of anonymous requests. */
  public static final String ALL_UNAUTHENTICATED = "system:unauthenticated";

  /**
   * Copies the lists and map.
   *
   * @param name see the record description
   * @param uid see the record description
   * @param groups see the record description
   * @param extra see the record description
   */
  public UserInfo {
    Objects.requireNonNull(name, "name");
    uid = uid == null ? "" : uid;
    groups = List.copyOf(groups);
    Map<String, List<String>> copy = new LinkedHashMap<>();
    extra.forEach((key, values) -> copy.put(key, List.copyOf(values)));
    extra = java.util.Collections.unmodifiableMap(copy);
  }

  /**
   * A user with a name and groups, without uid or extra attributes.
   *
   * @param name the user name
   * @param groups the groups
   * @return the user
   */
  public static UserInfo of(String name, List<String> groups) {
    return new UserInfo(name, "", groups, Map.of());
  }

  /**
   * Returns this user with a group added at the end, unless it is in it already.
   *
   * @param group the group
   * @return the user
   */
  public UserInfo withGroup(String group) {
    if (groups.contains(group)) {
      return this;
    }
    List<String> more = new java.util.ArrayList<>(groups);
    more.add(group);
    return new UserInfo(name, uid, more, extra);
  }
}
