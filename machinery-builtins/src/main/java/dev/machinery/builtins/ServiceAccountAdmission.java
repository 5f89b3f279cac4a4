package dev.machinery.builtins;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.MutatingAdmissionPlugin;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.unstructured.JsonTrees;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * kube-apiserver's {@code ServiceAccount} plugin: a created Pod without {@code serviceAccountName}
 * gets {@code default}; its account must exist (kube-apiserver waits a little for {@code default},
 * which kube-controller-manager makes in each namespace) or the Pod is refused ({@code error
 * looking up service account NS/NAME: serviceaccount "NAME" not found}); unless the Pod or its
 * account turns automounting off, every init container and container that mounts nothing at {@code
 * /var/run/secrets/kubernetes.io/serviceaccount} mounts there, read-only, a projected volume {@code
 * kube-api-access-XXXXX} (a bound token of 3607 seconds, the {@code kube-root-ca.crt} ConfigMap's
 * {@code ca.crt}, the namespace); the account's image pull secrets are copied to a Pod that has
 * none; with the account's annotation {@code kubernetes.io/enforce-mountable-secrets: "true"}, the
 * Pod may reference only its secrets; mirror pods may reference no account, secret or token.
 * Thread-safe once initialized.
 */
final class ServiceAccountAdmission implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  static final String NAME = "ServiceAccount";
  static final String DEFAULT_ACCOUNT = "default";
  static final String MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
  static final String VOLUME_PREFIX = "kube-api-access-";
  static final String MIRROR = "kubernetes.io/config.mirror";
  static final String ENFORCE_MOUNTABLE = "kubernetes.io/enforce-mountable-secrets";
  private static final GroupResource PODS = GroupResource.of("", "pods");
  private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Loopback loopback = new Loopback();
  private final Supplier<String> volumeName;
  private final int defaultAttempts;

  /**
   * The plugin as kube-apiserver has it: a random volume suffix, ten lookups of {@code default}.
   */
  ServiceAccountAdmission() {
    this(ServiceAccountAdmission::generateName, 10);
  }

  ServiceAccountAdmission(Supplier<String> volumeName, int defaultAttempts) {
    this.volumeName = volumeName;
    this.defaultAttempts = defaultAttempts;
  }

  /** {@code kube-api-access-} and five characters, as Go's {@code SimpleNameGenerator}. */
  static String generateName() {
    StringBuilder b = new StringBuilder(VOLUME_PREFIX);
    for (int i = 0; i < 5; i++) {
      b.append(ALPHANUMS.charAt(RANDOM.nextInt(ALPHANUMS.length())));
    }
    return b.toString();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public boolean handles(Operation operation) {
    return operation == Operation.CREATE || operation == Operation.UPDATE;
  }

  @Override
  public void initialize(ApiHandler server) {
    loopback.initialize(server);
  }

  private static boolean ignored(AdmissionAttributes a) {
    return !a.resource().equals(PODS)
        || !a.subresource().isEmpty() && !a.subresource().equals("ephemeralcontainers")
        || a.object() == null;
  }

  @Override
  public Object admit(AdmissionAttributes a) {
    if (ignored(a) || a.operation() != Operation.CREATE) {
      return a.object();
    }
    Map<String, Object> pod = ((Unstructured) a.object()).content();
    if (JsonTrees.map(pod, "metadata", "annotations") != null
        && JsonTrees.map(pod, "metadata", "annotations").containsKey(MIRROR)) {
      validate(a);
      return a.object();
    }
    Map<String, Object> spec = JsonTrees.child(pod, "spec");
    if (JsonTrees.string(spec, "", "serviceAccountName").isEmpty()) {
      spec.put("serviceAccountName", DEFAULT_ACCOUNT);
    }
    Map<String, Object> account = account(a, JsonTrees.string(spec, "", "serviceAccountName"));
    if (automount(account, spec)) {
      mountToken(spec);
    }
    if (JsonTrees.maps(spec, "imagePullSecrets").isEmpty()) {
      List<Object> secrets = new ArrayList<>();
      for (Map<String, Object> ref : JsonTrees.maps(account, "imagePullSecrets")) {
        secrets.add(new LinkedHashMap<>(Map.of("name", JsonTrees.string(ref, "", "name"))));
      }
      if (!secrets.isEmpty()) {
        spec.put("imagePullSecrets", secrets);
      }
    }
    validate(a);
    return a.object();
  }

  @Override
  public void validate(AdmissionAttributes a) {
    if (ignored(a)) {
      return;
    }
    Map<String, Object> pod = ((Unstructured) a.object()).content();
    Map<String, Object> spec = JsonTrees.map(pod, "spec");
    if (a.operation() == Operation.UPDATE && a.subresource().equals("ephemeralcontainers")) {
      limitEphemeralContainers(a, spec);
      return;
    }
    if (a.operation() != Operation.CREATE) {
      return;
    }
    Map<String, Object> annotations = JsonTrees.map(pod, "metadata", "annotations");
    if (annotations != null && annotations.containsKey(MIRROR)) {
      if (!JsonTrees.string(spec, "", "serviceAccountName").isEmpty()) {
        throw new AdmissionException("a mirror pod may not reference service accounts");
      }
      if (!secretNames(spec).isEmpty()) {
        throw new AdmissionException("a mirror pod may not reference secrets");
      }
      for (Map<String, Object> volume : JsonTrees.maps(spec, "volumes")) {
        for (Map<String, Object> source : JsonTrees.maps(volume, "projected", "sources")) {
          if (source.get("serviceAccountToken") != null) {
            throw new AdmissionException(
                "a mirror pod may not use ServiceAccountToken volume projections");
          }
        }
      }
      return;
    }
    String accountName = JsonTrees.string(spec, "", "serviceAccountName");
    if (accountName.isEmpty()) {
      throw new AdmissionException(
          "no service account specified for pod "
              + a.namespace()
              + "/"
              + JsonTrees.string(pod, "", "metadata", "name"));
    }
    Map<String, Object> account = account(a, accountName);
    if (enforceMountable(account)) {
      limitSecretReferences(account, spec);
    }
  }

  /** The account, looked up as kube-apiserver does: {@code default} up to ten times. */
  private Map<String, Object> account(AdmissionAttributes a, String name) {
    String path = "/api/v1/namespaces/" + a.namespace() + "/serviceaccounts/" + name;
    int attempts = name.equals(DEFAULT_ACCOUNT) ? defaultAttempts : 1;
    long interval = 100 + ThreadLocalRandom.current().nextLong(100);
    for (int i = 0; i < attempts; i++) {
      if (i != 0) {
        try {
          Thread.sleep(interval);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      Optional<Map<String, Object>> found = loopback.lookup(path);
      if (found.isPresent()) {
        return found.get();
      }
    }
    throw new AdmissionException(
        "error looking up service account "
            + a.namespace()
            + "/"
            + name
            + ": serviceaccount \""
            + name
            + "\" not found");
  }

  private static boolean automount(Map<String, Object> account, Map<String, Object> spec) {
    if (spec.get("automountServiceAccountToken") instanceof Boolean pod) {
      return pod;
    }
    if (account.get("automountServiceAccountToken") instanceof Boolean sa) {
      return sa;
    }
    return true;
  }

  private void mountToken(Map<String, Object> spec) {
    String tokenVolume = null;
    for (Map<String, Object> volume : JsonTrees.maps(spec, "volumes")) {
      if (JsonTrees.string(volume, "", "name").startsWith(VOLUME_PREFIX)) {
        tokenVolume = JsonTrees.string(volume, "", "name");
        break;
      }
    }
    boolean hasVolume = tokenVolume != null;
    if (tokenVolume == null) {
      tokenVolume = volumeName.get();
    }
    boolean needsVolume = false;
    for (String list : List.of("initContainers", "containers")) {
      for (Map<String, Object> container : JsonTrees.maps(spec, list)) {
        boolean mounted = false;
        for (Map<String, Object> mount : JsonTrees.maps(container, "volumeMounts")) {
          if (MOUNT_PATH.equals(mount.get("mountPath"))) {
            mounted = true;
            break;
          }
        }
        if (!mounted) {
          List<Object> mounts =
              container.get("volumeMounts") instanceof List<?> existing
                  ? new ArrayList<>(existing)
                  : new ArrayList<>();
          Map<String, Object> mount = new LinkedHashMap<>();
          mount.put("name", tokenVolume);
          mount.put("readOnly", true);
          mount.put("mountPath", MOUNT_PATH);
          mounts.add(mount);
          container.put("volumeMounts", mounts);
          needsVolume = true;
        }
      }
    }
    if (!hasVolume && needsVolume) {
      List<Object> volumes =
          spec.get("volumes") instanceof List<?> existing
              ? new ArrayList<>(existing)
              : new ArrayList<>();
      Map<String, Object> volume = new LinkedHashMap<>();
      volume.put("name", tokenVolume);
      volume.put("projected", tokenVolumeSource());
      volumes.add(volume);
      spec.put("volumes", volumes);
    }
  }

  /** Kubernetes' {@code TokenVolumeSource}, as a Pod reads it back. */
  static Map<String, Object> tokenVolumeSource() {
    Map<String, Object> token = new LinkedHashMap<>();
    token.put("expirationSeconds", 3607);
    token.put("path", "token");
    Map<String, Object> configMap = new LinkedHashMap<>();
    configMap.put("name", "kube-root-ca.crt");
    configMap.put("items", List.of(new LinkedHashMap<>(Map.of("key", "ca.crt", "path", "ca.crt"))));
    Map<String, Object> fieldRef = new LinkedHashMap<>();
    fieldRef.put("apiVersion", "v1");
    fieldRef.put("fieldPath", "metadata.namespace");
    Map<String, Object> file = new LinkedHashMap<>();
    file.put("fieldRef", fieldRef);
    file.put("path", "namespace");
    List<Object> sources = new ArrayList<>();
    sources.add(new LinkedHashMap<>(Map.of("serviceAccountToken", token)));
    sources.add(new LinkedHashMap<>(Map.of("configMap", configMap)));
    sources.add(new LinkedHashMap<>(Map.of("downwardAPI", Map.of("items", List.of(file)))));
    Map<String, Object> projected = new LinkedHashMap<>();
    projected.put("defaultMode", 420);
    projected.put("sources", sources);
    return projected;
  }

  private static boolean enforceMountable(Map<String, Object> account) {
    Map<String, Object> annotations = JsonTrees.map(account, "metadata", "annotations");
    return annotations != null
        && annotations.get(ENFORCE_MOUNTABLE) instanceof String v
        && GoBool.parse(v);
  }

  private static Set<String> mountable(Map<String, Object> account) {
    Set<String> out = new HashSet<>();
    for (Map<String, Object> ref : JsonTrees.maps(account, "secrets")) {
      out.add(JsonTrees.string(ref, "", "name"));
    }
    return out;
  }

  private static void limitSecretReferences(Map<String, Object> account, Map<String, Object> spec) {
    Set<String> mountable = mountable(account);
    String accountName = JsonTrees.string(account, "", "metadata", "name");
    for (Map<String, Object> volume : JsonTrees.maps(spec, "volumes")) {
      Map<String, Object> secret = JsonTrees.map(volume, "secret");
      if (secret == null) {
        continue;
      }
      String name = JsonTrees.string(secret, "", "secretName");
      if (!mountable.contains(name)) {
        throw new AdmissionException(
            "volume with secret.secretName=\""
                + name
                + "\" is not allowed because service account "
                + accountName
                + " does not reference that secret");
      }
    }
    limitEnv(JsonTrees.maps(spec, "initContainers"), "init container", mountable, accountName);
    limitEnv(JsonTrees.maps(spec, "containers"), "container", mountable, accountName);
    Set<String> pullSecrets = new HashSet<>();
    for (Map<String, Object> ref : JsonTrees.maps(account, "imagePullSecrets")) {
      pullSecrets.add(JsonTrees.string(ref, "", "name"));
    }
    List<Map<String, Object>> refs = JsonTrees.maps(spec, "imagePullSecrets");
    for (int i = 0; i < refs.size(); i++) {
      String name = JsonTrees.string(refs.get(i), "", "name");
      if (!pullSecrets.contains(name)) {
        throw new AdmissionException(
            "imagePullSecrets["
                + i
                + "].name=\""
                + name
                + "\" is not allowed because service account "
                + accountName
                + " does not reference that imagePullSecret");
      }
    }
  }

  private static void limitEnv(
      List<Map<String, Object>> containers, String what, Set<String> mountable, String account) {
    for (Map<String, Object> c : containers) {
      for (Map<String, Object> env : JsonTrees.maps(c, "env")) {
        Map<String, Object> ref = JsonTrees.map(env, "valueFrom", "secretKeyRef");
        if (ref != null && !mountable.contains(JsonTrees.string(ref, "", "name"))) {
          throw new AdmissionException(
              what
                  + " "
                  + JsonTrees.string(c, "", "name")
                  + " with envVar "
                  + JsonTrees.string(env, "", "name")
                  + " referencing secret.secretName=\""
                  + JsonTrees.string(ref, "", "name")
                  + "\" is not allowed because service account "
                  + account
                  + " does not reference that secret");
        }
      }
      for (Map<String, Object> envFrom : JsonTrees.maps(c, "envFrom")) {
        Map<String, Object> ref = JsonTrees.map(envFrom, "secretRef");
        if (ref != null && !mountable.contains(JsonTrees.string(ref, "", "name"))) {
          throw new AdmissionException(
              what
                  + " "
                  + JsonTrees.string(c, "", "name")
                  + " with envFrom referencing secret.secretName=\""
                  + JsonTrees.string(ref, "", "name")
                  + "\" is not allowed because service account "
                  + account
                  + " does not reference that secret");
        }
      }
    }
  }

  private void limitEphemeralContainers(AdmissionAttributes a, Map<String, Object> spec) {
    Set<String> old = new HashSet<>();
    for (Map<String, Object> c :
        JsonTrees.maps(((Unstructured) a.oldObject()).content(), "spec", "ephemeralContainers")) {
      old.add(JsonTrees.string(c, "", "name"));
    }
    List<Map<String, Object>> added = new ArrayList<>();
    for (Map<String, Object> c : JsonTrees.maps(spec, "ephemeralContainers")) {
      if (!old.contains(JsonTrees.string(c, "", "name"))) {
        added.add(c);
      }
    }
    if (added.isEmpty()) {
      return;
    }
    Map<String, Object> account = account(a, JsonTrees.string(spec, "", "serviceAccountName"));
    if (enforceMountable(account)) {
      limitEnv(
          added,
          "ephemeral container",
          mountable(account),
          JsonTrees.string(account, "", "metadata", "name"));
    }
  }

  /** The names of the secrets a pod spec references (volumes, env, pull secrets). */
  private static Set<String> secretNames(Map<String, Object> spec) {
    Set<String> out = new HashSet<>();
    for (Map<String, Object> ref : JsonTrees.maps(spec, "imagePullSecrets")) {
      out.add(JsonTrees.string(ref, "", "name"));
    }
    for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
      for (Map<String, Object> c : JsonTrees.maps(spec, list)) {
        for (Map<String, Object> env : JsonTrees.maps(c, "env")) {
          Map<String, Object> ref = JsonTrees.map(env, "valueFrom", "secretKeyRef");
          if (ref != null) {
            out.add(JsonTrees.string(ref, "", "name"));
          }
        }
        for (Map<String, Object> envFrom : JsonTrees.maps(c, "envFrom")) {
          Map<String, Object> ref = JsonTrees.map(envFrom, "secretRef");
          if (ref != null) {
            out.add(JsonTrees.string(ref, "", "name"));
          }
        }
      }
    }
    for (Map<String, Object> volume : JsonTrees.maps(spec, "volumes")) {
      if (JsonTrees.map(volume, "secret") != null) {
        out.add(JsonTrees.string(volume, "", "secret", "secretName"));
      }
      for (Map<String, Object> source : JsonTrees.maps(volume, "projected", "sources")) {
        if (JsonTrees.map(source, "secret") != null) {
          out.add(JsonTrees.string(source, "", "secret", "name"));
        }
      }
      for (String kind :
          List.of("cephfs", "cinder", "flexVolume", "iscsi", "rbd", "scaleIO", "storageos")) {
        Map<String, Object> ref = JsonTrees.map(volume, kind, "secretRef");
        if (ref != null) {
          out.add(JsonTrees.string(ref, "", "name"));
        }
      }
      if (JsonTrees.map(volume, "azureFile") != null) {
        out.add(JsonTrees.string(volume, "", "azureFile", "secretName"));
      }
      Map<String, Object> csi = JsonTrees.map(volume, "csi", "nodePublishSecretRef");
      if (csi != null) {
        out.add(JsonTrees.string(csi, "", "name"));
      }
    }
    return out;
  }

  /** Go's {@code strconv.ParseBool}, false for what it refuses. */
  static final class GoBool {
    private GoBool() {}

    static boolean parse(String v) {
      return switch (v) {
        case "1", "t", "T", "TRUE", "true", "True" -> true;
        default -> false;
      };
    }
  }
}
