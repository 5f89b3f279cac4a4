package dev.machinery.storage.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.machinery.apiserver.storage.KeyValue;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.storage.etcd.testing.EtcdProcess;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link EtcdStorage} on a three-member etcd cluster (three processes started for this class): when
 * the member the store talks to stops, or hangs without a word (paused: its connections open, no
 * answer and no reset), writes, reads and an open watch go on through the others, and nothing
 * written is lost or seen twice; the member then comes back.
 */
class EtcdClusterTest {
  private static List<EtcdProcess> members;

  @BeforeAll
  static void startCluster() throws Exception {
    members = EtcdProcess.cluster(3);
  }

  @AfterAll
  static void stopCluster() throws Exception {
    for (EtcdProcess member : members) {
      member.close();
    }
  }

  @ParameterizedTest(name = "grpc {0}")
  @ValueSource(booleans = {false, true})
  void aStoppedMemberIsPassedOverAndItsWatchResumesElsewhere(boolean grpc) throws Exception {
    List<URI> endpoints = members.stream().map(EtcdProcess::endpoint).toList();
    try (EtcdStorage store =
            EtcdStorage.builder(endpoints.toArray(URI[]::new))
                .grpc(grpc)
                .prefix("/cluster-" + grpc + "/")
                .requestTimeout(Duration.ofSeconds(3))
                .resumeFor(Duration.ofSeconds(30))
                .build();
        StorageWatch watch = store.watch("/k/", 0)) {
      List<KeyValue> written = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        written.add(store.create("/k/before-" + i, "v".getBytes(UTF_8)));
      }
      // The store talks to the first member: stop it.
      members.get(0).stop();
      for (int i = 0; i < 10; i++) {
        written.add(store.create("/k/after-" + i, "v".getBytes(UTF_8)));
      }
      KeyValue updated = store.update("/k/before-0", 0, "w".getBytes(UTF_8));
      assertEquals("w", new String(store.get("/k/before-0").orElseThrow().value(), UTF_8));
      Set<String> seen = new HashSet<>();
      long last = 0;
      for (int i = 0; i < 21; i++) {
        StorageEvent event = watch.poll(30, TimeUnit.SECONDS);
        assertNotNull(event, "event " + i + " of 21; error: " + watch.error());
        assertEquals(true, event.revision() > last, "revisions increase, none twice");
        last = event.revision();
        seen.add(event.kv().key() + "@" + event.revision());
      }
      assertEquals(21, seen.size());
      assertEquals(updated.modRevision(), last);
      assertNull(watch.poll(200, TimeUnit.MILLISECONDS));
      assertNull(watch.error());
      members.get(0).startAgain();
      assertEquals(20, store.list("/k/", 0, null, 0).items().size());
    }
  }

  @ParameterizedTest(name = "grpc {0}")
  @ValueSource(booleans = {false, true})
  void aMemberThatHangsIsPassedOverAndItsWatchResumesElsewhere(boolean grpc) throws Exception {
    List<URI> endpoints = members.stream().map(EtcdProcess::endpoint).toList();
    try (EtcdStorage store =
            EtcdStorage.builder(endpoints.toArray(URI[]::new))
                .grpc(grpc)
                .prefix("/hung-" + grpc + "/")
                .requestTimeout(Duration.ofSeconds(2))
                .keepAlive(Duration.ofMillis(500), Duration.ofMillis(500))
                .resumeFor(Duration.ofSeconds(30))
                .build();
        StorageWatch watch = store.watch("/k/", 0)) {
      KeyValue before = store.create("/k/before", "v".getBytes(UTF_8));
      StorageEvent first = watch.poll(30, TimeUnit.SECONDS);
      assertNotNull(first, "the watch works before; error: " + watch.error());
      assertEquals(before.modRevision(), first.revision());
      // The store talks to the first member: it hangs.
      members.get(0).pause();
      try {
        // Nothing is written while the watch hears nothing: only its keepalive can find the
        // member gone. Then a write through the others.
        Thread.sleep(1_500);
        KeyValue after = store.create("/k/after", "v".getBytes(UTF_8));
        StorageEvent event = watch.poll(30, TimeUnit.SECONDS);
        assertNotNull(event, "the watch never resumed; error: " + watch.error());
        assertEquals(after.modRevision(), event.revision());
        assertEquals("/k/after", event.kv().key());
        assertNull(watch.poll(200, TimeUnit.MILLISECONDS));
        assertNull(watch.error());
      } finally {
        members.get(0).resume();
      }
      assertEquals(2, store.list("/k/", 0, null, 0).items().size());
    }
  }
}
