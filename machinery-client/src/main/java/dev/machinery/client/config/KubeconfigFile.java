package dev.machinery.client.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One kubeconfig file (clientcmd's {@code v1.Config}) read into its named clusters, users and
 * contexts, each remembering the file it came from, with relative paths resolved against that
 * file's directory as clientcmd's loader resolves them. Immutable once read.
 */
final class KubeconfigFile {
  private static final YAMLMapper YAML = new YAMLMapper();

  /** A cluster entry. */
  record Cluster(
      String name,
      String origin,
      String server,
      String tlsServerName,
      boolean insecureSkipTlsVerify,
      String certificateAuthority,
      byte[] certificateAuthorityData,
      String proxyUrl,
      boolean disableCompression,
      JsonNode execExtension) {
    boolean isEmpty() {
      return server.isEmpty()
          && tlsServerName.isEmpty()
          && !insecureSkipTlsVerify
          && certificateAuthority.isEmpty()
          && certificateAuthorityData.length == 0
          && proxyUrl.isEmpty()
          && !disableCompression
          && execExtension == null;
    }

    static Cluster empty(String name) {
      return new Cluster(name, "", "", "", false, "", new byte[0], "", false, null);
    }
  }

  /** A user (client-go's AuthInfo) entry. */
  record User(
      String name,
      String origin,
      String clientCertificate,
      byte[] clientCertificateData,
      String clientKey,
      byte[] clientKeyData,
      String token,
      String tokenFile,
      String as,
      String asUid,
      List<String> asGroups,
      Map<String, List<String>> asUserExtra,
      String username,
      String password,
      String authProvider,
      ExecCredentials.Config exec,
      List<String> execEnvWithoutName) {
    static User empty(String name) {
      return new User(
          name,
          "",
          "",
          new byte[0],
          "",
          new byte[0],
          "",
          "",
          "",
          "",
          List.of(),
          Map.of(),
          "",
          "",
          null,
          null,
          List.of());
    }
  }

  /** A context entry. */
  record Context(String name, String origin, String cluster, String user, String namespace) {}

  final String path;
  final Map<String, Cluster> clusters = new LinkedHashMap<>();
  final Map<String, User> users = new LinkedHashMap<>();
  final Map<String, Context> contexts = new LinkedHashMap<>();
  final String currentContext;

  private final Path directory;

  /**
   * Reads a file's bytes.
   *
   * @param path the file, for messages and as the base of relative paths
   * @param bytes its contents; empty for an empty configuration
   * @throws KubeconfigException naming the file and field of what cannot be read
   */
  KubeconfigFile(Path path, byte[] bytes) {
    this.path = path.toString();
    this.directory = path.toAbsolutePath().getParent();
    JsonNode root;
    try {
      root = bytes.length == 0 ? null : YAML.readTree(bytes);
    } catch (JsonProcessingException e) {
      throw new KubeconfigException(
          this.path,
          "",
          "error loading config file \"" + this.path + "\": " + e.getOriginalMessage(),
          e);
    } catch (java.io.IOException e) {
      throw new KubeconfigException(
          this.path, "", "error loading config file \"" + this.path + "\": " + e.getMessage(), e);
    }
    if (root == null || root.isNull() || root.isMissingNode()) {
      this.currentContext = "";
      return;
    }
    if (!root.isObject()) {
      throw error("", "the file does not hold a kubeconfig object");
    }
    this.currentContext = text(root, "current-context", "current-context");
    for (JsonNode entry : list(root, "clusters")) {
      String name = text(entry, "name", "clusters[].name");
      JsonNode c = object(entry, "cluster", "clusters[" + name + "].cluster");
      String f = "clusters[" + name + "].";
      JsonNode execExtension = null;
      for (JsonNode extension : list(c, "extensions", f + "extensions")) {
        if (ExecCredentials.EXEC_EXTENSION.equals(extension.path("name").asText(""))) {
          execExtension = extension.get("extension");
        }
      }
      put(
          clusters,
          "clusters",
          name,
          new Cluster(
              name,
              this.path,
              text(c, "server", f + "server"),
              text(c, "tls-server-name", f + "tls-server-name"),
              bool(c, "insecure-skip-tls-verify", f + "insecure-skip-tls-verify"),
              resolve(text(c, "certificate-authority", f + "certificate-authority")),
              data(c, "certificate-authority-data", f + "certificate-authority-data"),
              text(c, "proxy-url", f + "proxy-url"),
              bool(c, "disable-compression", f + "disable-compression"),
              execExtension));
    }
    for (JsonNode entry : list(root, "users")) {
      String name = text(entry, "name", "users[].name");
      put(users, "users", name, user(name, object(entry, "user", "users[" + name + "].user")));
    }
    for (JsonNode entry : list(root, "contexts")) {
      String name = text(entry, "name", "contexts[].name");
      JsonNode c = object(entry, "context", "contexts[" + name + "].context");
      String f = "contexts[" + name + "].";
      put(
          contexts,
          "contexts",
          name,
          new Context(
              name,
              this.path,
              text(c, "cluster", f + "cluster"),
              text(c, "user", f + "user"),
              text(c, "namespace", f + "namespace")));
    }
  }

  private User user(String name, JsonNode u) {
    String f = "users[" + name + "].";
    List<String> groups = new ArrayList<>();
    for (JsonNode group : array(u, "as-groups", f + "as-groups")) {
      groups.add(scalar(group, f + "as-groups"));
    }
    Map<String, List<String>> extra = new LinkedHashMap<>();
    JsonNode extraNode = u.get("as-user-extra");
    if (extraNode != null && !extraNode.isNull()) {
      if (!extraNode.isObject()) {
        throw error(f + "as-user-extra", "expected a map of lists of strings");
      }
      for (Map.Entry<String, JsonNode> e : extraNode.properties()) {
        List<String> values = new ArrayList<>();
        for (JsonNode v : array(extraNode, e.getKey(), f + "as-user-extra." + e.getKey())) {
          values.add(scalar(v, f + "as-user-extra." + e.getKey()));
        }
        extra.put(e.getKey(), values);
      }
    }
    String authProvider = null;
    JsonNode provider = u.get("auth-provider");
    if (provider != null && !provider.isNull()) {
      authProvider = provider.path("name").asText("");
    }
    ExecCredentials.Config exec = null;
    List<String> envWithoutName = new ArrayList<>();
    JsonNode e = u.get("exec");
    if (e != null && !e.isNull()) {
      if (!e.isObject()) {
        throw error(f + "exec", "expected an object");
      }
      String x = f + "exec.";
      List<String> args = new ArrayList<>();
      for (JsonNode arg : array(e, "args", x + "args")) {
        args.add(scalar(arg, x + "args"));
      }
      List<Map.Entry<String, String>> env = new ArrayList<>();
      for (JsonNode variable : array(e, "env", x + "env")) {
        String variableName = text(variable, "name", x + "env[].name");
        if (variableName.isEmpty()) {
          envWithoutName.add(x + "env");
        }
        env.add(Map.entry(variableName, text(variable, "value", x + "env[].value")));
      }
      String command = text(e, "command", x + "command");
      if (command.indexOf('/') >= 0 || command.indexOf(java.io.File.separatorChar) >= 0) {
        command = resolve(command);
      }
      String apiVersion = text(e, "apiVersion", x + "apiVersion");
      String interactiveMode = text(e, "interactiveMode", x + "interactiveMode");
      if (interactiveMode.isEmpty() && ExecCredentials.V1BETA1.equals(apiVersion)) {
        interactiveMode = "IfAvailable";
      }
      exec =
          new ExecCredentials.Config(
              command,
              args,
              env,
              apiVersion,
              text(e, "installHint", x + "installHint"),
              bool(e, "provideClusterInfo", x + "provideClusterInfo"),
              interactiveMode);
    }
    return new User(
        name,
        this.path,
        resolve(text(u, "client-certificate", f + "client-certificate")),
        data(u, "client-certificate-data", f + "client-certificate-data"),
        resolve(text(u, "client-key", f + "client-key")),
        data(u, "client-key-data", f + "client-key-data"),
        text(u, "token", f + "token"),
        resolve(text(u, "tokenFile", f + "tokenFile")),
        text(u, "as", f + "as"),
        text(u, "as-uid", f + "as-uid"),
        groups,
        extra,
        text(u, "username", f + "username"),
        text(u, "password", f + "password"),
        authProvider,
        exec,
        envWithoutName);
  }

  private <T> void put(Map<String, T> map, String list, String name, T value) {
    if (map.containsKey(name)) {
      throw error(list, "duplicate name \"" + name + "\" in list " + list);
    }
    map.put(name, value);
  }

  private String resolve(String file) {
    if (file.isEmpty()) {
      return file;
    }
    Path p = Path.of(file);
    return p.isAbsolute() || directory == null ? file : directory.resolve(p).normalize().toString();
  }

  private KubeconfigException error(String field, String message) {
    return new KubeconfigException(
        path,
        field,
        "error loading config file \""
            + path
            + "\": "
            + (field.isEmpty() ? "" : field + ": ")
            + message);
  }

  private Iterable<JsonNode> list(JsonNode node, String field) {
    return array(node, field, field);
  }

  private Iterable<JsonNode> list(JsonNode node, String field, String name) {
    return array(node, field, name);
  }

  private Iterable<JsonNode> array(JsonNode node, String field, String name) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return List.of();
    }
    if (!value.isArray()) {
      throw error(name, "expected a list");
    }
    return value;
  }

  private JsonNode object(JsonNode node, String field, String name) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return YAML.createObjectNode();
    }
    if (!value.isObject()) {
      throw error(name, "expected an object");
    }
    return value;
  }

  private String text(JsonNode node, String field, String name) {
    if (!node.isObject()) {
      throw error(name, "expected an object");
    }
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return "";
    }
    return scalar(value, name);
  }

  private String scalar(JsonNode value, String name) {
    if (!value.isTextual()) {
      throw error(
          name,
          "expected a string, found "
              + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
    }
    return value.asText();
  }

  private boolean bool(JsonNode node, String field, String name) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return false;
    }
    if (!value.isBoolean()) {
      throw error(name, "expected a boolean, found \"" + value.asText() + "\"");
    }
    return value.booleanValue();
  }

  private byte[] data(JsonNode node, String field, String name) {
    String text = text(node, field, name);
    if (text.isEmpty()) {
      return new byte[0];
    }
    try {
      return Base64.getDecoder().decode(text.replace("\r", "").replace("\n", ""));
    } catch (IllegalArgumentException e) {
      throw error(name, "illegal base64 data: " + e.getMessage());
    }
  }
}
