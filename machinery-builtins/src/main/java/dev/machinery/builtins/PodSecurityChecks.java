package dev.machinery.builtins;

import dev.machinery.unversioned.unstructured.JsonTrees;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Pod Security Standards as Kubernetes 1.33's {@code k8s.io/pod-security-admission/policy}
 * checks them: each check of the baseline and restricted levels, with the versions it changed in,
 * its reason and its detail worded as Go words them, run in Go's order (baseline checks by id, then
 * restricted checks by id; a restricted check replaces the baseline check it overrides). Works on a
 * pod's metadata and spec as {@code Unstructured} holds them. Stateless and thread-safe.
 */
final class PodSecurityChecks {
  private PodSecurityChecks() {}

  /** The newest version any check changed in; {@code latest} and newer versions evaluate as it. */
  static final int MAX_MINOR = 32;

  /** A level of the standards, by its label value. */
  enum Level {
    PRIVILEGED,
    BASELINE,
    RESTRICTED;

    /** The label value. */
    String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The level of a label value, or null. */
    static Level parse(String value) {
      for (Level level : values()) {
        if (level.label().equals(value)) {
          return level;
        }
      }
      return null;
    }
  }

  /** A version of the standards: {@code latest} or {@code v1.MINOR}. */
  record Version(int minor, boolean latest) {
    static final Version LATEST = new Version(0, true);
    private static final Pattern FORM = Pattern.compile("^v1\\.([0-9]|[1-9][0-9]*)$");

    /** The version a label value names, or null. */
    static Version parse(String value) {
      if (value.equals("latest")) {
        return LATEST;
      }
      Matcher m = FORM.matcher(value);
      if (!m.matches()) {
        return null;
      }
      try {
        return new Version(Integer.parseInt(m.group(1)), false);
      } catch (NumberFormatException e) {
        return null;
      }
    }

    /** The minor version whose checks apply. */
    int effectiveMinor() {
      return latest || minor > MAX_MINOR ? MAX_MINOR : minor;
    }

    @Override
    public String toString() {
      return latest ? "latest" : "v1." + minor;
    }
  }

  /** A level at a version, written {@code restricted:latest}. */
  record LevelVersion(Level level, Version version) {
    @Override
    public String toString() {
      return level.label() + ":" + version;
    }
  }

  /** A check that failed: its reason and its detail (may be empty). */
  record Failure(String reason, String detail) {}

  private interface PodCheck
      extends BiFunction<Map<String, Object>, Map<String, Object>, Failure> {}

  private record Versioned(int minimumMinor, PodCheck check, List<String> overrides) {}

  private record Check(String id, Level level, List<Versioned> versions) {}

  private static Versioned at(int minor, PodCheck check, String... overrides) {
    return new Versioned(minor, check, List.of(overrides));
  }

  private static final List<Check> CHECKS =
      List.of(
          new Check(
              "allowPrivilegeEscalation",
              Level.RESTRICTED,
              List.of(
                  at(8, PodSecurityChecks::allowPrivilegeEscalation),
                  at(25, notOnWindows(PodSecurityChecks::allowPrivilegeEscalation)))),
          new Check("appArmorProfile", Level.BASELINE, List.of(at(0, PodSecurityChecks::appArmor))),
          new Check(
              "capabilities_baseline",
              Level.BASELINE,
              List.of(at(0, PodSecurityChecks::capabilitiesBaseline))),
          new Check(
              "capabilities_restricted",
              Level.RESTRICTED,
              List.of(
                  at(22, PodSecurityChecks::capabilitiesRestricted, "capabilities_baseline"),
                  at(
                      25,
                      notOnWindows(PodSecurityChecks::capabilitiesRestricted),
                      "capabilities_baseline"))),
          new Check(
              "hostNamespaces", Level.BASELINE, List.of(at(0, PodSecurityChecks::hostNamespaces))),
          new Check(
              "hostPathVolumes",
              Level.BASELINE,
              List.of(at(0, PodSecurityChecks::hostPathVolumes))),
          new Check("hostPorts", Level.BASELINE, List.of(at(0, PodSecurityChecks::hostPorts))),
          new Check("privileged", Level.BASELINE, List.of(at(0, PodSecurityChecks::privileged))),
          new Check("procMount", Level.BASELINE, List.of(at(0, PodSecurityChecks::procMount))),
          new Check(
              "restrictedVolumes",
              Level.RESTRICTED,
              List.of(at(0, PodSecurityChecks::restrictedVolumes, "hostPathVolumes"))),
          new Check(
              "runAsNonRoot", Level.RESTRICTED, List.of(at(0, PodSecurityChecks::runAsNonRoot))),
          new Check("runAsUser", Level.RESTRICTED, List.of(at(23, PodSecurityChecks::runAsUser))),
          new Check(
              "seLinuxOptions",
              Level.BASELINE,
              List.of(
                  at(0, (m, s) -> seLinuxOptions(s, PodSecurityChecks.SELINUX_TYPES_1_0)),
                  at(31, (m, s) -> seLinuxOptions(s, PodSecurityChecks.SELINUX_TYPES_1_31)))),
          new Check(
              "seccompProfile_baseline",
              Level.BASELINE,
              List.of(
                  at(0, PodSecurityChecks::seccompAnnotations),
                  at(19, PodSecurityChecks::seccompBaseline))),
          new Check(
              "seccompProfile_restricted",
              Level.RESTRICTED,
              List.of(
                  at(19, PodSecurityChecks::seccompRestricted, "seccompProfile_baseline"),
                  at(
                      25,
                      notOnWindows(PodSecurityChecks::seccompRestricted),
                      "seccompProfile_baseline"))),
          new Check(
              "sysctls",
              Level.BASELINE,
              List.of(
                  at(0, (m, s) -> sysctls(s, PodSecurityChecks.SYSCTLS_1_0)),
                  at(27, (m, s) -> sysctls(s, PodSecurityChecks.SYSCTLS_1_27)),
                  at(29, (m, s) -> sysctls(s, PodSecurityChecks.SYSCTLS_1_29)),
                  at(32, (m, s) -> sysctls(s, PodSecurityChecks.SYSCTLS_1_32)))),
          new Check(
              "windowsHostProcess",
              Level.BASELINE,
              List.of(at(0, PodSecurityChecks::windowsHostProcess))));

  /** The versioned check of a check in force at a minor version, or null. */
  private static Versioned inForce(Check check, int minor) {
    Versioned found = null;
    for (Versioned v : check.versions()) {
      if (v.minimumMinor() <= minor) {
        found = v;
      }
    }
    return found;
  }

  /**
   * The ids of the checks a level runs at a version, in the order they run.
   *
   * @param lv the level and version
   * @return the ids
   */
  static List<String> checkIds(LevelVersion lv) {
    List<String> ids = new ArrayList<>();
    plan(lv).forEach(p -> ids.add(p.id));
    return ids;
  }

  private record Planned(String id, PodCheck check) {}

  private static List<Planned> plan(LevelVersion lv) {
    if (lv.level() == Level.PRIVILEGED) {
      return List.of();
    }
    int minor = lv.version().effectiveMinor();
    Set<String> overridden = new TreeSet<>();
    if (lv.level() == Level.RESTRICTED) {
      for (Check check : CHECKS) {
        Versioned v = inForce(check, minor);
        if (check.level() == Level.RESTRICTED && v != null) {
          overridden.addAll(v.overrides());
        }
      }
    }
    List<Check> ordered = new ArrayList<>(CHECKS);
    // Baseline checks first, then restricted ones, each by id as Go sorts its strings.
    ordered.sort(Comparator.comparing((Check c) -> c.level().ordinal()).thenComparing(Check::id));
    List<Planned> out = new ArrayList<>();
    for (Check check : ordered) {
      if (check.level() == Level.RESTRICTED && lv.level() != Level.RESTRICTED
          || overridden.contains(check.id())) {
        continue;
      }
      Versioned v = inForce(check, minor);
      if (v != null) {
        out.add(new Planned(check.id(), v.check()));
      }
    }
    return out;
  }

  /**
   * Runs a level's checks on a pod.
   *
   * @param lv the level and version
   * @param metadata the pod's metadata (of a template, for a workload)
   * @param spec the pod's spec
   * @return the checks that failed, in order
   */
  static List<Failure> evaluate(
      LevelVersion lv, Map<String, Object> metadata, Map<String, Object> spec) {
    Map<String, Object> meta = metadata == null ? Map.of() : metadata;
    Map<String, Object> podSpec = spec == null ? Map.of() : spec;
    List<Failure> failures = new ArrayList<>();
    for (Planned p : plan(lv)) {
      Failure f = p.check().apply(meta, podSpec);
      if (f != null) {
        failures.add(f);
      }
    }
    return failures;
  }

  /**
   * Runs one check as it stood at a minor version.
   *
   * @param id the check's id, such as {@code runAsNonRoot}
   * @param minor the minor version
   * @param metadata the pod's metadata
   * @param spec the pod's spec
   * @return its failure, or null when it passes or did not exist at that version
   */
  static Failure check(
      String id, int minor, Map<String, Object> metadata, Map<String, Object> spec) {
    for (Check check : CHECKS) {
      if (check.id().equals(id)) {
        Versioned v = inForce(check, minor);
        return v == null
            ? null
            : v.check()
                .apply(metadata == null ? Map.of() : metadata, spec == null ? Map.of() : spec);
      }
    }
    throw new IllegalArgumentException("no Pod Security check is named " + id);
  }

  /** The reasons joined, as Go's {@code AggregateCheckResult.ForbiddenReason}. */
  static String reasons(List<Failure> failures) {
    List<String> out = new ArrayList<>();
    failures.forEach(f -> out.add(f.reason()));
    return String.join(", ", out);
  }

  /** Each reason with its detail in parentheses, as Go's {@code ForbiddenDetail}. */
  static String details(List<Failure> failures) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < failures.size(); i++) {
      Failure f = failures.get(i);
      b.append(f.reason());
      if (!f.detail().isEmpty()) {
        b.append(" (").append(f.detail()).append(')');
      }
      if (i != failures.size() - 1) {
        b.append(", ");
      }
    }
    return b.toString();
  }

  // Helpers.

  private static PodCheck notOnWindows(PodCheck check) {
    return (m, s) ->
        "windows".equals(JsonTrees.string(s, "", "os", "name")) ? null : check.apply(m, s);
  }

  /** Init containers, containers, then ephemeral containers, as Go's visitor walks them. */
  private static List<Map<String, Object>> containers(Map<String, Object> spec) {
    List<Map<String, Object>> out = new ArrayList<>(JsonTrees.maps(spec, "initContainers"));
    out.addAll(JsonTrees.maps(spec, "containers"));
    out.addAll(JsonTrees.maps(spec, "ephemeralContainers"));
    return out;
  }

  private static String name(Map<String, Object> container) {
    return JsonTrees.string(container, "", "name");
  }

  private static Boolean flag(Object tree, String... path) {
    return JsonTrees.get(tree, path) instanceof Boolean b ? b : null;
  }

  private static String pluralize(String singular, String plural, int count) {
    return count == 1 ? singular : plural;
  }

  static String joinQuote(List<String> items) {
    return items.isEmpty() ? "" : "\"" + String.join("\", \"", items) + "\"";
  }

  private static String containersPhrase(List<String> names) {
    return pluralize("container", "containers", names.size()) + " " + joinQuote(names);
  }

  /** A string quoted as Go's {@code %q} quotes it. */
  static String goQuote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            b.append(String.format("\\x%02x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  // The checks.

  private static Failure allowPrivilegeEscalation(Map<String, Object> m, Map<String, Object> s) {
    List<String> bad = new ArrayList<>();
    for (Map<String, Object> c : containers(s)) {
      Boolean allow = flag(c, "securityContext", "allowPrivilegeEscalation");
      if (allow == null || allow) {
        bad.add(name(c));
      }
    }
    return bad.isEmpty()
        ? null
        : new Failure(
            "allowPrivilegeEscalation != false",
            containersPhrase(bad) + " must set securityContext.allowPrivilegeEscalation=false");
  }

  private static Failure appArmor(Map<String, Object> m, Map<String, Object> s) {
    List<String> setters = new ArrayList<>();
    TreeSet<String> badValues = new TreeSet<>();
    Map<String, Object> podProfile = JsonTrees.map(s, "securityContext", "appArmorProfile");
    if (podProfile != null) {
      String type = JsonTrees.string(podProfile, "", "type");
      if (!allowedAppArmorType(type)) {
        setters.add("pod");
        badValues.add(type);
      }
    }
    List<String> bad = new ArrayList<>();
    for (Map<String, Object> c : containers(s)) {
      Map<String, Object> profile = JsonTrees.map(c, "securityContext", "appArmorProfile");
      if (profile != null) {
        String type = JsonTrees.string(profile, "", "type");
        if (!allowedAppArmorType(type)) {
          bad.add(name(c));
          badValues.add(type);
        }
      }
    }
    if (!bad.isEmpty()) {
      setters.add(containersPhrase(bad));
    }
    List<String> annotations = new ArrayList<>();
    Map<String, Object> all = JsonTrees.map(m, "annotations");
    if (all != null) {
      all.forEach(
          (k, v) -> {
            String value = v instanceof String text ? text : "";
            if (k.startsWith("container.apparmor.security.beta.kubernetes.io/")
                && !(value.isEmpty()
                    || value.equals("runtime/default")
                    || value.startsWith("localhost/"))) {
              annotations.add(k + "=" + goQuote(value));
            }
          });
    }
    List<String> values = new ArrayList<>(badValues);
    if (!annotations.isEmpty()) {
      annotations.sort(null);
      values.addAll(annotations);
      setters.add(pluralize("annotation", "annotations", annotations.size()));
    }
    if (setters.isEmpty()) {
      return null;
    }
    return new Failure(
        pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", values.size()),
        String.join(" and ", setters)
            + " must not set AppArmor profile type to "
            + joinQuote(values));
  }

  private static boolean allowedAppArmorType(String type) {
    return type.equals("RuntimeDefault") || type.equals("Localhost");
  }

  private static final Set<String> DEFAULT_CAPABILITIES =
      Set.of(
          "AUDIT_WRITE",
          "CHOWN",
          "DAC_OVERRIDE",
          "FOWNER",
          "FSETID",
          "KILL",
          "MKNOD",
          "NET_BIND_SERVICE",
          "SETFCAP",
          "SETGID",
          "SETPCAP",
          "SETUID",
          "SYS_CHROOT");

  private static List<String> strings(Object tree, String... path) {
    List<String> out = new ArrayList<>();
    if (JsonTrees.get(tree, path) instanceof List<?> list) {
      for (Object item : list) {
        out.add(item instanceof String text ? text : String.valueOf(item));
      }
    }
    return out;
  }

  private static Failure capabilitiesBaseline(Map<String, Object> m, Map<String, Object> s) {
    List<String> bad = new ArrayList<>();
    TreeSet<String> added = new TreeSet<>();
    for (Map<String, Object> c : containers(s)) {
      boolean valid = true;
      for (String cap : strings(c, "securityContext", "capabilities", "add")) {
        if (!DEFAULT_CAPABILITIES.contains(cap)) {
          valid = false;
          added.add(cap);
        }
      }
      if (!valid) {
        bad.add(name(c));
      }
    }
    return bad.isEmpty()
        ? null
        : new Failure(
            "non-default capabilities",
            containersPhrase(bad)
                + " must not include "
                + joinQuote(new ArrayList<>(added))
                + " in securityContext.capabilities.add");
  }

  private static Failure capabilitiesRestricted(Map<String, Object> m, Map<String, Object> s) {
    List<String> missingDropAll = new ArrayList<>();
    List<String> adding = new ArrayList<>();
    TreeSet<String> forbidden = new TreeSet<>();
    for (Map<String, Object> c : containers(s)) {
      if (JsonTrees.map(c, "securityContext", "capabilities") == null) {
        missingDropAll.add(name(c));
        continue;
      }
      if (!strings(c, "securityContext", "capabilities", "drop").contains("ALL")) {
        missingDropAll.add(name(c));
      }
      boolean addedForbidden = false;
      for (String cap : strings(c, "securityContext", "capabilities", "add")) {
        if (!cap.equals("NET_BIND_SERVICE")) {
          addedForbidden = true;
          forbidden.add(cap);
        }
      }
      if (addedForbidden) {
        adding.add(name(c));
      }
    }
    List<String> details = new ArrayList<>();
    if (!missingDropAll.isEmpty()) {
      details.add(
          containersPhrase(missingDropAll)
              + " must set securityContext.capabilities.drop=[\"ALL\"]");
    }
    if (!adding.isEmpty()) {
      details.add(
          containersPhrase(adding)
              + " must not include "
              + joinQuote(new ArrayList<>(forbidden))
              + " in securityContext.capabilities.add");
    }
    return details.isEmpty()
        ? null
        : new Failure("unrestricted capabilities", String.join("; ", details));
  }

  private static Failure hostNamespaces(Map<String, Object> m, Map<String, Object> s) {
    List<String> host = new ArrayList<>();
    for (String field : List.of("hostNetwork", "hostPID", "hostIPC")) {
      if (Boolean.TRUE.equals(flag(s, field))) {
        host.add(field + "=true");
      }
    }
    return host.isEmpty() ? null : new Failure("host namespaces", String.join(", ", host));
  }

  private static Failure hostPathVolumes(Map<String, Object> m, Map<String, Object> s) {
    List<String> bad = new ArrayList<>();
    for (Map<String, Object> volume : JsonTrees.maps(s, "volumes")) {
      if (volume.get("hostPath") != null) {
        bad.add(JsonTrees.string(volume, "", "name"));
      }
    }
    return bad.isEmpty()
        ? null
        : new Failure(
            "hostPath volumes", pluralize("volume", "volumes", bad.size()) + " " + joinQuote(bad));
  }

  private static Failure hostPorts(Map<String, Object> m, Map<String, Object> s) {
    List<String> bad = new ArrayList<>();
    TreeSet<String> ports = new TreeSet<>();
    for (Map<String, Object> c : containers(s)) {
      boolean valid = true;
      for (Map<String, Object> port : JsonTrees.maps(c, "ports")) {
        long hostPort = JsonTrees.number(port, 0, "hostPort");
        if (hostPort != 0) {
          valid = false;
          ports.add(Long.toString(hostPort));
        }
      }
      if (!valid) {
        bad.add(name(c));
      }
    }
    return bad.isEmpty()
        ? null
        : new Failure(
            "hostPort",
            containersPhrase(bad)
                + " "
                + pluralize("uses", "use", bad.size())
                + " "
                + pluralize("hostPort", "hostPorts", ports.size())
                + " "
                + String.join(", ", ports));
  }

  private static Failure privileged(Map<String, Object> m, Map<String, Object> s) {
    List<String> bad = new ArrayList<>();
    for (Map<String, Object> c : containers(s)) {
      if (Boolean.TRUE.equals(flag(c, "securityContext", "privileged"))) {
        bad.add(name(c));
      }
    }
    return bad.isEmpty()
        ? null
        : new Failure(
            "privileged", containersPhrase(bad) + " must not set securityContext.privileged=true");
  }

  private static Failure procMount(Map<String, Object> m, Map<String, Object> s) {
    // kube-apiserver 1.33 leaves UserNamespacesPodSecurityStandards off: no relaxation.
    List<String> bad = new ArrayList<>();
    TreeSet<String> types = new TreeSet<>();
    for (Map<String, Object> c : containers(s)) {
      if (JsonTrees.get(c, "securityContext", "procMount") instanceof String type
          && !type.equals("Default")) {
        bad.add(name(c));
        types.add(type);
      }
    }
    return bad.isEmpty()
        ? null
        : new Failure(
            "procMount",
            containersPhrase(bad)
                + " must not set securityContext.procMount to "
                + joinQuote(new ArrayList<>(types)));
  }

  private static final List<String> ALLOWED_VOLUME_SOURCES =
      List.of(
          "configMap",
          "csi",
          "downwardAPI",
          "emptyDir",
          "ephemeral",
          "image",
          "persistentVolumeClaim",
          "projected",
          "secret");

  private static final List<String> RESTRICTED_VOLUME_SOURCES =
      List.of(
          "hostPath",
          "gcePersistentDisk",
          "awsElasticBlockStore",
          "gitRepo",
          "nfs",
          "iscsi",
          "glusterfs",
          "rbd",
          "flexVolume",
          "cinder",
          "cephfs",
          "flocker",
          "fc",
          "azureFile",
          "vsphereVolume",
          "quobyte",
          "azureDisk",
          "photonPersistentDisk",
          "portworxVolume",
          "scaleIO",
          "storageos");

  private static Failure restrictedVolumes(Map<String, Object> m, Map<String, Object> s) {
    List<String> bad = new ArrayList<>();
    TreeSet<String> types = new TreeSet<>();
    volumes:
    for (Map<String, Object> volume : JsonTrees.maps(s, "volumes")) {
      for (String source : ALLOWED_VOLUME_SOURCES) {
        if (volume.get(source) != null) {
          continue volumes;
        }
      }
      bad.add(JsonTrees.string(volume, "", "name"));
      String type = "unknown";
      for (String source : RESTRICTED_VOLUME_SOURCES) {
        if (volume.get(source) != null) {
          type = source;
          break;
        }
      }
      types.add(type);
    }
    return bad.isEmpty()
        ? null
        : new Failure(
            "restricted volume types",
            pluralize("volume", "volumes", bad.size())
                + " "
                + joinQuote(bad)
                + " "
                + pluralize("uses", "use", bad.size())
                + " "
                + pluralize("restricted volume type", "restricted volume types", types.size())
                + " "
                + joinQuote(new ArrayList<>(types)));
  }

  private static Failure runAsNonRoot(Map<String, Object> m, Map<String, Object> s) {
    List<String> setters = new ArrayList<>();
    boolean podNonRoot = false;
    Boolean pod = flag(s, "securityContext", "runAsNonRoot");
    if (pod != null) {
      if (!pod) {
        setters.add("pod");
      } else {
        podNonRoot = true;
      }
    }
    List<String> explicit = new ArrayList<>();
    List<String> implicit = new ArrayList<>();
    for (Map<String, Object> c : containers(s)) {
      Boolean value = flag(c, "securityContext", "runAsNonRoot");
      if (value != null) {
        if (!value) {
          explicit.add(name(c));
        }
      } else if (!podNonRoot) {
        implicit.add(name(c));
      }
    }
    if (!explicit.isEmpty()) {
      setters.add(containersPhrase(explicit));
    }
    if (!setters.isEmpty()) {
      return new Failure(
          "runAsNonRoot != true",
          String.join(" and ", setters) + " must not set securityContext.runAsNonRoot=false");
    }
    if (!implicit.isEmpty()) {
      return new Failure(
          "runAsNonRoot != true",
          "pod or " + containersPhrase(implicit) + " must set securityContext.runAsNonRoot=true");
    }
    return null;
  }

  private static boolean isZero(Object tree, String... path) {
    return JsonTrees.get(tree, path) instanceof Number n && n.longValue() == 0;
  }

  private static Failure runAsUser(Map<String, Object> m, Map<String, Object> s) {
    List<String> setters = new ArrayList<>();
    if (isZero(s, "securityContext", "runAsUser")) {
      setters.add("pod");
    }
    List<String> bad = new ArrayList<>();
    for (Map<String, Object> c : containers(s)) {
      if (isZero(c, "securityContext", "runAsUser")) {
        bad.add(name(c));
      }
    }
    if (!bad.isEmpty()) {
      setters.add(containersPhrase(bad));
    }
    return setters.isEmpty()
        ? null
        : new Failure("runAsUser=0", String.join(" and ", setters) + " must not set runAsUser=0");
  }

  private static final Set<String> SELINUX_TYPES_1_0 =
      Set.of("", "container_t", "container_init_t", "container_kvm_t");
  private static final Set<String> SELINUX_TYPES_1_31 =
      Set.of("", "container_t", "container_init_t", "container_kvm_t", "container_engine_t");

  private static Failure seLinuxOptions(Map<String, Object> s, Set<String> allowed) {
    TreeSet<String> badTypes = new TreeSet<>();
    boolean[] setUserRole = new boolean[2];
    java.util.function.Predicate<Map<String, Object>> valid =
        opts -> {
          boolean ok = true;
          String type = JsonTrees.string(opts, "", "type");
          if (!allowed.contains(type)) {
            ok = false;
            badTypes.add(type);
          }
          if (!JsonTrees.string(opts, "", "user").isEmpty()) {
            ok = false;
            setUserRole[0] = true;
          }
          if (!JsonTrees.string(opts, "", "role").isEmpty()) {
            ok = false;
            setUserRole[1] = true;
          }
          return ok;
        };
    List<String> setters = new ArrayList<>();
    Map<String, Object> pod = JsonTrees.map(s, "securityContext", "seLinuxOptions");
    if (pod != null && !valid.test(pod)) {
      setters.add("pod");
    }
    List<String> bad = new ArrayList<>();
    for (Map<String, Object> c : containers(s)) {
      Map<String, Object> opts = JsonTrees.map(c, "securityContext", "seLinuxOptions");
      if (opts != null && !valid.test(opts)) {
        bad.add(name(c));
      }
    }
    if (!bad.isEmpty()) {
      setters.add(containersPhrase(bad));
    }
    if (setters.isEmpty()) {
      return null;
    }
    List<String> data = new ArrayList<>();
    if (!badTypes.isEmpty()) {
      data.add(
          pluralize("type", "types", badTypes.size()) + " " + joinQuote(new ArrayList<>(badTypes)));
    }
    if (setUserRole[0]) {
      data.add("user may not be set");
    }
    if (setUserRole[1]) {
      data.add("role may not be set");
    }
    return new Failure(
        "seLinuxOptions",
        String.join(" and ", setters)
            + " set forbidden securityContext.seLinuxOptions: "
            + String.join("; ", data));
  }

  private static boolean validSeccomp(String type) {
    return type.equals("Localhost") || type.equals("RuntimeDefault");
  }

  private static Failure seccompAnnotations(Map<String, Object> m, Map<String, Object> s) {
    TreeSet<String> forbidden = new TreeSet<>();
    Map<String, Object> annotations = JsonTrees.map(m, "annotations");
    if (annotations == null) {
      return null;
    }
    String podKey = "seccomp.security.alpha.kubernetes.io/pod";
    if (annotations.get(podKey) instanceof String v && !validSeccompAnnotation(v)) {
      forbidden.add(podKey + "=" + goQuote(v));
    }
    for (Map<String, Object> c : containers(s)) {
      String key = "container.seccomp.security.alpha.kubernetes.io/" + name(c);
      if (annotations.get(key) instanceof String v && !validSeccompAnnotation(v)) {
        forbidden.add(key + "=" + goQuote(v));
      }
    }
    return forbidden.isEmpty()
        ? null
        : new Failure(
            "seccompProfile",
            "forbidden "
                + pluralize("annotation", "annotations", forbidden.size())
                + " "
                + String.join(", ", forbidden));
  }

  private static boolean validSeccompAnnotation(String v) {
    return v.equals("runtime/default") || v.equals("docker/default") || v.startsWith("localhost/");
  }

  private static Failure seccompBaseline(Map<String, Object> m, Map<String, Object> s) {
    return seccomp(s, false);
  }

  private static Failure seccompRestricted(Map<String, Object> m, Map<String, Object> s) {
    return seccomp(s, true);
  }

  private static Failure seccomp(Map<String, Object> s, boolean restricted) {
    List<String> setters = new ArrayList<>();
    TreeSet<String> badValues = new TreeSet<>();
    boolean podSet = false;
    Map<String, Object> pod = JsonTrees.map(s, "securityContext", "seccompProfile");
    if (pod != null) {
      String type = JsonTrees.string(pod, "", "type");
      if (!validSeccomp(type)) {
        setters.add("pod");
        badValues.add(type);
      } else {
        podSet = true;
      }
    }
    List<String> explicit = new ArrayList<>();
    List<String> implicit = new ArrayList<>();
    for (Map<String, Object> c : containers(s)) {
      Map<String, Object> profile = JsonTrees.map(c, "securityContext", "seccompProfile");
      if (profile != null) {
        String type = JsonTrees.string(profile, "", "type");
        if (!validSeccomp(type)) {
          explicit.add(name(c));
          badValues.add(type);
        }
      } else if (!podSet) {
        implicit.add(name(c));
      }
    }
    if (!explicit.isEmpty()) {
      setters.add(containersPhrase(explicit));
    }
    if (!setters.isEmpty()) {
      return new Failure(
          "seccompProfile",
          String.join(" and ", setters)
              + " must not set securityContext.seccompProfile.type to "
              + joinQuote(new ArrayList<>(badValues)));
    }
    if (restricted && !implicit.isEmpty()) {
      return new Failure(
          "seccompProfile",
          "pod or "
              + containersPhrase(implicit)
              + " must set securityContext.seccompProfile.type to \"RuntimeDefault\" or"
              + " \"Localhost\"");
    }
    return null;
  }

  private static final Set<String> SYSCTLS_1_0 =
      Set.of(
          "kernel.shm_rmid_forced",
          "net.ipv4.ip_local_port_range",
          "net.ipv4.tcp_syncookies",
          "net.ipv4.ping_group_range",
          "net.ipv4.ip_unprivileged_port_start");
  private static final Set<String> SYSCTLS_1_27 =
      union(SYSCTLS_1_0, "net.ipv4.ip_local_reserved_ports");
  private static final Set<String> SYSCTLS_1_29 =
      union(
          SYSCTLS_1_27,
          "net.ipv4.tcp_keepalive_time",
          "net.ipv4.tcp_fin_timeout",
          "net.ipv4.tcp_keepalive_intvl",
          "net.ipv4.tcp_keepalive_probes");
  private static final Set<String> SYSCTLS_1_32 =
      union(SYSCTLS_1_29, "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem");

  private static Set<String> union(Set<String> base, String... more) {
    Set<String> out = new TreeSet<>(base);
    out.addAll(List.of(more));
    return Set.copyOf(out);
  }

  private static Failure sysctls(Map<String, Object> s, Set<String> allowed) {
    List<String> forbidden = new ArrayList<>();
    for (Map<String, Object> sysctl : JsonTrees.maps(s, "securityContext", "sysctls")) {
      String name = JsonTrees.string(sysctl, "", "name");
      if (!allowed.contains(name)) {
        forbidden.add(name);
      }
    }
    return forbidden.isEmpty()
        ? null
        : new Failure("forbidden sysctls", String.join(", ", forbidden));
  }

  private static Failure windowsHostProcess(Map<String, Object> m, Map<String, Object> s) {
    List<String> bad = new ArrayList<>();
    for (Map<String, Object> c : containers(s)) {
      if (Boolean.TRUE.equals(flag(c, "securityContext", "windowsOptions", "hostProcess"))) {
        bad.add(name(c));
      }
    }
    List<String> setters = new ArrayList<>();
    if (Boolean.TRUE.equals(flag(s, "securityContext", "windowsOptions", "hostProcess"))) {
      setters.add("pod");
    }
    if (!bad.isEmpty()) {
      setters.add(containersPhrase(bad));
    }
    return setters.isEmpty()
        ? null
        : new Failure(
            "hostProcess",
            String.join(" and ", setters)
                + " must not set securityContext.windowsOptions.hostProcess=true");
  }
}
