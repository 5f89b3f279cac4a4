package dev.machinery.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * clientcmd's loading rules, merge, overrides and validation, carried over from client-go's
 * loader_test.go, client_config_test.go and validation.go.
 */
class KubeconfigLoaderTest {
  @TempDir Path dir;

  /** loader_test.go's testConfigAlfa. */
  static final String ALFA =
      """
      clusters:
      - name: cow-cluster
        cluster: {server: "http://cow.org:8080"}
      users:
      - name: red-user
        user: {token: red-token}
      contexts:
      - name: federal-context
        context: {cluster: cow-cluster, user: red-user, namespace: hammer-ns}
      """;

  /** loader_test.go's testConfigConflictAlfa. */
  static final String CONFLICT_ALFA =
      """
      clusters:
      - name: cow-cluster
        cluster: {server: "http://a-different-cow.org:8080", insecure-skip-tls-verify: true, disable-compression: true}
      - name: donkey-cluster
        cluster: {server: "http://donkey.org:8080", insecure-skip-tls-verify: true, disable-compression: true}
      users:
      - name: red-user
        user: {token: a-different-red-token}
      - name: yellow-user
        user: {token: yellow-token}
      current-context: federal-context
      """;

  /** client_config_test.go's createValidTestConfig. */
  static final String CLEAN =
      """
      apiVersion: v1
      kind: Config
      clusters:
      - name: clean
        cluster:
          server: %s
      users:
      - name: clean
        user:
      %s
      contexts:
      - name: clean
        context: {cluster: clean, user: clean}
      current-context: clean
      """;

  private Path file(String name, String text) throws IOException {
    return Fixtures.write(dir.resolve(name), text);
  }

  private Path clean(String server, String user) throws IOException {
    return file("clean.yaml", CLEAN.formatted(server, user.indent(4).stripTrailing()));
  }

  private static ClientConfig load(Path kubeconfig) {
    return KubeconfigLoader.builder().kubeconfig(kubeconfig).build().load();
  }

  private static KubeconfigException refused(KubeconfigLoader.Builder builder) {
    return assertThrows(KubeconfigException.class, () -> builder.build().load());
  }

  private KubeconfigLoader.Builder envLoader(Path... files) {
    StringBuilder list = new StringBuilder();
    for (Path f : files) {
      if (list.length() > 0) {
        list.append(File.pathSeparator);
      }
      list.append(f);
    }
    return KubeconfigLoader.builder()
        .environment(Map.of("KUBECONFIG", list.toString()))
        .homeDirectory(dir.resolve("home"));
  }

  // loader_test.go

  @Test
  void nonExistentExplicitFileIsAnErrorNamingIt() {
    KubeconfigException e =
        refused(KubeconfigLoader.builder().kubeconfig(dir.resolve("bogus_file")));
    assertTrue(e.getMessage().contains("bogus_file"), e.getMessage());
    assertEquals(dir.resolve("bogus_file").toString(), e.file());
  }

  @Test
  void missingFilesOfKubeconfigAreTolerated() throws IOException {
    Path alfa = file("alfa.yaml", ALFA);
    KubeconfigLoader loader =
        envLoader(dir.resolve("bogus"), alfa).context("federal-context").build();
    ClientConfig config = loader.load();
    assertEquals(URI.create("http://cow.org:8080"), config.server());
    assertEquals("hammer-ns", config.namespace());
    assertFalse(config.namespaceExplicit());
  }

  @Test
  void errorReadingAFileNamesIt() throws IOException {
    Path bad = file("bad.yaml", "clusters: [oops");
    KubeconfigException e = refused(envLoader(bad));
    assertEquals(bad.toString(), e.file());
    assertTrue(
        e.getMessage().startsWith("error loading config file \"" + bad + "\""), e.getMessage());
  }

  @Test
  void readingADirectoryIsAnError() throws IOException {
    Path directory = dir.resolve("a-directory");
    java.nio.file.Files.createDirectories(directory);
    KubeconfigException e = refused(envLoader(directory));
    assertEquals(directory.toString(), e.file());
  }

  @Test
  void currentContextOfTheFirstFileThatSetsItWins() throws IOException {
    Path first = file("first.yaml", "current-context: any-context-value\n");
    Path second = file("second.yaml", "current-context: a-different-context\n");
    assertEquals("any-context-value", envLoader(first, second).build().currentContext());
    Path none = file("none.yaml", ALFA);
    assertEquals("a-different-context", envLoader(none, second).build().currentContext());
  }

  @Test
  void loadingEmptyMapsAndAnEmptyFileGivesNoEntries() throws IOException {
    Path empty = file("empty.yaml", "");
    Path emptyMaps = file("maps.yaml", "clusters: []\nusers: null\ncontexts: []\n");
    KubeconfigLoader loader = envLoader(empty, emptyMaps).build();
    assertEquals(List.of(), loader.contextNames());
    KubeconfigException e = assertThrows(KubeconfigException.class, loader::load);
    assertEquals(
        "invalid configuration: no configuration has been provided, try setting"
            + " KUBERNETES_MASTER environment variable",
        e.getMessage());
  }

  static Stream<Arguments> duplicateNames() {
    return Stream.of(
        Arguments.of(
            "clusters",
            """
            clusters:
            - name: kubeconfig-cluster
              cluster: {server: "https://kubernetes.default.svc:443"}
            - name: kubeconfig-cluster
              cluster: {server: "https://test.example.server:443"}
            """),
        Arguments.of(
            "contexts",
            """
            contexts:
            - name: kubeconfig-context
              context: {cluster: a, user: b}
            - name: kubeconfig-context
              context: {cluster: c, user: d}
            """),
        Arguments.of(
            "users",
            """
            users:
            - name: kubeconfig-user
              user: {token: a}
            - name: kubeconfig-user
              user: {token: b}
            """));
  }

  @ParameterizedTest
  @MethodSource("duplicateNames")
  void duplicateNamesInAListAreAnError(String list, String text) throws IOException {
    Path f = file("dup.yaml", text);
    KubeconfigException e = refused(KubeconfigLoader.builder().kubeconfig(f));
    String name = "kubeconfig-" + list.substring(0, list.length() - 1);
    assertTrue(
        e.getMessage().contains("duplicate name \"" + name + "\" in list " + list), e.getMessage());
    assertEquals(f.toString(), e.file());
    assertEquals(list, e.field());
  }

  @Test
  void firstFileToNameAnEntryWinsItWhole() throws IOException {
    Path alfa = file("alfa.yaml", ALFA);
    Path conflict = file("conflict.yaml", CONFLICT_ALFA);
    KubeconfigLoader loader = envLoader(alfa, conflict).build();
    KubeconfigLoader.Merged merged = loader.merged();
    // cow-cluster from alfa, without conflict's insecure-skip-tls-verify and disable-compression.
    KubeconfigFile.Cluster cow = merged.clusters.get("cow-cluster");
    assertEquals("http://cow.org:8080", cow.server());
    assertFalse(cow.insecureSkipTlsVerify());
    assertFalse(cow.disableCompression());
    assertEquals(alfa.toString(), cow.origin());
    assertEquals("red-token", merged.users.get("red-user").token());
    assertEquals("yellow-token", merged.users.get("yellow-user").token());
    assertTrue(merged.clusters.containsKey("donkey-cluster"));
    // The conflict file alone sets current-context.
    assertEquals("federal-context", merged.currentContext);
    ClientConfig config = loader.load();
    assertEquals(URI.create("http://cow.org:8080"), config.server());

    KubeconfigLoader reversed = envLoader(conflict, alfa).build();
    KubeconfigFile.Cluster other = reversed.merged().clusters.get("cow-cluster");
    assertEquals("http://a-different-cow.org:8080", other.server());
    assertTrue(other.insecureSkipTlsVerify());
  }

  @Test
  void repeatedFilesOfKubeconfigAreReadOnce() throws IOException {
    Path alfa = file("alfa.yaml", ALFA);
    Path conflict = file("conflict.yaml", CONFLICT_ALFA);
    assertEquals(List.of(alfa, conflict), envLoader(alfa, conflict, alfa).build().files());
  }

  @Test
  void withoutExplicitFileOrKubeconfigTheHomeDirectorysConfigIsRead() throws IOException {
    Path home = dir.resolve("home");
    Fixtures.write(home.resolve(".kube/config"), ALFA + "current-context: federal-context\n");
    KubeconfigLoader loader =
        KubeconfigLoader.builder().environment(Map.of()).homeDirectory(home).build();
    assertEquals(List.of(home.resolve(".kube").resolve("config")), loader.files());
    assertEquals(URI.create("http://cow.org:8080"), loader.load().server());
  }

  @Test
  void anExplicitFileIsReadAloneEvenWhenKubeconfigIsSet() throws IOException {
    Path alfa = file("alfa.yaml", ALFA);
    Path conflict = file("conflict.yaml", CONFLICT_ALFA);
    KubeconfigLoader loader = envLoader(conflict).kubeconfig(alfa).build();
    assertEquals(List.of(alfa), loader.files());
    assertEquals("", loader.currentContext());
  }

  @Test
  void relativePathsAreResolvedAgainstTheFileThatNamesThem() throws IOException {
    Path dir1 = dir.resolve("one");
    Path dir2 = dir.resolve("two/nested");
    Path absolute = dir.resolve("absolute");
    Path f1 =
        Fixtures.write(
            dir1.resolve(".kubeconfig"),
            """
            users:
            - name: relative-user-1
              user: {client-certificate: relative/client/cert, client-key: ../relative/client/key}
            - name: absolute-user-1
              user: {client-certificate: %1$s/client/cert, client-key: %1$s/client/key}
            - name: relative-cmd-1
              user: {exec: {command: ../relative/client/cmd}}
            - name: absolute-cmd-1
              user: {exec: {command: %1$s/client/cmd}}
            - name: PATH-cmd-1
              user: {exec: {command: cmd}}
            - name: token-file
              user: {tokenFile: secrets/token}
            clusters:
            - name: relative-server-1
              cluster: {certificate-authority: ../relative/ca}
            - name: absolute-server-1
              cluster: {certificate-authority: %1$s/ca}
            """
                .formatted(absolute));
    Path f2 =
        Fixtures.write(
            dir2.resolve(".kubeconfig"),
            """
            users:
            - name: relative-user-2
              user: {client-certificate: relative/client/cert2, client-key: ../relative/client/key2}
            clusters:
            - name: relative-server-2
              cluster: {certificate-authority: ../relative/ca2}
            """);
    KubeconfigLoader.Merged merged = envLoader(f1, f2).build().merged();
    Path abs1 = dir1.toAbsolutePath();
    Path abs2 = dir2.toAbsolutePath();
    assertEquals(
        abs1.resolve("../relative/ca").normalize().toString(),
        merged.clusters.get("relative-server-1").certificateAuthority());
    assertEquals(
        abs2.resolve("../relative/ca2").normalize().toString(),
        merged.clusters.get("relative-server-2").certificateAuthority());
    assertEquals(absolute + "/ca", merged.clusters.get("absolute-server-1").certificateAuthority());
    KubeconfigFile.User r1 = merged.users.get("relative-user-1");
    assertEquals(abs1.resolve("relative/client/cert").toString(), r1.clientCertificate());
    assertEquals(abs1.resolve("../relative/client/key").normalize().toString(), r1.clientKey());
    KubeconfigFile.User r2 = merged.users.get("relative-user-2");
    assertEquals(abs2.resolve("relative/client/cert2").toString(), r2.clientCertificate());
    assertEquals(
        absolute + "/client/cert", merged.users.get("absolute-user-1").clientCertificate());
    assertEquals(
        abs1.resolve("../relative/client/cmd").normalize().toString(),
        merged.users.get("relative-cmd-1").exec().command());
    assertEquals(absolute + "/client/cmd", merged.users.get("absolute-cmd-1").exec().command());
    assertEquals("cmd", merged.users.get("PATH-cmd-1").exec().command());
    assertEquals(
        abs1.resolve("secrets/token").toString(), merged.users.get("token-file").tokenFile());
  }

  // client_config_test.go

  @Test
  void createClean() throws IOException {
    ClientConfig config = load(clean("https://anything.com:8080", "token: the-token"));
    assertEquals(URI.create("https://anything.com:8080"), config.server());
    assertEquals(Optional.of("Bearer the-token"), config.credentials().authorization());
    assertFalse(config.insecureSkipTlsVerify());
    assertEquals(Optional.empty(), config.tlsServerName());
    assertEquals("clean", config.contextName());
    assertEquals("default", config.namespace());
    assertEquals(5.0f, config.qps());
    assertEquals(10, config.burst());
  }

  @ParameterizedTest
  @CsvSource({
    "https://anything.com:8080/foo/bar, https://anything.com:8080/foo/bar",
    "http://anything.com:8080/foo/bar, http://anything.com:8080/foo/bar",
    "http://anything.com:8080/foo/bar/, http://anything.com:8080/foo/bar/",
    "http://anything.com:8080/, http://anything.com:8080/",
    "http://anything.com:8080//, http://anything.com:8080//",
    "anything.com:8080/foo/bar, http://anything.com:8080/foo/bar",
    "anything.com:8080, http://anything.com:8080",
    "anything.com, http://anything.com",
    "anything, http://anything",
    "https://anything.com:8080/foo?x=y#z, https://anything.com:8080/foo",
  })
  void createCleanWithPrefix(String server, String expected) throws IOException {
    // client-go keeps a server without a scheme and adds http:// (no TLS configured) when it
    // sends; here the scheme is added when loading.
    assertEquals(URI.create(expected), load(clean(server, "token: the-token")).server());
  }

  @Test
  void aServerWithoutSchemeGetsHttpsWhenTlsIsConfigured() throws IOException {
    Path f =
        file(
            "tls.yaml",
            """
            clusters:
            - name: c
              cluster: {server: "anything.com:8443", insecure-skip-tls-verify: true}
            contexts:
            - name: c
              context: {cluster: c}
            current-context: c
            """);
    assertEquals(URI.create("https://anything.com:8443"), load(f).server());
  }

  @Test
  void createMissingContext() throws IOException {
    Path f = clean("https://anything.com:8080", "token: the-token");
    KubeconfigException notPresent =
        refused(KubeconfigLoader.builder().kubeconfig(f).context("not-present"));
    assertEquals("context \"not-present\" does not exist", notPresent.getMessage());
    assertEquals("context", notPresent.field());

    Path current = file("current.yaml", "current-context: not-present\n" + ALFA);
    KubeconfigException missing = refused(KubeconfigLoader.builder().kubeconfig(current));
    assertTrue(
        missing.getMessage().contains("context was not found for specified context: not-present"),
        missing.getMessage());
    assertEquals(current.toString(), missing.file());
    assertEquals("current-context", missing.field());
  }

  @Test
  void clusterAndUserOverridesMustExist() throws IOException {
    Path f = clean("https://anything.com:8080", "token: the-token");
    assertEquals(
        "cluster \"nope\" does not exist",
        refused(KubeconfigLoader.builder().kubeconfig(f).cluster("nope")).getMessage());
    assertEquals(
        "auth info \"nobody\" does not exist",
        refused(KubeconfigLoader.builder().kubeconfig(f).user("nobody")).getMessage());
  }

  @Test
  void clusterUserAndNamespaceOverridesReplaceTheContexts() throws IOException {
    Path alfa = file("alfa.yaml", ALFA);
    Path conflict = file("conflict.yaml", CONFLICT_ALFA);
    ClientConfig config =
        envLoader(alfa, conflict)
            .cluster("donkey-cluster")
            .user("yellow-user")
            .namespace("mine")
            .build()
            .load();
    assertEquals(URI.create("http://donkey.org:8080"), config.server());
    assertTrue(config.disableCompression());
    assertEquals("mine", config.namespace());
    assertTrue(config.namespaceExplicit());
    assertEquals("federal-context", config.contextName());
  }

  @Test
  void credentialsAreUsedOnlyOverTls() throws IOException {
    // client-go reads the auth info only when the transport is TLS.
    ClientConfig plain = load(clean("http://anything.com:8080", "token: the-token"));
    assertEquals(Optional.empty(), plain.credentials().authorization());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''|",
        "socks5://example.com|",
        "https://example.com|",
        "http://example.com|",
        "socks6://example.com|unsupported scheme \"socks6\", must be http, https, or socks5",
        "example.com|unsupported scheme \"\", must be http, https, or socks5",
        "chewbacca@example.com|unsupported scheme \"\", must be http, https, or socks5",
      })
  void proxyUrl(String proxy, String problem) throws IOException {
    Path f =
        file(
            "proxy.yaml",
            """
            clusters:
            - name: clean
              cluster: {server: "https://localhost:8443", proxy-url: "%s"}
            users:
            - name: clean
              user: {}
            contexts:
            - name: clean
              context: {cluster: clean, user: clean}
            current-context: clean
            """
                .formatted(proxy));
    if (problem == null) {
      ClientConfig config = load(f);
      assertEquals(
          proxy.isEmpty() ? Optional.empty() : Optional.of(URI.create(proxy)), config.proxy());
    } else {
      KubeconfigException e = refused(KubeconfigLoader.builder().kubeconfig(f));
      assertEquals(
          "invalid configuration: invalid 'proxy-url' \""
              + proxy
              + "\" for cluster \"clean\": "
              + problem,
          e.getMessage());
      assertEquals("clusters[clean].proxy-url", e.field());
    }
  }

  @Test
  void basicAuthData() throws IOException {
    ClientConfig config =
        load(clean("https://localhost:8443", "username: myuser\npassword: mypass"));
    assertEquals(
        Optional.of(
            "Basic "
                + Base64.getEncoder()
                    .encodeToString("myuser:mypass".getBytes(StandardCharsets.UTF_8))),
        config.credentials().authorization());
  }

  @Test
  void basicTokenFile() throws IOException {
    Path token = file("tokenfile", "exampletoken");
    ClientConfig config = load(clean("https://localhost:8443", "tokenFile: " + token));
    assertEquals(Optional.of("Bearer exampletoken"), config.credentials().authorization());
  }

  @Test
  void aMissingTokenFileNamesTheFileAndField() throws IOException {
    Path f = clean("https://localhost:8443", "tokenFile: missing-token");
    KubeconfigException e = refused(KubeconfigLoader.builder().kubeconfig(f));
    assertEquals("users[clean].tokenFile", e.field());
    assertEquals(f.toString(), e.file());
    assertTrue(e.getMessage().contains(dir.resolve("missing-token").toString()), e.getMessage());
  }

  @Test
  void precedenceTokenFile() throws IOException {
    // A token and a token file: the token is the fallback, the file is read as it changes.
    Path token = file("tokenfile", "exampletoken");
    Fixtures.MutableClock clock =
        new Fixtures.MutableClock(java.time.Instant.parse("2030-01-01T00:00:00Z"));
    ClientConfig config =
        KubeconfigLoader.builder()
            .kubeconfig(clean("https://localhost:8443", "token: expected\ntokenFile: " + token))
            .clock(clock)
            .build()
            .load();
    assertEquals(Optional.of("Bearer exampletoken"), config.credentials().authorization());
    java.nio.file.Files.delete(token);
    clock.advance(java.time.Duration.ofMinutes(2));
    // The file is gone: the last token read is kept, as client-go keeps it.
    assertEquals(Optional.of("Bearer exampletoken"), config.credentials().authorization());
  }

  @Test
  void fullImpersonateConfig() throws IOException {
    ClientConfig config =
        load(
            clean(
                "https://localhost:8443",
                """
                token: t
                as: alice
                as-uid: "1234"
                as-groups: [devs, ops]
                as-user-extra:
                  scopes: [view, "edit/all"]
                  "example.com/team": [x]"""));
    Impersonation impersonation = config.impersonation();
    assertEquals("alice", impersonation.user());
    assertEquals("1234", impersonation.uid());
    assertEquals(List.of("devs", "ops"), impersonation.groups());
    assertEquals(
        Map.of(
            "Impersonate-User", List.of("alice"),
            "Impersonate-Uid", List.of("1234"),
            "Impersonate-Group", List.of("devs", "ops"),
            "Impersonate-Extra-scopes", List.of("view", "edit/all"),
            "Impersonate-Extra-example.com%2Fteam", List.of("x")),
        impersonation.headers());
  }

  @Test
  void namespaceOfTheContextOrDefault() throws IOException {
    Path alfa = file("alfa.yaml", ALFA);
    assertEquals(
        "hammer-ns", envLoader(alfa).context("federal-context").build().load().namespace());
    assertEquals("default", load(clean("https://localhost:8443", "token: t")).namespace());
  }

  // validation.go's messages

  static Stream<Arguments> validation() {
    return Stream.of(
        Arguments.of(
            "both CA file and data",
            "server: https://h\n    certificate-authority: ca.crt\n    certificate-authority-data: "
                + b64("x"),
            "token: t",
            List.of(
                "certificate-authority-data and certificate-authority are both specified for"
                    + " clean. certificate-authority-data will override.",
                "unable to read certificate-authority DIR/ca.crt for clean due to open"
                    + " DIR/ca.crt: no such file or directory"),
            "clusters[clean].certificate-authority-data"),
        Arguments.of(
            "no server",
            "tls-server-name: x",
            "token: t",
            List.of("no server found for cluster \"clean\""),
            "clusters[clean].server"),
        Arguments.of(
            "client cert without key",
            "server: https://h",
            "client-certificate: c.crt",
            List.of(
                "client-key-data or client-key must be specified for clean to use the clientCert"
                    + " authentication method.",
                "unable to read client-cert DIR/c.crt for clean due to open DIR/c.crt: no such"
                    + " file or directory"),
            "users[clean].client-key"),
        Arguments.of(
            "cert file and data, key file and data",
            "server: https://h",
            "client-certificate: c.crt\nclient-certificate-data: "
                + b64("c")
                + "\nclient-key: c.key\nclient-key-data: "
                + b64("k"),
            List.of(
                "client-cert-data and client-cert are both specified for clean. client-cert-data"
                    + " will override.",
                "client-key-data and client-key are both specified for clean; client-key-data will"
                    + " override",
                "unable to read client-cert DIR/c.crt for clean due to open DIR/c.crt: no such"
                    + " file or directory",
                "unable to read client-key DIR/c.key for clean due to open DIR/c.key: no such"
                    + " file or directory"),
            "users[clean].client-certificate-data"),
        Arguments.of(
            "token and basic auth",
            "server: https://h",
            "token: t\nusername: u\npassword: p",
            List.of(
                "more than one authentication method found for clean; found [token basicAuth],"
                    + " only one is allowed"),
            "users[clean].token"),
        Arguments.of(
            "impersonation without user",
            "server: https://h",
            "as-groups: [g]",
            List.of("requesting uid, groups or user-extra for clean without impersonating a user"),
            "users[clean].as"),
        Arguments.of(
            "exec without command, apiVersion, env name, interactiveMode",
            "server: https://h",
            "exec:\n  env: [{value: v}]",
            List.of(
                "command must be specified for clean to use exec authentication plugin",
                "apiVersion must be specified for clean to use exec authentication plugin",
                "env variable name must be specified for clean to use exec authentication plugin",
                "interactiveMode must be specified for clean to use exec authentication plugin"),
            "users[clean].exec.command"),
        Arguments.of(
            "exec v1 without interactiveMode",
            "server: https://h",
            "exec: {command: x, apiVersion: client.authentication.k8s.io/v1}",
            List.of(
                "interactiveMode must be specified for clean to use exec authentication plugin"),
            "users[clean].exec.interactiveMode"),
        Arguments.of(
            "exec with an invalid interactiveMode",
            "server: https://h",
            "exec: {command: x, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Sometimes}",
            List.of("invalid interactiveMode for clean: \"Sometimes\""),
            "users[clean].exec.interactiveMode"),
        Arguments.of(
            "exec with an auth-provider",
            "server: https://h",
            "exec: {command: x, apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never}\n"
                + "auth-provider: {name: oidc}",
            List.of("authProvider cannot be provided in combination with an exec plugin for clean"),
            "users[clean].auth-provider"));
  }

  private static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validation")
  void validationReportsEveryProblemInClientGosWords(
      String name, String cluster, String user, List<String> problems, String field)
      throws IOException {
    Path f =
        file(
            "v.yaml",
            """
            clusters:
            - name: clean
              cluster:
                %s
            users:
            - name: clean
              user:
            %s
            contexts:
            - name: clean
              context: {cluster: clean, user: clean}
            current-context: clean
            """
                .formatted(cluster, user.indent(4).stripTrailing()));
    KubeconfigException e = refused(KubeconfigLoader.builder().kubeconfig(f));
    List<String> expected =
        problems.stream().map(p -> p.replace("DIR", dir.toAbsolutePath().toString())).toList();
    assertEquals(expected, e.problems());
    assertEquals(
        "invalid configuration: "
            + (expected.size() == 1 ? expected.get(0) : "[" + String.join(", ", expected) + "]"),
        e.getMessage());
    assertEquals(field, e.field());
    assertEquals(f.toString(), e.file());
  }

  @ParameterizedTest
  @CsvSource({
    "gcp, gke-gcloud-auth-plugin",
    "azure, kubelogin",
    "oidc, an exec credential plugin",
  })
  void authProvidersAreRefusedNamingTheProvider(String provider, String instead)
      throws IOException {
    Path f = clean("https://localhost:8443", "auth-provider: {name: " + provider + ", config: {}}");
    KubeconfigException e = refused(KubeconfigLoader.builder().kubeconfig(f));
    assertEquals("users[clean].auth-provider", e.field());
    assertEquals(f.toString(), e.file());
    assertTrue(
        e.getMessage().contains("uses the auth-provider \"" + provider + "\""), e.getMessage());
    assertTrue(e.getMessage().contains(instead), e.getMessage());
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("clusters: {a: b}\n", "clusters", "expected a list"),
        Arguments.of(
            "clusters:\n- name: c\n  cluster: {insecure-skip-tls-verify: \"yes\"}\n",
            "clusters[c].insecure-skip-tls-verify",
            "expected a boolean"),
        Arguments.of(
            "clusters:\n- name: c\n  cluster: {certificate-authority-data: \"!!notbase64\"}\n",
            "clusters[c].certificate-authority-data",
            "illegal base64 data"),
        Arguments.of(
            "users:\n- name: u\n  user: {token: [a]}\n", "users[u].token", "expected a string"),
        Arguments.of("- just\n- a list\n", "", "does not hold a kubeconfig object"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void malformedFieldsAreNamed(String text, String field, String message) throws IOException {
    Path f = file("malformed.yaml", text);
    KubeconfigException e = refused(KubeconfigLoader.builder().kubeconfig(f));
    assertEquals(field, e.field());
    assertEquals(f.toString(), e.file());
    assertTrue(
        e.getMessage().startsWith("error loading config file \"" + f + "\""), e.getMessage());
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }

  @Test
  void anUnreadableCertificateAuthorityNamesThePath() throws IOException {
    Path ca = file("bad-ca.crt", "not a certificate");
    Path f =
        file(
            "badca.yaml",
            """
            clusters:
            - name: c
              cluster: {server: "https://h", certificate-authority: bad-ca.crt}
            contexts:
            - name: c
              context: {cluster: c}
            current-context: c
            """);
    KubeconfigException e = refused(KubeconfigLoader.builder().kubeconfig(f));
    assertEquals("clusters[c].certificate-authority", e.field());
    assertTrue(e.getMessage().contains(ca.toAbsolutePath().toString()), e.getMessage());
    assertTrue(e.getMessage().contains("no PEM block CERTIFICATE found"), e.getMessage());
  }

  @Test
  void insecureWithACertificateAuthorityIsRefused() throws Exception {
    // transport's "specifying a root certificates file with the insecure flag is not allowed".
    Fixtures.run(
        dir,
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "1",
        "-subj",
        "/CN=ca");
    byte[] ca = java.nio.file.Files.readAllBytes(dir.resolve("ca.crt"));
    KubeconfigException e =
        assertThrows(
            KubeconfigException.class,
            () ->
                ClientConfig.builder()
                    .server("https://h")
                    .insecureSkipTlsVerify(true)
                    .certificateAuthority(ca)
                    .build());
    assertEquals("insecure-skip-tls-verify", e.field());
    assertEquals(
        "specifying a root certificates file with the insecure flag is not allowed",
        e.getMessage());

    Path f =
        file(
            "insecure-ca.yaml",
            """
            clusters:
            - name: c
              cluster: {server: "https://h", insecure-skip-tls-verify: true, certificate-authority: ca.crt}
            contexts:
            - name: c
              context: {cluster: c}
            current-context: c
            """);
    KubeconfigException fromFile = refused(KubeconfigLoader.builder().kubeconfig(f));
    assertEquals("clusters[c].insecure-skip-tls-verify", fromFile.field());
    assertEquals(f.toString(), fromFile.file());
  }

  @ParameterizedTest
  @CsvSource({
    "'', cluster has no server defined",
    "ftp://h, has the scheme \"ftp\"; http or https expected",
    "https://, is not a URL",
    "https://under_score.example:6443, has no host",
  })
  void theBuilderRefusesABadServer(String server, String message) {
    KubeconfigException e =
        assertThrows(
            KubeconfigException.class, () -> ClientConfig.builder().server(server).build());
    assertEquals("server", e.field());
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }

  @Test
  void tlsServerNameAndDisableCompressionAreCarried() throws IOException {
    Path f =
        file(
            "sni.yaml",
            """
            clusters:
            - name: c
              cluster: {server: "https://10.0.0.1:6443", tls-server-name: kubernetes.default, disable-compression: true}
            contexts:
            - name: c
              context: {cluster: c, namespace: kube-system}
            current-context: c
            """);
    ClientConfig config = load(f);
    assertEquals(Optional.of("kubernetes.default"), config.tlsServerName());
    assertTrue(config.disableCompression());
    assertEquals("kube-system", config.namespace());
    assertEquals(Optional.empty(), config.credentials().authorization());
  }
}
