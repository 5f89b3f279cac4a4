package dev.machinery.apiserver.storage.encryption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.MachineryException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reading an {@code EncryptionConfiguration} as kube-apiserver reads it, with the cases of
 * Kubernetes' {@code encryptionconfig/config_test.go} (its test data, key rotation with and without
 * overlapping providers, wildcard masking and structure) and the messages of {@code
 * ValidateEncryptionConfiguration}.
 */
class EncryptionConfigurationTest {
  private static final byte[] CONTEXT = "authenticated_data".getBytes(StandardCharsets.UTF_8);
  private static final String KEY_A = "Owq7A4JrJpSjrvH8kXkvl4JmOLzvZ6j9BcGRkR8OPQ4=";
  private static final String KEY_B = "+qcnfOFX3aRXM9PuY7lQXDWYIQ3GWUdBc3nYBo91SCA=";

  private static EncryptionConfiguration parse(String text) {
    return EncryptionConfiguration.parse(text.getBytes(StandardCharsets.UTF_8), "test.yaml");
  }

  private static String header() {
    return "kind: EncryptionConfiguration\napiVersion: apiserver.config.k8s.io/v1\n";
  }

  /** kube's testdata/valid-configs/aes: two keys of one provider, or two providers. */
  static Stream<Arguments> rotations() {
    return Stream.of(
        Arguments.of(
            "[{aescbc: {keys: [{name: A, secret: '"
                + KEY_A
                + "'}, {name: B, secret: '"
                + KEY_B
                + "'}]}}]",
            "k8s:enc:aescbc:v1:A:",
            "[{aescbc: {keys: [{name: B, secret: '"
                + KEY_B
                + "'}, {name: A, secret: '"
                + KEY_A
                + "'}]}}]",
            "k8s:enc:aescbc:v1:B:"),
        Arguments.of(
            "[{aescbc: {keys: [{name: '1', secret: '"
                + KEY_A
                + "'}]}}, {aescbc: {keys: [{name:"
                + " '2', secret: '"
                + KEY_B
                + "'}]}}]",
            "k8s:enc:aescbc:v1:1:",
            "[{aescbc: {keys: [{name: '2', secret: '"
                + KEY_B
                + "'}]}}, {aescbc: {keys: [{name:"
                + " '1', secret: '"
                + KEY_A
                + "'}]}}]",
            "k8s:enc:aescbc:v1:2:"));
  }

  /** kube's testCBCKeyRotationWithProviders. */
  @ParameterizedTest
  @MethodSource("rotations")
  void keyRotation(String first, String firstPrefix, String second, String secondPrefix) {
    ValueTransformer p =
        parse(header() + "resources:\n- resources: [ignored]\n  providers: " + first)
            .transformer("", "ignored");
    byte[] out = p.toStorage("firstvalue".getBytes(StandardCharsets.UTF_8), CONTEXT);
    assertTrue(new String(out, StandardCharsets.ISO_8859_1).startsWith(firstPrefix));
    ValueTransformer.Read from = p.fromStorage(out, CONTEXT);
    assertFalse(from.stale());
    assertEquals("firstvalue", new String(from.value(), StandardCharsets.UTF_8));

    ValueTransformer q =
        parse(header() + "resources:\n- resources: [ignored]\n  providers: " + second)
            .transformer("", "ignored");
    from = q.fromStorage(out, CONTEXT);
    assertTrue(from.stale());
    assertEquals("firstvalue", new String(from.value(), StandardCharsets.UTF_8));
    byte[] again = q.toStorage("firstvalue".getBytes(StandardCharsets.UTF_8), CONTEXT);
    assertTrue(new String(again, StandardCharsets.ISO_8859_1).startsWith(secondPrefix));
    assertFalse(q.fromStorage(again, CONTEXT).stale());
  }

  /** kube's testdata/valid-configs/secret-box-first.yaml, its kms providers left out. */
  @Test
  void secretboxFirstWritesSecretboxAndReadsTheOthers() {
    String providers =
        "  providers:\n"
            + "  - secretbox:\n"
            + "      keys:\n"
            + "      - name: key1\n"
            + "        secret: YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY=\n"
            + "  - aescbc:\n"
            + "      keys:\n"
            + "      - name: key1\n"
            + "        secret: c2VjcmV0IGlzIHNlY3VyZQ==\n"
            + "      - name: key2\n"
            + "        secret: dGhpcyBpcyBwYXNzd29yZA==\n"
            + "  - identity: {}\n"
            + "  - aesgcm:\n"
            + "      keys:\n"
            + "      - name: key1\n"
            + "        secret: c2VjcmV0IGlzIHNlY3VyZQ==\n"
            + "      - name: key2\n"
            + "        secret: dGhpcyBpcyBwYXNzd29yZA==\n";
    EncryptionConfiguration config =
        parse(header() + "resources:\n- resources: [secrets]\n" + providers);
    ValueTransformer secrets = config.transformer("", "secrets");
    byte[] stored = secrets.toStorage("v".getBytes(StandardCharsets.UTF_8), CONTEXT);
    assertTrue(
        new String(stored, StandardCharsets.ISO_8859_1).startsWith("k8s:enc:secretbox:v1:key1:"));
    assertFalse(secrets.fromStorage(stored, CONTEXT).stale());
    // Each later provider reads what it wrote, as stale; identity reads plain values.
    for (String kind : new String[] {"aescbc", "aesgcm"}) {
      ValueTransformer only =
          parse(
                  header()
                      + "resources:\n- resources: [secrets]\n  providers:\n  - "
                      + kind
                      + ":\n      keys:\n      - name: key2\n        secret:"
                      + " dGhpcyBpcyBwYXNzd29yZA==\n")
              .transformer("", "secrets");
      byte[] written = only.toStorage("v".getBytes(StandardCharsets.UTF_8), CONTEXT);
      ValueTransformer.Read read = secrets.fromStorage(written, CONTEXT);
      assertTrue(read.stale(), kind);
      assertArrayEquals("v".getBytes(StandardCharsets.UTF_8), read.value());
    }
    ValueTransformer.Read plain =
        secrets.fromStorage("{}".getBytes(StandardCharsets.UTF_8), CONTEXT);
    assertTrue(plain.stale());
    assertSame(Identity.INSTANCE, config.transformer("", "configmaps"));
    assertFalse(config.covers("", "configmaps"));
  }

  /** kube's TestWildcardStructure, with one aescbc provider a key name each. */
  @Test
  void wildcardStructure() {
    EncryptionConfiguration config =
        parse(
            header()
                + "resources:\n"
                + "- resources: [configmaps, '*.apps']\n"
                + provider("kms")
                + "- resources: [secrets]\n"
                + provider("another-kms")
                + "- resources: ['*.']\n"
                + provider("fancy")
                + "- resources: ['*.*']\n"
                + provider("yet-another-provider"));
    Map<String, String> expected =
        Map.of(
            "configmaps", "kms",
            "secrets", "another-kms",
            "events", "fancy",
            "deployments.apps", "kms",
            "pods", "fancy",
            "pandas", "fancy",
            "pandas.bears", "yet-another-provider",
            "jobs.apps", "kms");
    expected.forEach(
        (resource, key) -> {
          int dot = resource.indexOf('.');
          String group = dot < 0 ? "" : resource.substring(dot + 1);
          String plural = dot < 0 ? resource : resource.substring(0, dot);
          byte[] out = config.transformer(group, plural).toStorage(new byte[] {1}, CONTEXT);
          assertTrue(
              new String(out, StandardCharsets.ISO_8859_1)
                  .startsWith("k8s:enc:aescbc:v1:" + key + ":"),
              resource);
        });
  }

  private static String provider(String keyName) {
    return "  providers:\n  - aescbc:\n      keys:\n      - name: "
        + keyName
        + "\n        secret: '"
        + KEY_A
        + "'\n";
  }

  /** kube's TestWildcardMasking. */
  static Stream<Arguments> masking() {
    return Stream.of(
        Arguments.of(
            "['*.']", "[secrets]", "resource \"secrets\" is masked by earlier rule \"*.\""),
        Arguments.of("['*.']", "['*.']", "resource \"*.\" is masked by earlier rule \"*.\""),
        Arguments.of(
            "['*.foo']", "['*.foo']", "resource \"*.foo\" is masked by earlier rule \"*.foo\""),
        Arguments.of("['*.*']", "['*.*']", "resource \"*.*\" is masked by earlier rule \"*.*\""),
        Arguments.of(
            "['*.*']", "[secrets]", "resource \"secrets\" is masked by earlier rule \"*.*\""),
        Arguments.of(
            "['*.apps']",
            "[deployments.apps]",
            "resource \"deployments.apps\" is masked by earlier rule \"*.apps\""));
  }

  @ParameterizedTest
  @MethodSource("masking")
  void wildcardMasking(String first, String second, String message) {
    MachineryException e =
        assertThrows(
            MachineryException.class,
            () ->
                parse(
                    header()
                        + "resources:\n- resources: "
                        + first
                        + "\n"
                        + provider("k1")
                        + "- resources: "
                        + second
                        + "\n"
                        + provider("k2")));
    assertEquals(message, e.getMessage());
  }

  /** The messages of kube's ValidateEncryptionConfiguration, and the kms refusal. */
  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of(
            "resources: []\n", "resources: Required value: at least one resources is required"),
        Arguments.of(
            "resources:\n- resources: []\n  providers: [{identity: {}}]\n",
            "resources[0].resources: Required value: at least one resources[0].resources is"
                + " required"),
        Arguments.of(
            "resources:\n- resources: [secrets]\n  providers: []\n",
            "resources[0].providers: Required value: at least one resources[0].providers is"
                + " required"),
        Arguments.of(
            "resources:\n- resources: [secrets]\n  providers: [{aesgcm: {keys: []}}]\n",
            "resources[0].providers[0].aesgcm.keys: Required value: at least one keys is required"),
        Arguments.of(
            "resources:\n- resources: [secrets]\n  providers: [{aescbc: {keys: [{name: k, secret:"
                + " c2VjcmV0}]}}]\n",
            "resources[0].providers[0].aescbc.keys[0].secret: Invalid value: \"REDACTED\": secret"
                + " is not of the expected length, got 6, expected one of [16 24 32]"),
        Arguments.of(
            "resources:\n- resources: [secrets]\n  providers: [{secretbox: {keys: [{name: k,"
                + " secret: c2VjcmV0IGlzIHNlY3VyZQ==}]}}]\n",
            "resources[0].providers[0].secretbox.keys[0].secret: Invalid value: \"REDACTED\":"
                + " secret is not of the expected length, got 16, expected one of [32]"),
        Arguments.of(
            "resources:\n- resources: [secrets]\n  providers: [{aescbc: {keys: [{name: k, secret:"
                + " '***'}]}}]\n",
            "resources[0].providers[0].aescbc.keys[0].secret: Invalid value: \"REDACTED\":"
                + " secrets must be base64 encoded"),
        Arguments.of(
            "resources:\n- resources: [secrets]\n  providers: [{aescbc: {keys: [{secret:"
                + " c2VjcmV0IGlzIHNlY3VyZQ==}]}}]\n",
            "resources[0].providers[0].aescbc.keys[0].name: Required value: name is a mandatory"
                + " field for a key"),
        Arguments.of(
            "resources:\n- resources: [secrets]\n  providers: [{aescbc: {keys: [{name: k}]}}]\n",
            "resources[0].providers[0].aescbc.keys[0].secret: Required value: secret is a"
                + " mandatory field for a key"),
        Arguments.of(
            "resources:\n- resources: ['*']\n  providers: [{identity: {}}]\n",
            "resources[0].resources[0]: Invalid value: \"*\": use '*.' to encrypt all the"
                + " resources from core API group or *.* to encrypt all resources"),
        Arguments.of(
            "resources:\n- resources: [Secrets]\n  providers: [{identity: {}}]\n",
            "resources[0].resources[0]: Invalid value: \"Secrets\": resource name should not"
                + " contain capital letters"),
        Arguments.of(
            "resources:\n- resources: [events.events.k8s.io]\n  providers: [{identity: {}}]\n",
            "resources[0].resources[0]: Invalid value: \"events.events.k8s.io\": '*.events.k8s.io'"
                + " objects are stored using the 'events' API group in etcd. Use 'events' instead"
                + " in the config file"),
        Arguments.of(
            "resources:\n- resources: [secrets.*]\n  providers: [{identity: {}}]\n",
            "resources[0].resources[0]: Invalid value: \"secrets.*\": encrypting the same resource"
                + " across groups is not supported"),
        Arguments.of(
            "resources:\n- resources: [serviceipallocations]\n  providers: [{identity: {}}]\n",
            "resources[0].resources[0]: Invalid value: \"serviceipallocations\": resources which"
                + " do not have REST API/s cannot be encrypted"),
        Arguments.of(
            "resources:\n- resources: [secrets]\n  providers: [{kms: {name: p, endpoint:"
                + " 'unix:///tmp/p.sock'}}]\n",
            "resources[0].providers[0].kms: Forbidden: the kms provider (a KMS plugin over gRPC)"
                + " is not supported by this server; use aescbc, aesgcm, secretbox or identity"));
  }

  @ParameterizedTest
  @MethodSource("invalid")
  void invalidConfigurationsNameTheField(String body, String message) {
    MachineryException e = assertThrows(MachineryException.class, () -> parse(header() + body));
    assertEquals("error while parsing file \"test.yaml\": " + message, e.getMessage());
  }

  @Test
  void overlappingAndDuplicateResourcesAreRefused() {
    MachineryException e =
        assertThrows(
            MachineryException.class,
            () ->
                parse(
                    header()
                        + "resources:\n- resources: [secrets, secrets, '*.']\n"
                        + "  providers: [{identity: {}}]\n"));
    assertTrue(
        e.getMessage().contains("the same resource cannot be specified multiple times"),
        e.getMessage());
    assertTrue(
        e.getMessage()
            .contains(
                "using overlapping resources such as 'secrets' and '*.' in the same resource"
                    + " list is not allowed as they will be masked"),
        e.getMessage());
  }

  @Test
  void anotherKindOrVersionIsRefused() {
    MachineryException e =
        assertThrows(
            MachineryException.class,
            () ->
                parse(
                    "kind: EncryptionConfig\napiVersion: apiserver.config.k8s.io/v1\n"
                        + "resources: []\n"));
    assertTrue(e.getMessage().startsWith("got unexpected config type"), e.getMessage());
    assertThrows(MachineryException.class, () -> parse("resources: [\n"));
  }
}
