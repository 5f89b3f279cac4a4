package dev.machinery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.api.KubernetesApi;
import dev.machinery.api.core.v1.ConfigMap;
import dev.machinery.apiserver.client.InProcessTransport;
import dev.machinery.client.Client;
import dev.machinery.client.ResourceClient;
import dev.machinery.client.transport.HttpTransport;
import dev.machinery.controller.cache.CacheIndexer;
import dev.machinery.controller.cache.ListResult;
import dev.machinery.controller.cache.ListerWatcher;
import dev.machinery.controller.cache.SharedIndexInformer;
import dev.machinery.controller.cache.WatchStream;
import dev.machinery.controller.client.ClientListerWatcher;
import dev.machinery.controller.clock.Clock;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.junit.TestApiServer;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An informer with watch lists on against the test server, in process and over HTTP: it starts from
 * one watch (no list at all), its cache holds the objects that were there once the bookmark ending
 * the initial events came, and the same watch brings the later changes. fabric8's informer (7.4)
 * has no watch-list mode, so the library's own client-go-style reflector is the one shown.
 */
class WatchListInformerTest {
  private static TestApiServer server;

  @BeforeAll
  static void start() {
    server = TestApiServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Client client(String transport) {
    Scheme scheme = KubernetesApi.addToScheme(Scheme.builder()).build();
    Client.Builder builder =
        switch (transport) {
          case "in-process" -> Client.builder(InProcessTransport.of(server.apiServer()::handleAs));
          case "http" -> Client.builder(HttpTransport.builder(server.url()).build());
          default -> throw new IllegalArgumentException(transport);
        };
    return builder.scheme(scheme).build();
  }

  /** Records what the reflector asks of the server. */
  private static final class Recording<T> implements ListerWatcher<T> {
    private final ListerWatcher<T> delegate;
    final List<ListOptions> lists = new ArrayList<>();
    final List<ListOptions> watches = new ArrayList<>();

    Recording(ListerWatcher<T> delegate) {
      this.delegate = delegate;
    }

    @Override
    public synchronized ListResult<T> list(ListOptions options) {
      lists.add(options);
      return delegate.list(options);
    }

    @Override
    public WatchStream watch(ListOptions options) {
      synchronized (this) {
        watches.add(options);
      }
      return delegate.watch(options);
    }
  }

  private static ConfigMap configMap(String name, String app) {
    ConfigMap map = new ConfigMap();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setLabels(Map.of("app", app));
    map.setMetadata(meta);
    map.setData(Map.of("k", name));
    return map;
  }

  @ParameterizedTest
  @ValueSource(strings = {"in-process", "http"})
  void anInformerStartsFromAWatch(String transport) throws Exception {
    String app = "watchlist-" + transport;
    try (Client client = client(transport)) {
      ResourceClient<ConfigMap> maps = client.resources(ConfigMap.class).inNamespace("default");
      for (String name : List.of("a", "b", "c")) {
        maps.create(configMap(app + "-" + name, app));
      }
      maps.create(configMap(app + "-other", "someone-else"));
      Recording<ConfigMap> source =
          new Recording<>(new ClientListerWatcher<>(maps, "app=" + app, null));
      SharedIndexInformer<ConfigMap> informer =
          new SharedIndexInformer<>(
                  "configmaps",
                  source,
                  Duration.ZERO,
                  CacheIndexer.namespaceIndexers(),
                  Clock.system())
              .useWatchList(true);
      informer.start();
      try {
        assertTrue(informer.awaitSynced());
        assertEquals(
            List.of("default/" + app + "-a", "default/" + app + "-b", "default/" + app + "-c"),
            informer.indexer().listKeys().stream().sorted().toList());
        synchronized (source) {
          assertEquals(List.of(), source.lists, "no list: the watch brought the state");
          assertEquals(1, source.watches.size());
          assertEquals(Boolean.TRUE, source.watches.get(0).getSendInitialEvents());
          assertEquals("NotOlderThan", source.watches.get(0).getResourceVersionMatch());
        }
        maps.create(configMap(app + "-d", app));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (informer.indexer().listKeys().size() < 4 && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertEquals(4, informer.indexer().listKeys().size());
        synchronized (source) {
          assertEquals(1, source.watches.size(), "the same watch brought the change");
          assertEquals(List.of(), source.lists);
        }
      } finally {
        informer.stop();
      }
    }
  }
}
