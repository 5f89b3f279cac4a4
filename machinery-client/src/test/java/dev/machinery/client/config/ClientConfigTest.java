package dev.machinery.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The programmatic configuration, impersonation headers and static credentials. */
class ClientConfigTest {
  @Test
  void toBuilderKeepsTheTlsContextAndChangesWhatItIsTold() {
    ClientConfig insecure =
        ClientConfig.builder()
            .server("https://10.0.0.1:6443")
            .insecureSkipTlsVerify(true)
            .bearerToken("t")
            .build();
    ClientConfig other = insecure.toBuilder().namespace("ops").qps(-1).burst(1).build();
    assertSame(insecure.sslContext(), other.sslContext());
    assertTrue(other.insecureSkipTlsVerify());
    assertEquals("ops", other.namespace());
    assertTrue(other.namespaceExplicit());
    assertEquals(-1f, other.qps());
    assertEquals(1, other.burst());
    assertEquals(Optional.of("Bearer t"), other.credentials().authorization());
    assertEquals(insecure.server(), other.server());
  }

  @Test
  void plainHttpNeedsNoTlsMaterial() {
    ClientConfig config = ClientConfig.builder().server("localhost:8080").build();
    assertEquals(URI.create("http://localhost:8080"), config.server());
    assertFalse(config.isTls());
    assertEquals(Optional.empty(), config.credentials().authorization());
    assertEquals(Impersonation.NONE, config.impersonation());
  }

  @ParameterizedTest
  @CsvSource({"0, qps", "NaN, qps"})
  void aZeroOrUndefinedRateIsRefused(float qps, String field) {
    KubeconfigException e =
        assertThrows(KubeconfigException.class, () -> ClientConfig.builder().qps(qps));
    assertEquals(field, e.field());
  }

  @Test
  void aBurstMustBePositive() {
    assertEquals(
        "burst 0 is not positive",
        assertThrows(KubeconfigException.class, () -> ClientConfig.builder().burst(0))
            .getMessage());
  }

  @Test
  void anUnsupportedProxyIsRefused() {
    KubeconfigException e =
        assertThrows(
            KubeconfigException.class,
            () -> ClientConfig.builder().proxy(URI.create("ftp://proxy:21")));
    assertEquals("proxy-url", e.field());
    assertEquals(
        "invalid 'proxy-url' \"ftp://proxy:21\": unsupported scheme \"ftp\", must be http, https,"
            + " or socks5",
        e.getMessage());
  }

  @Test
  void aTlsContextIsNotCombinedWithTlsMaterial() throws Exception {
    KubeconfigException e =
        assertThrows(
            KubeconfigException.class,
            () ->
                ClientConfig.builder()
                    .server("https://h")
                    .sslContext(javax.net.ssl.SSLContext.getDefault())
                    .insecureSkipTlsVerify(true)
                    .build());
    assertEquals("sslContext", e.field());
  }

  @Test
  void badPemIsRefusedNamingTheField() {
    KubeconfigException ca =
        assertThrows(
            KubeconfigException.class,
            () -> ClientConfig.builder().certificateAuthority("nothing".getBytes()));
    assertEquals("certificate-authority-data", ca.field());
    String encryptedKey =
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n";
    IllegalArgumentException key =
        assertThrows(
            IllegalArgumentException.class, () -> Pems.privateKey(encryptedKey.getBytes()));
    assertTrue(key.getMessage().contains("encrypted"), key.getMessage());
    String legacyEncrypted =
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n"
            + "AAAA\n-----END RSA PRIVATE KEY-----\n";
    assertTrue(
        assertThrows(
                IllegalArgumentException.class, () -> Pems.privateKey(legacyEncrypted.getBytes()))
            .getMessage()
            .contains("encrypted"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> Pems.privateKey(new byte[0]))
            .getMessage()
            .startsWith("no private key found"));
  }

  @Test
  void impersonationHeadersEscapeExtraKeysAsClientGo() {
    Impersonation impersonation =
        new Impersonation(
            "system:serviceaccount:ns:sa",
            "",
            List.of("system:authenticated"),
            Map.of("reason%", List.of("a"), "ключ", List.of("b")));
    Map<String, List<String>> headers = impersonation.headers();
    assertEquals(List.of("system:serviceaccount:ns:sa"), headers.get("Impersonate-User"));
    assertEquals(List.of("system:authenticated"), headers.get("Impersonate-Group"));
    assertEquals(List.of("a"), headers.get("Impersonate-Extra-reason%25"));
    assertEquals(List.of("b"), headers.get("Impersonate-Extra-%D0%BA%D0%BB%D1%8E%D1%87"));
    assertFalse(headers.containsKey("Impersonate-Uid"));
  }

  @Test
  void impersonationWithoutAUserIsRefused() {
    KubeconfigException e =
        assertThrows(
            KubeconfigException.class, () -> new Impersonation("", "uid-1", List.of(), Map.of()));
    assertEquals(
        "requesting uid, groups or user-extra without impersonating a user", e.getMessage());
    assertEquals(Map.of(), Impersonation.NONE.headers());
  }

  @Test
  void staticCredentials() {
    assertEquals(Optional.empty(), CredentialSource.none().authorization());
    assertEquals(
        Optional.of("Basic dXNlcjpww6Rzcw=="),
        CredentialSource.basicAuth("user", "päss").authorization());
    assertEquals(
        "the bearer token is empty",
        assertThrows(KubeconfigException.class, () -> CredentialSource.bearerToken(""))
            .getMessage());
  }
}
