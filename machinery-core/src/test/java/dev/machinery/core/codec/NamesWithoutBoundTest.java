package dev.machinery.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.testapi.TestApi;
import dev.machinery.core.testapi.apps.Deployment;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Objects whose field names are their own (label keys, data keys, managed fields' keys) cost each
 * read the same however many such names a codec has read before: Jackson's shared table of names,
 * once full, was copied by every parse that met a new name (about 100 KB here for a document of 300
 * bytes). Measured as the bytes the reading thread allocates, not as time.
 */
class NamesWithoutBoundTest {
  private static byte[] deployment(int i) {
    return ("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d"
            + i
            + "\",\"labels\":{\"app\":\"web\",\"pod-template-hash-"
            + i
            + "\":\"x\",\"k:{\\\"ip\\\":\\\"10.0."
            + (i / 250)
            + "."
            + (i % 250)
            + "\\\"}\":\"y\"}},\"spec\":{\"replicas\":2}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The bytes this thread has allocated, from the JDK's {@code com.sun.management.ThreadMXBean}
   * (reflection: the module under test does not read {@code java.management}).
   */
  private static long allocatedByThisThread() throws ReflectiveOperationException {
    Object threads =
        Class.forName("java.lang.management.ManagementFactory")
            .getMethod("getThreadMXBean")
            .invoke(null);
    return (long)
        Class.forName("com.sun.management.ThreadMXBean")
            .getMethod("getCurrentThreadAllocatedBytes")
            .invoke(threads);
  }

  @Test
  void aReadCostsTheSameAfterManyNamesOfTheirOwn() throws Exception {
    Codec json = CodecFactory.create(TestApi.scheme()).json();
    // 40,000 names of their own: far beyond what Jackson's table holds (some thousands).
    int warm = 20_000;
    for (int i = 0; i < warm; i++) {
      assertEquals(
          "d" + i, json.decode(deployment(i), Deployment.class).object().getMetadata().getName());
    }
    int measured = 2_000;
    long bytes = 0;
    long before = allocatedByThisThread();
    for (int i = warm; i < warm + measured; i++) {
      byte[] document = deployment(i);
      bytes += document.length;
      Deployment read = json.decode(document, Deployment.class).object();
      assertEquals(3, read.getMetadata().getLabels().size());
    }
    long allocated = allocatedByThisThread() - before;
    long perRead = allocated / measured;
    // About 55 KB a read here (a copy of a table of at most a thousand names); with Jackson's own
    // factory, whose table had filled with some thousands, about 400 KB.
    assertTrue(
        perRead < 150_000,
        "allocated "
            + allocated
            + " bytes to read "
            + measured
            + " documents of "
            + bytes
            + " bytes: "
            + perRead
            + " a read");
  }

  @Test
  void threadsReadingAtOnceEachGetTheirOwnNames() throws Exception {
    Codec json = CodecFactory.create(TestApi.scheme()).json();
    int threads = 4;
    int each = 5_000;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      java.util.List<java.util.concurrent.Future<Integer>> done = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t * each;
        done.add(
            pool.submit(
                () -> {
                  for (int i = first; i < first + each; i++) {
                    Deployment read = json.decode(deployment(i), Deployment.class).object();
                    assertEquals("d" + i, read.getMetadata().getName());
                    assertEquals(
                        java.util.Set.of(
                            "app",
                            "pod-template-hash-" + i,
                            "k:{\"ip\":\"10.0." + (i / 250) + "." + (i % 250) + "\"}"),
                        read.getMetadata().getLabels().keySet());
                  }
                  return each;
                }));
      }
      int read = 0;
      for (java.util.concurrent.Future<Integer> future : done) {
        read += future.get(2, java.util.concurrent.TimeUnit.MINUTES);
      }
      assertEquals(threads * each, read);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aCopiedMapperKeepsTheBoundedTable() throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper copy = ObjectJson.mapperBuilder().build().copy();
    assertEquals(NameBoundedJsonFactory.class, copy.getFactory().getClass());
    assertEquals(
        java.util.Map.of("a", 1),
        copy.readValue("{\"a\":1}".getBytes(StandardCharsets.UTF_8), java.util.Map.class));
  }
}
