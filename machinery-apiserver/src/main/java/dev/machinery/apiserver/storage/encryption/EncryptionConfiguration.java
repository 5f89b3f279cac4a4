package dev.machinery.apiserver.storage.encryption;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.machinery.MachineryException;
import dev.machinery.apiserver.storage.Storage;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * kube-apiserver's {@code --encryption-provider-config}: an {@code apiserver.config.k8s.io/v1}
 * {@code EncryptionConfiguration} read from YAML or JSON, checked with the rules and messages of
 * kube's {@code ValidateEncryptionConfiguration}, and turned into one {@link ValueTransformer} per
 * resource. Each entry of {@code resources} names resources ({@code secrets}, {@code
 * deployments.apps}, {@code *.apps} for a group, {@code *.} for the core group, {@code *.*} for
 * all) and providers in order: the first encrypts every write, each reads what carries its prefix
 * ({@code k8s:enc:aescbc:v1:KEY:}, {@code k8s:enc:aesgcm:v1:KEY:}, {@code
 * k8s:enc:secretbox:v1:KEY:}; {@code identity} reads values without one). A resource is looked up
 * as itself, then as {@code *.GROUP}, then as {@code *.*}; one that no entry names is stored as is.
 * The {@code kms} provider (a plugin over gRPC) is refused with an error naming it.
 *
 * <p>The AES-GCM provider binds each value to its etcd key ({@code /registry/secrets/NS/NAME}), as
 * kube-apiserver does: the key prefix (etcd's {@code --etcd-prefix}, {@code /registry/} by default)
 * is part of that, set with {@link #withKeyPrefix}.
 *
 * <p>Immutable; thread-safe.
 */
public final class EncryptionConfiguration {
  /** The {@code apiVersion} of the configuration. */
  public static final String API_VERSION = "apiserver.config.k8s.io/v1";

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String AT_LEAST_ONE = "at least one %s is required";
  private static final List<Integer> AES_SIZES = List.of(16, 24, 32);
  private static final List<Integer> SECRETBOX_SIZES = List.of(32);

  private final Map<String, ValueTransformer> transformers;
  private final String keyPrefix;

  private EncryptionConfiguration(Map<String, ValueTransformer> transformers, String keyPrefix) {
    this.transformers = transformers;
    this.keyPrefix = keyPrefix;
  }

  /**
   * Reads a configuration file.
   *
   * @param file the file (YAML or JSON)
   * @return the configuration
   * @throws IOException when the file cannot be read
   * @throws MachineryException when the file is empty, not an {@code EncryptionConfiguration}, or
   *     invalid (the message names each field)
   */
  public static EncryptionConfiguration read(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length == 0) {
      throw new MachineryException(
          "encryption provider configuration file \"" + file + "\" is empty");
    }
    return parse(bytes, file.toString());
  }

  /**
   * Parses a configuration.
   *
   * @param bytes the document (YAML or JSON)
   * @param source where it came from, for messages
   * @return the configuration
   * @throws MachineryException when the document is not an {@code EncryptionConfiguration} or is
   *     invalid (the message names each field)
   */
  public static EncryptionConfiguration parse(byte[] bytes, String source) {
    JsonNode root;
    try {
      root = YAML.readTree(bytes);
    } catch (IOException e) {
      throw new MachineryException(
          "error decoding encryption provider configuration file \""
              + source
              + "\": "
              + (e instanceof JacksonException j ? j.getOriginalMessage() : e.getMessage()));
    }
    if (root == null || !root.isObject()) {
      throw new MachineryException(
          "error decoding encryption provider configuration file \""
              + source
              + "\": not a YAML or JSON object");
    }
    String apiVersion = root.path("apiVersion").asText("");
    String kind = root.path("kind").asText("");
    if (!apiVersion.equals(API_VERSION) || !kind.equals("EncryptionConfiguration")) {
      throw new MachineryException(
          "got unexpected config type: "
              + (apiVersion.isEmpty() ? "" : apiVersion + ", ")
              + "Kind="
              + kind
              + " in \""
              + source
              + "\"; expected "
              + API_VERSION
              + ", Kind=EncryptionConfiguration");
    }
    List<FieldError> errors = new ArrayList<>();
    List<Entry> entries = read(root, errors);
    if (!errors.isEmpty()) {
      throw new MachineryException(
          "error while parsing file \"" + source + "\": " + FieldError.aggregate(errors));
    }
    return new EncryptionConfiguration(build(entries), "/registry/");
  }

  /**
   * The same configuration binding AES-GCM values to keys under another etcd prefix.
   *
   * @param prefix the etcd prefix, such as {@code /registry/}; a missing trailing {@code /} is
   *     added
   * @return the configuration
   */
  public EncryptionConfiguration withKeyPrefix(String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    return new EncryptionConfiguration(transformers, prefix.endsWith("/") ? prefix : prefix + "/");
  }

  /**
   * Returns the etcd prefix AES-GCM values are bound under.
   *
   * @return the prefix, ending in {@code /}
   */
  public String keyPrefix() {
    return keyPrefix;
  }

  /**
   * The transformer of a resource: its own entry's, else its group's ({@code *.GROUP}), else {@code
   * *.*}'s, else the identity.
   *
   * @param group the API group ({@code ""} for the core group)
   * @param resource the resource (plural)
   * @return the transformer
   */
  public ValueTransformer transformer(String group, String resource) {
    ValueTransformer found = transformers.get(key(group, resource));
    if (found == null) {
      found = transformers.get(key(group, "*"));
    }
    if (found == null) {
      found = transformers.get(key("*", "*"));
    }
    return found == null ? Identity.INSTANCE : found;
  }

  /**
   * Whether a resource is named by the configuration (itself, its group or {@code *.*}).
   *
   * @param group the API group
   * @param resource the resource
   * @return true when its values pass through a transformer of the configuration
   */
  public boolean covers(String group, String resource) {
    return transformers.containsKey(key(group, resource))
        || transformers.containsKey(key(group, "*"))
        || transformers.containsKey(key("*", "*"));
  }

  /**
   * The storage one resource's store sees: the given storage, its values transformed on the way in
   * and out, when the configuration covers the resource; else the storage itself.
   *
   * @param group the API group
   * @param resource the resource
   * @param storage the server's storage
   * @return the storage of that resource
   */
  public Storage storage(String group, String resource, Storage storage) {
    if (!covers(group, resource)) {
      return storage;
    }
    String name = group.isEmpty() ? resource : resource + "." + group;
    return new TransformingStorage(storage, transformer(group, resource), keyPrefix, name);
  }

  private static String key(String group, String resource) {
    return resource + "." + group;
  }

  /** One entry of {@code resources}: its resources and its providers' transformers. */
  private record Entry(List<String> resources, List<Prefixes.Entry> providers) {}

  private static List<Entry> read(JsonNode root, List<FieldError> errors) {
    FieldPath rootPath = FieldPath.of("resources");
    JsonNode resources = root.path("resources");
    if (!resources.isArray() || resources.isEmpty()) {
      errors.add(FieldError.required(rootPath, String.format(AT_LEAST_ONE, rootPath)));
      return List.of();
    }
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < resources.size(); i++) {
      JsonNode conf = resources.get(i);
      FieldPath r = rootPath.index(i).child("resources");
      FieldPath p = rootPath.index(i).child("providers");
      List<String> names = new ArrayList<>();
      for (JsonNode name : iterable(conf.path("resources"))) {
        names.add(name.asText());
      }
      if (names.isEmpty()) {
        errors.add(FieldError.required(r, String.format(AT_LEAST_ONE, r)));
      }
      validateOverlap(names, r, errors);
      validateNames(names, r, errors);
      JsonNode providers = conf.path("providers");
      if (!providers.isArray() || providers.isEmpty()) {
        errors.add(FieldError.required(p, String.format(AT_LEAST_ONE, p)));
      }
      List<Prefixes.Entry> transformers = new ArrayList<>();
      for (int j = 0; j < providers.size(); j++) {
        Prefixes.Entry entry = provider(providers.get(j), p.index(j), errors);
        if (entry != null) {
          transformers.add(entry);
        }
      }
      entries.add(new Entry(names, transformers));
    }
    return entries;
  }

  private static Iterable<JsonNode> iterable(JsonNode node) {
    return node.isArray() ? node : List.of();
  }

  private static Prefixes.Entry provider(
      JsonNode provider, FieldPath path, List<FieldError> errors) {
    List<String> kinds = new ArrayList<>();
    for (Iterator<String> names = provider.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (List.of("kms", "aesgcm", "aescbc", "secretbox", "identity").contains(name)
          && !provider.get(name).isNull()) {
        kinds.add(name);
      }
    }
    if (kinds.isEmpty()) {
      errors.add(
          FieldError.invalid(
              path,
              provider,
              "provider does not contain any of the expected providers: KMS, AESGCM, AESCBC,"
                  + " Secretbox, Identity"));
      return null;
    }
    if (kinds.size() > 1) {
      errors.add(
          FieldError.invalid(
              path,
              provider,
              "more than one provider specified in a single element, should split into"
                  + " different list elements"));
      return null;
    }
    String kind = kinds.get(0);
    JsonNode config = provider.get(kind);
    return switch (kind) {
      case "identity" -> new Prefixes.Entry(new byte[0], Identity.INSTANCE);
      case "kms" -> {
        errors.add(
            FieldError.forbidden(
                path.child("kms"),
                "the kms provider (a KMS plugin over gRPC) is not supported by this server; use"
                    + " aescbc, aesgcm, secretbox or identity"));
        yield null;
      }
      default -> keyed(kind, config, path.child(kind).child("keys"), errors);
    };
  }

  private static Prefixes.Entry keyed(
      String kind, JsonNode config, FieldPath path, List<FieldError> errors) {
    List<Integer> sizes = kind.equals("secretbox") ? SECRETBOX_SIZES : AES_SIZES;
    JsonNode keys = config.path("keys");
    if (!keys.isArray() || keys.isEmpty()) {
      errors.add(FieldError.required(path, String.format(AT_LEAST_ONE, "keys")));
      return null;
    }
    List<Prefixes.Entry> perKey = new ArrayList<>();
    boolean valid = true;
    for (int i = 0; i < keys.size(); i++) {
      FieldPath at = path.index(i);
      String name = keys.get(i).path("name").asText("");
      String secret = keys.get(i).path("secret").asText("");
      if (name.isEmpty()) {
        errors.add(FieldError.required(at.child("name"), "name is a mandatory field for a key"));
        valid = false;
      }
      if (secret.isEmpty()) {
        errors.add(
            FieldError.required(at.child("secret"), "secret is a mandatory field for a key"));
        valid = false;
        continue;
      }
      byte[] key;
      try {
        key = Base64.getDecoder().decode(secret);
      } catch (IllegalArgumentException e) {
        errors.add(
            FieldError.invalid(at.child("secret"), "REDACTED", "secrets must be base64 encoded"));
        valid = false;
        continue;
      }
      if (!sizes.contains(key.length)) {
        errors.add(
            FieldError.invalid(
                at.child("secret"),
                "REDACTED",
                "secret is not of the expected length, got "
                    + key.length
                    + ", expected one of "
                    + sizes.toString().replace(",", "")));
        valid = false;
        continue;
      }
      if (valid) {
        ValueTransformer cipher =
            switch (kind) {
              case "aescbc" -> new AesCbc(key);
              case "aesgcm" -> new AesGcm(key);
              default -> new Secretbox(key);
            };
        perKey.add(new Prefixes.Entry(name + ":", cipher));
      }
    }
    if (!valid) {
      return null;
    }
    String noMatch =
        kind.equals("secretbox")
            ? "no matching key was found for the provided Secretbox transformer"
            : "no matching key was found for the provided AES transformer";
    return new Prefixes.Entry("k8s:enc:" + kind + ":v1:", new Prefixes(perKey, noMatch));
  }

  private static void validateOverlap(List<String> names, FieldPath path, List<FieldError> errors) {
    if (names.size() < 2) {
      return;
    }
    List<String[]> parsed =
        names.stream().map(EncryptionConfiguration::parseGroupResource).toList();
    boolean overlap = false;
    boolean duplicate = false;
    for (int i = 0; i < parsed.size(); i++) {
      for (int j = 0; j < parsed.size(); j++) {
        if (i == j) {
          continue;
        }
        String[] a = parsed.get(i);
        String[] b = parsed.get(j);
        if (a[0].equals(b[0]) && a[1].equals(b[1]) && !duplicate) {
          duplicate = true;
          continue;
        }
        if (overlap) {
          continue;
        }
        if (a[0].equals("*") && a[1].equals("*")) {
          overlap = true;
          continue;
        }
        if (!a[0].equals(b[0])) {
          continue;
        }
        if (a[1].equals("*") || b[1].equals("*")) {
          overlap = true;
        }
      }
    }
    if (duplicate) {
      errors.add(
          FieldError.invalid(path, names, "the same resource cannot be specified multiple times"));
    }
    if (overlap) {
      errors.add(
          FieldError.invalid(
              path,
              names,
              "using overlapping resources such as 'secrets' and '*.' in the same resource list"
                  + " is not allowed as they will be masked"));
    }
  }

  private static void validateNames(List<String> names, FieldPath path, List<FieldError> errors) {
    for (int j = 0; j < names.size(); j++) {
      String name = names.get(j);
      FieldPath at = path.index(j);
      String[] gr = parseGroupResource(name);
      String problem = null;
      if (!name.toLowerCase(Locale.ROOT).equals(name)) {
        problem = "resource name should not contain capital letters";
      } else if (name.equals("*")) {
        problem =
            "use '*.' to encrypt all the resources from core API group or *.* to encrypt all"
                + " resources";
      } else if (Set.of("apiserveripinfo", "serviceipallocations", "servicenodeportallocations")
          .contains(name)) {
        problem = "resources which do not have REST API/s cannot be encrypted";
      } else if (gr[0].equals("events.k8s.io")) {
        problem =
            "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use"
                + " 'events' instead in the config file";
      } else if (gr[0].equals("extensions")) {
        problem = "'extensions' group has been removed and cannot be used for encryption";
      } else if (gr[0].equals("*") && !gr[1].equals("*")) {
        problem = "encrypting the same resource across groups is not supported";
      }
      if (problem != null) {
        errors.add(FieldError.invalid(at, name, problem));
      }
    }
  }

  /** {@code resource.group} as Go's {@code schema.ParseGroupResource}: {group, resource}. */
  private static String[] parseGroupResource(String text) {
    int dot = text.indexOf('.');
    return dot < 0
        ? new String[] {"", text}
        : new String[] {text.substring(dot + 1), text.substring(0, dot)};
  }

  private static Map<String, ValueTransformer> build(List<Entry> entries) {
    Map<String, List<Prefixes.Entry>> byResource = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    for (Entry entry : entries) {
      for (String name : entry.resources()) {
        String[] gr = parseGroupResource(name);
        String anyInGroup = key(gr[0], "*");
        if (seen.contains(anyInGroup)) {
          throw new MachineryException(
              "resource \""
                  + yaml(gr)
                  + "\" is masked by earlier rule \""
                  + yaml(gr[0], "*")
                  + "\"");
        }
        if (seen.contains(key("*", "*"))) {
          throw new MachineryException(
              "resource \"" + yaml(gr) + "\" is masked by earlier rule \"*.*\"");
        }
        seen.add(key(gr[0], gr[1]));
        byResource
            .computeIfAbsent(key(gr[0], gr[1]), k -> new ArrayList<>())
            .addAll(entry.providers());
      }
    }
    Map<String, ValueTransformer> out = new LinkedHashMap<>();
    byResource.forEach(
        (resource, list) -> out.put(resource, new Prefixes(list, "no matching prefix found")));
    return Map.copyOf(out);
  }

  private static String yaml(String[] gr) {
    return yaml(gr[0], gr[1]);
  }

  /**
   * A group resource as the configuration writes it: {@code secrets}, {@code *.}, {@code *.apps}.
   */
  private static String yaml(String group, String resource) {
    if (group.isEmpty()) {
      return resource.equals("*") ? "*." : resource;
    }
    return resource + "." + group;
  }

  @Override
  public String toString() {
    return "EncryptionConfiguration" + transformers.keySet();
  }
}
