package dev.machinery.apiserver.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.apiserver.ApiServer;
import dev.machinery.apiserver.certs.KeyAlgorithm;
import dev.machinery.apiserver.certs.SelfSignedCertificates;
import dev.machinery.apiserver.http.JdkHttpBinding;
import dev.machinery.apiserver.http.TlsConfig;
import dev.machinery.apiserver.testing.client.Widget;
import dev.machinery.apiserver.testing.client.WidgetServer;
import dev.machinery.client.Client;
import dev.machinery.client.ListPage;
import dev.machinery.client.PatchType;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.ResourceExpiredException;
import dev.machinery.client.Watch;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.watch.Event;
import dev.machinery.unversioned.watch.EventType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snippets of docs/client.md, compiled and run; each method's body is the snippet. */
class ClientDocsTest {
  private final Scheme scheme = WidgetServer.SCHEME;

  @Test
  void overHttps(@TempDir Path dir) throws Exception {
    SelfSignedCertificates.CertDirectory certs =
        SelfSignedCertificates.ensure(
            dir, "localhost", List.of(), List.of(), KeyAlgorithm.ECDSA_P256);
    ApiServer server =
        WidgetServer.builder()
            .tls(TlsConfig.fromPemFiles(certs.certFile(), certs.keyFile(), null))
            .build();
    try (JdkHttpBinding binding =
        server.serve(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      SSLContext tls = HttpClientTest.trusting(certs);
      String token = WidgetServer.ADMIN_TOKEN;
      int port = binding.port();
      // --- snippet: docs/client.md "Over HTTPS"
      HttpTransport transport =
          HttpTransport.builder(URI.create("https://127.0.0.1:" + port))
              .sslContext(tls) // trusts the server's CA (and holds a client certificate, if any)
              .bearerToken(token)
              .build();
      try (Client client = Client.builder(transport).scheme(scheme).build()) {
        ResourceClient<Widget> widgets = client.resources(Widget.class).inNamespace("default");
        widgets.create(Widget.of("w1", 2, "red"));
        Widget w1 = widgets.get("w1");
        // --- end
        assertEquals("red", w1.getSpec().getColor());
      }
    } finally {
      server.close();
    }
  }

  @Test
  void inProcessUnstructuredPatchAndErrors() {
    ApiServer server = WidgetServer.builder().build();
    try {
      // --- snippet: docs/client.md "In process"
      Client client =
          Client.builder(InProcessTransport.of(server::handleAs)).scheme(scheme).build();
      // --- end
      client.resources(Widget.class).inNamespace("ns").create(Widget.of("w1", 1, "red"));
      // --- snippet: docs/client.md "Unstructured"
      ResourceClient<Unstructured> widgets =
          client
              .resources(GroupVersionResource.of("test.machinery.dev", "v1", "widgets"))
              .inNamespace("ns");
      Unstructured w1 =
          widgets.patch(
              "w1", PatchType.MERGE, "{\"spec\":{\"color\":\"blue\"}}", new PatchOptions());
      String color = w1.nestedString("spec", "color").orElse("");
      // --- end
      assertEquals("blue", color);
      // --- snippet: docs/client.md "Errors"
      try {
        widgets.create(w1);
      } catch (StatusException e) {
        if (ApiErrors.isAlreadyExists(e)) {
          // someone was first
        }
      }
      // --- end
      client.close();
    } finally {
      server.close();
    }
  }

  @Test
  void listThenWatch() {
    ApiServer server = WidgetServer.builder().build();
    List<String> seen = new ArrayList<>();
    try (Client client =
        Client.builder(InProcessTransport.of(server::handleAs)).scheme(scheme).build()) {
      ResourceClient<Widget> widgets = client.resources(Widget.class).inNamespace("ns");
      widgets.create(Widget.of("w1", 1, "red"));
      Thread writer =
          new Thread(
              () -> {
                widgets.create(Widget.of("w2", 1, "red"));
                widgets.delete("w2");
              });
      // --- snippet: docs/client.md "Watch"
      ListPage<Widget> page = widgets.list(new ListOptions());
      ListOptions options = new ListOptions();
      options.setResourceVersion(page.resourceVersion());
      options.setAllowWatchBookmarks(true);
      try (Watch<Widget> watch = widgets.watch(options)) {
        writer.start(); // (the test's writer)
        while (watch.hasNext()) {
          Event event = watch.next();
          Widget w = (Widget) event.object();
          // ADDED, MODIFIED, DELETED, BOOKMARK; watch.resourceVersion() is where to resume
          seen.add(event.type() + " " + w.getMetadata().getName());
          if (event.type() == EventType.DELETED) {
            break; // (the test stops here)
          }
        }
      } catch (ResourceExpiredException gone) {
        // 410: the version is too old; list again and watch from the new list's version
      }
      // --- end
      assertTrue(seen.contains("ADDED w2") && seen.contains("DELETED w2"), seen.toString());
    } finally {
      server.close();
    }
  }
}
