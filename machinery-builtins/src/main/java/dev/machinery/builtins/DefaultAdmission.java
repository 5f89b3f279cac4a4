package dev.machinery.builtins;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.admission.AdmissionPlugin;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * kube-apiserver 1.33's default admission plugins that act on built-in kinds, as Java plugins of an
 * {@link ApiServer}, chosen by the names kube-apiserver gives them, as its {@code
 * --enable-admission-plugins} and {@code --disable-admission-plugins} choose them. {@link
 * #kubernetes()} is what {@link BuiltinKinds#apiServer()} installs; docs/admission.md lists what
 * each plugin does.
 *
 * <p>Immutable and thread-safe: each option returns a new instance.
 */
public final class DefaultAdmission {
  /** The plugins available, in the order kube-apiserver runs them. */
  public static final List<String> AVAILABLE =
      List.of(
          LimitRanger.NAME,
          ServiceAccountAdmission.NAME,
          TaintNodesByCondition.NAME,
          PodSecurity.NAME,
          Priority.NAME,
          DefaultTolerationSeconds.NAME,
          DefaultStorageClass.NAME,
          StorageObjectInUseProtection.NAME,
          PersistentVolumeClaimResize.NAME,
          RuntimeClassAdmission.NAME,
          CertificateApproval.NAME,
          CertificateSigning.NAME,
          CertificateSubjectRestriction.NAME,
          DefaultIngressClass.NAME,
          ResourceQuota.NAME);

  /**
   * The plugins {@link #kubernetes()} enables: every available one but {@code ServiceAccount},
   * which refuses a Pod whose service account does not exist, and whose {@code default} account
   * kube-controller-manager's service account controller makes in each namespace ({@link
   * #forControllers} enables it when that controller runs).
   */
  public static final List<String> ENABLED_BY_DEFAULT =
      List.of(
          LimitRanger.NAME,
          TaintNodesByCondition.NAME,
          PodSecurity.NAME,
          Priority.NAME,
          DefaultTolerationSeconds.NAME,
          DefaultStorageClass.NAME,
          StorageObjectInUseProtection.NAME,
          PersistentVolumeClaimResize.NAME,
          RuntimeClassAdmission.NAME,
          CertificateApproval.NAME,
          CertificateSigning.NAME,
          CertificateSubjectRestriction.NAME,
          DefaultIngressClass.NAME,
          ResourceQuota.NAME);

  /** kube-controller-manager's name of the controller that makes each namespace's accounts. */
  private static final String SERVICE_ACCOUNT_CONTROLLER = "serviceaccount-controller";

  /**
   * The configuration of {@code PodSecurity}, as kube-apiserver's {@code PodSecurityConfiguration}
   * (pod-security.admission.config.k8s.io/v1): the levels and versions of a namespace without
   * labels, and the users, runtime classes and namespaces exempt from it. Immutable.
   *
   * @param enforce the default {@code enforce} level: {@code privileged}, {@code baseline} or
   *     {@code restricted}
   * @param enforceVersion the default {@code enforce} version: {@code latest} or {@code v1.N}
   * @param audit the default {@code audit} level
   * @param auditVersion the default {@code audit} version
   * @param warn the default {@code warn} level
   * @param warnVersion the default {@code warn} version
   * @param exemptUsernames users whose writes are not checked
   * @param exemptRuntimeClasses runtime classes whose pods are not checked
   * @param exemptNamespaces namespaces whose pods are not checked
   */
  public record PodSecurityConfiguration(
      String enforce,
      String enforceVersion,
      String audit,
      String auditVersion,
      String warn,
      String warnVersion,
      List<String> exemptUsernames,
      List<String> exemptRuntimeClasses,
      List<String> exemptNamespaces) {
    /** kube-apiserver's default: everything {@code privileged:latest}, nothing exempt. */
    public static final PodSecurityConfiguration DEFAULT =
        new PodSecurityConfiguration(
            "privileged",
            "latest",
            "privileged",
            "latest",
            "privileged",
            "latest",
            List.of(),
            List.of(),
            List.of());

    /**
     * Checks each part, as kube-apiserver validates the configuration file.
     *
     * @param enforce see the record description
     * @param enforceVersion see the record description
     * @param audit see the record description
     * @param auditVersion see the record description
     * @param warn see the record description
     * @param warnVersion see the record description
     * @param exemptUsernames see the record description
     * @param exemptRuntimeClasses see the record description
     * @param exemptNamespaces see the record description
     * @throws IllegalArgumentException naming the field and value that are not valid
     */
    public PodSecurityConfiguration {
      level("defaults.enforce", enforce);
      version("defaults.enforce-version", enforceVersion);
      level("defaults.audit", audit);
      version("defaults.audit-version", auditVersion);
      level("defaults.warn", warn);
      version("defaults.warn-version", warnVersion);
      exemptUsernames = names("exemptions.usernames", exemptUsernames);
      exemptRuntimeClasses = names("exemptions.runtimeClasses", exemptRuntimeClasses);
      exemptNamespaces = names("exemptions.namespaces", exemptNamespaces);
    }

    private static void level(String field, String value) {
      if (value == null || PodSecurityChecks.Level.parse(value) == null) {
        throw new IllegalArgumentException(
            field
                + ": Unsupported value: "
                + quote(value)
                + ": supported values: \"privileged\", \"baseline\", \"restricted\"");
      }
    }

    private static void version(String field, String value) {
      if (value == null || PodSecurityChecks.Version.parse(value) == null) {
        throw new IllegalArgumentException(
            field + ": Invalid value: " + quote(value) + ": must be \"latest\" or \"v1.x\"");
      }
    }

    private static List<String> names(String field, List<String> values) {
      Objects.requireNonNull(values, field);
      Set<String> seen = new LinkedHashSet<>();
      for (int i = 0; i < values.size(); i++) {
        String value = values.get(i);
        if (value == null || value.isEmpty()) {
          throw new IllegalArgumentException(field + "[" + i + "]: Invalid value: \"\": empty");
        }
        if (!seen.add(value)) {
          throw new IllegalArgumentException(
              field + "[" + i + "]: Duplicate value: " + quote(value));
        }
      }
      return List.copyOf(values);
    }

    private static String quote(String value) {
      return value == null ? "null" : PodSecurityChecks.goQuote(value);
    }
  }

  private final Set<String> enabled;
  private final PodSecurityConfiguration podSecurity;

  private DefaultAdmission(Set<String> enabled, PodSecurityConfiguration podSecurity) {
    this.enabled = Set.copyOf(enabled);
    this.podSecurity = podSecurity;
  }

  /**
   * kube-apiserver's defaults: the plugins of {@link #ENABLED_BY_DEFAULT}, {@code PodSecurity} with
   * {@link PodSecurityConfiguration#DEFAULT}.
   *
   * @return the choice
   */
  public static DefaultAdmission kubernetes() {
    return new DefaultAdmission(
        new LinkedHashSet<>(ENABLED_BY_DEFAULT), PodSecurityConfiguration.DEFAULT);
  }

  /**
   * kube-apiserver's defaults beside the controllers that run, as a cluster pairs them: {@link
   * #kubernetes()}, and {@code ServiceAccount} when kube-controller-manager's {@code
   * serviceaccount-controller} runs (it makes the {@code default} account the plugin requires in
   * each namespace).
   *
   * @param runningControllers the names of the controllers that run, as kube-controller-manager
   *     names them
   * @return the choice
   */
  public static DefaultAdmission forControllers(Collection<String> runningControllers) {
    DefaultAdmission admission = kubernetes();
    return runningControllers.contains(SERVICE_ACCOUNT_CONTROLLER)
        ? admission.enable(ServiceAccountAdmission.NAME)
        : admission;
  }

  /**
   * No default plugin.
   *
   * @return the choice
   */
  public static DefaultAdmission none() {
    return new DefaultAdmission(Set.of(), PodSecurityConfiguration.DEFAULT);
  }

  /**
   * These plugins too, as {@code --enable-admission-plugins}.
   *
   * @param names plugin names, as kube-apiserver spells them ({@code ServiceAccount})
   * @return the new choice
   * @throws IllegalArgumentException for a name not in {@link #AVAILABLE}
   */
  public DefaultAdmission enable(String... names) {
    Set<String> next = new LinkedHashSet<>(enabled);
    next.addAll(known("enable-admission-plugins", names));
    return new DefaultAdmission(next, podSecurity);
  }

  /**
   * Not these plugins, as {@code --disable-admission-plugins}.
   *
   * @param names plugin names, as kube-apiserver spells them
   * @return the new choice
   * @throws IllegalArgumentException for a name not in {@link #AVAILABLE}
   */
  public DefaultAdmission disable(String... names) {
    Set<String> next = new LinkedHashSet<>(enabled);
    next.removeAll(known("disable-admission-plugins", names));
    return new DefaultAdmission(next, podSecurity);
  }

  /**
   * {@code PodSecurity}'s configuration, as kube-apiserver's {@code
   * --admission-control-config-file} gives it.
   *
   * @param configuration the configuration
   * @return the new choice
   */
  public DefaultAdmission podSecurity(PodSecurityConfiguration configuration) {
    return new DefaultAdmission(enabled, Objects.requireNonNull(configuration, "configuration"));
  }

  /**
   * Returns the plugins enabled, in the order they run.
   *
   * @return their names
   */
  public List<String> enabled() {
    List<String> out = new ArrayList<>();
    for (String name : AVAILABLE) {
      if (enabled.contains(name)) {
        out.add(name);
      }
    }
    return out;
  }

  /**
   * Adds the enabled plugins to a server's builder, in kube-apiserver's order, after the plugins it
   * has.
   *
   * @param builder the builder
   * @return the builder
   */
  public ApiServer.Builder install(ApiServer.Builder builder) {
    for (String name : enabled()) {
      builder.admission(plugin(name));
    }
    return builder;
  }

  private AdmissionPlugin plugin(String name) {
    return switch (name) {
      case LimitRanger.NAME -> new LimitRanger();
      case ServiceAccountAdmission.NAME -> new ServiceAccountAdmission();
      case PodSecurity.NAME -> new PodSecurity(podSecurity);
      case Priority.NAME -> new Priority();
      case DefaultTolerationSeconds.NAME -> new DefaultTolerationSeconds(300, 300);
      case DefaultStorageClass.NAME -> new DefaultStorageClass();
      case StorageObjectInUseProtection.NAME -> new StorageObjectInUseProtection();
      case RuntimeClassAdmission.NAME -> new RuntimeClassAdmission();
      case TaintNodesByCondition.NAME -> new TaintNodesByCondition();
      case PersistentVolumeClaimResize.NAME -> new PersistentVolumeClaimResize();
      case DefaultIngressClass.NAME -> new DefaultIngressClass();
      case CertificateApproval.NAME -> new CertificateApproval();
      case CertificateSigning.NAME -> new CertificateSigning();
      case CertificateSubjectRestriction.NAME -> new CertificateSubjectRestriction();
      case ResourceQuota.NAME -> new ResourceQuota();
      default -> throw new IllegalStateException("no plugin " + name);
    };
  }

  private static List<String> known(String flag, String... names) {
    List<String> out = new ArrayList<>();
    for (String name : names) {
      if (!AVAILABLE.contains(name)) {
        throw new IllegalArgumentException(
            flag
                + ": admission plugin "
                + (name == null ? "null" : PodSecurityChecks.goQuote(name))
                + " is not available; available: "
                + String.join(", ", AVAILABLE));
      }
      out.add(name);
    }
    return out;
  }
}
