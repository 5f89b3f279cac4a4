package dev.machinery.unversioned.discovery;

import dev.machinery.core.schema.GroupVersion;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Which groups and group versions a server serves, switched on or off one by one as Kubernetes'
 * {@code --runtime-config} does: {@code api/all=false,apps=true,apps/v1beta1=false}. A version's
 * own setting wins over its group's, which wins over {@code api/all}; everything is on unless
 * switched off.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class Enablement {
  private static final Enablement ALL = new Enablement(true, Map.of(), Map.of());

  private final boolean all;
  private final Map<String, Boolean> groups;
  private final Map<GroupVersion, Boolean> versions;

  private Enablement(
      boolean all, Map<String, Boolean> groups, Map<GroupVersion, Boolean> versions) {
    this.all = all;
    this.groups = Map.copyOf(groups);
    this.versions = Map.copyOf(versions);
  }

  /**
   * Returns the setting that serves everything.
   *
   * @return the enablement
   */
  public static Enablement all() {
    return ALL;
  }

  /**
   * Parses a comma-separated {@code --runtime-config} value. Keys: {@code api/all}; a group ({@code
   * batch}); a group version ({@code apps/v1beta1}); {@code v1} or {@code api/v1} for the legacy
   * core group. Values: {@code true} or {@code false}; a key alone means {@code true}.
   *
   * @param config the setting, such as {@code apps/v1beta1=false,batch=true}
   * @return the enablement
   * @throws RuntimeConfigException if an entry is malformed
   */
  public static Enablement parse(String config) {
    Objects.requireNonNull(config, "config");
    boolean all = true;
    Map<String, Boolean> groups = new LinkedHashMap<>();
    Map<GroupVersion, Boolean> versions = new LinkedHashMap<>();
    for (String raw : config.split(",", -1)) {
      String entry = raw.strip();
      if (entry.isEmpty()) {
        if (config.isBlank()) {
          continue;
        }
        throw new RuntimeConfigException(
            entry, "runtime config \"" + config + "\" has an empty entry");
      }
      int equals = entry.indexOf('=');
      String key = (equals < 0 ? entry : entry.substring(0, equals)).strip();
      boolean value = true;
      if (equals >= 0) {
        String text = entry.substring(equals + 1).strip().toLowerCase(Locale.ROOT);
        if (text.equals("false")) {
          value = false;
        } else if (!text.equals("true")) {
          throw new RuntimeConfigException(
              entry,
              "runtime config entry \""
                  + entry
                  + "\" has the value \""
                  + entry.substring(equals + 1).strip()
                  + "\"; expected true or false");
        }
      }
      if (key.equals("api/all")) {
        all = value;
      } else if (key.equals("v1") || key.equals("api/v1") || key.equals("api/legacy")) {
        versions.put(GroupVersion.of("", "v1"), value);
      } else if (key.indexOf('/') < 0) {
        checkName(entry, key);
        groups.put(key, value);
      } else {
        GroupVersion version;
        try {
          version = GroupVersion.parse(key);
        } catch (RuntimeException e) {
          throw new RuntimeConfigException(
              entry,
              "runtime config entry \""
                  + entry
                  + "\" does not name a group version: "
                  + e.getMessage());
        }
        if (version.group().isEmpty() || version.version().isEmpty()) {
          throw new RuntimeConfigException(
              entry,
              "runtime config entry \""
                  + entry
                  + "\" does not name a group version; expected \"group/version\"");
        }
        versions.put(version, value);
      }
    }
    return new Enablement(all, groups, versions);
  }

  private static void checkName(String entry, String key) {
    if (key.isEmpty() || !key.matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
      throw new RuntimeConfigException(
          entry,
          "runtime config entry \""
              + entry
              + "\" does not name a group; expected a DNS subdomain such as apps or batch");
    }
  }

  /**
   * Returns a setting like this one with a group switched on or off (its versions follow unless set
   * themselves).
   *
   * @param group the group; {@code ""} is the legacy core group
   * @param enabled whether to serve it
   * @return the enablement
   */
  public Enablement withGroup(String group, boolean enabled) {
    Map<String, Boolean> copy = new LinkedHashMap<>(groups);
    copy.put(Objects.requireNonNull(group, "group"), enabled);
    return new Enablement(all, copy, versions);
  }

  /**
   * Returns a setting like this one with one group version switched on or off.
   *
   * @param version the group version
   * @param enabled whether to serve it
   * @return the enablement
   */
  public Enablement withVersion(GroupVersion version, boolean enabled) {
    Map<GroupVersion, Boolean> copy = new LinkedHashMap<>(versions);
    copy.put(Objects.requireNonNull(version, "version"), enabled);
    return new Enablement(all, groups, copy);
  }

  /**
   * Returns whether a group version is served.
   *
   * @param version the group version
   * @return true if served
   */
  public boolean isEnabled(GroupVersion version) {
    Boolean own = versions.get(version);
    if (own != null) {
      return own;
    }
    Boolean group = groups.get(version.group());
    return group != null ? group : all;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Enablement
        && ((Enablement) other).all == all
        && ((Enablement) other).groups.equals(groups)
        && ((Enablement) other).versions.equals(versions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(all, groups, versions);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("api/all=").append(all);
    groups.forEach((group, on) -> text.append(',').append(group).append('=').append(on));
    versions.forEach((version, on) -> text.append(',').append(version).append('=').append(on));
    return text.toString();
  }
}
