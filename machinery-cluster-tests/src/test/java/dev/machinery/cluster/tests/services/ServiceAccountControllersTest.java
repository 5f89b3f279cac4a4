package dev.machinery.cluster.tests.services;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.cluster.tests.Poll;
import dev.machinery.junit.EnableApiServer;
import dev.machinery.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The service account controller and the root CA publisher, driven through fabric8: the {@code
 * default} ServiceAccount and the {@code kube-root-ca.crt} ConfigMap in every namespace, made again
 * when deleted, put back when changed.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@EnableApiServer(
    controllers = {"serviceaccount-controller", "root-ca-cert-publisher"},
    nodes = 0)
class ServiceAccountControllersTest {
  static final String DESCRIPTION =
      "Contains a CA bundle that can be used to verify the kube-apiserver when using internal"
          + " endpoints such as the internal service IP or kubernetes.default.svc. No other usage"
          + " is guaranteed across distributions of Kubernetes clusters.";

  KubernetesClient client;
  TestApiServer server;

  private void namespace(String name) {
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  private ServiceAccount defaultAccount(String namespace) throws InterruptedException {
    return Poll.until(
        "the default ServiceAccount in " + namespace,
        () -> client.serviceAccounts().inNamespace(namespace).withName("default").get(),
        a -> a != null);
  }

  private ConfigMap rootCa(String namespace) throws InterruptedException {
    return Poll.until(
        "kube-root-ca.crt in " + namespace,
        () -> client.configMaps().inNamespace(namespace).withName("kube-root-ca.crt").get(),
        m -> m != null);
  }

  @Test
  void everyNamespaceGetsTheDefaultAccountAgainWhenDeleted() throws Exception {
    for (String ns : new String[] {"default", "kube-system", "kube-public", "kube-node-lease"}) {
      defaultAccount(ns);
    }
    namespace("sa-one");
    ServiceAccount first = defaultAccount("sa-one");
    assertEquals("default", first.getMetadata().getName());
    client.serviceAccounts().inNamespace("sa-one").withName("default").delete();
    ServiceAccount again =
        Poll.until(
            "a new default ServiceAccount",
            () -> client.serviceAccounts().inNamespace("sa-one").withName("default").get(),
            a -> a != null && !a.getMetadata().getUid().equals(first.getMetadata().getUid()));
    assertNotEquals(first.getMetadata().getUid(), again.getMetadata().getUid());
    // Another account is not the controller's: deleting it brings nothing back.
    client
        .serviceAccounts()
        .inNamespace("sa-one")
        .resource(
            new io.fabric8.kubernetes.api.model.ServiceAccountBuilder()
                .withNewMetadata()
                .withName("builder")
                .endMetadata()
                .build())
        .create();
    client.serviceAccounts().inNamespace("sa-one").withName("builder").delete();
    Poll.gone(
        "the other account gone",
        () -> client.serviceAccounts().inNamespace("sa-one").withName("builder").get());
  }

  @Test
  void rootCaConfigMapHoldsACertificateAndIsPutBack() throws Exception {
    namespace("ca-one");
    ConfigMap map = rootCa("ca-one");
    assertEquals(DESCRIPTION, map.getMetadata().getAnnotations().get("kubernetes.io/description"));
    String pem = map.getData().get("ca.crt");
    assertTrue(pem.startsWith("-----BEGIN CERTIFICATE-----"), pem);
    X509Certificate ca =
        (X509Certificate)
            CertificateFactory.getInstance("X.509")
                .generateCertificate(
                    new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    assertTrue(ca.getBasicConstraints() >= 0, "a CA certificate: " + ca);
    // Every namespace publishes the same CA.
    assertEquals(pem, rootCa("default").getData().get("ca.crt"));

    // Changed data is put back.
    map.setData(Map.of("ca.crt", "changed"));
    client.configMaps().inNamespace("ca-one").resource(map).update();
    Poll.until(
        "ca.crt restored",
        () -> client.configMaps().inNamespace("ca-one").withName("kube-root-ca.crt").get(),
        m -> m != null && pem.equals(m.getData().get("ca.crt")));

    // A removed annotation is put back, other annotations kept.
    ConfigMap current =
        client.configMaps().inNamespace("ca-one").withName("kube-root-ca.crt").get();
    current.getMetadata().setAnnotations(Map.of("team", "a"));
    client.configMaps().inNamespace("ca-one").resource(current).update();
    ConfigMap annotated =
        Poll.until(
            "the description restored",
            () -> client.configMaps().inNamespace("ca-one").withName("kube-root-ca.crt").get(),
            m ->
                m != null
                    && DESCRIPTION.equals(
                        m.getMetadata().getAnnotations().get("kubernetes.io/description")));
    assertEquals("a", annotated.getMetadata().getAnnotations().get("team"));

    // Deleted, it is made again.
    String uid = annotated.getMetadata().getUid();
    client.configMaps().inNamespace("ca-one").withName("kube-root-ca.crt").delete();
    Poll.until(
        "kube-root-ca.crt made again",
        () -> client.configMaps().inNamespace("ca-one").withName("kube-root-ca.crt").get(),
        m -> m != null && !m.getMetadata().getUid().equals(uid));
  }
}
