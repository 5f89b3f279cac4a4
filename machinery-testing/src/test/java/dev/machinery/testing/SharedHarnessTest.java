package dev.machinery.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.testapi.frobber.FrobberApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One harness shared by several threads gives each the answer it gives alone. */
class SharedHarnessTest {
  @Test
  void oneHarnessServesManyThreads() throws Exception {
    RoundTrip harness =
        RoundTrip.forScheme(FrobberApi.scheme())
            .fuzzer(FrobberRoundTripTest.fuzzer())
            .seeds(50)
            .build();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Optional<RoundTripFailure>>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        for (GroupVersionKind kind : harness.kinds()) {
          results.add(pool.submit(() -> harness.check(kind)));
        }
      }
      for (Future<Optional<RoundTripFailure>> result : results) {
        assertEquals(Optional.empty(), result.get());
      }
    } finally {
      pool.shutdown();
    }
  }
}
