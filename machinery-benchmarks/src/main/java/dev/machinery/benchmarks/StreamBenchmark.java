package dev.machinery.benchmarks;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.ItemStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Streaming the items of a list of 1,000 benchmark Deployments (about 2.4 MB) one at a time:
 * Machinery's {@code Codec.decodeItems} (each item bounded, kind-checked and strictly validated)
 * against plain Jackson streaming the same bytes into the known class with a {@code
 * MappingIterator}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StreamBenchmark {
  private static final int ITEMS = 1_000;

  private byte[] list;
  private Codec codec;
  private ObjectMapper plain;

  /** Creates the benchmark state. */
  public StreamBenchmark() {}

  /**
   * Builds the list once.
   *
   * @throws IOException never, for in-memory data
   */
  @Setup
  public void setUp() throws IOException {
    byte[] item = BenchmarkData.deploymentJson();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"DeploymentList\",\"metadata\":{},\"items\":["
            .getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < ITEMS; i++) {
      if (i > 0) {
        out.write(',');
      }
      out.write(item);
    }
    out.write("]}".getBytes(StandardCharsets.UTF_8));
    list = out.toByteArray();
    codec = CodecFactory.create(BenchmarkData.scheme()).json();
    plain = new ObjectMapper();
  }

  /**
   * Baseline: plain Jackson streams the items into the known class.
   *
   * @return the number of items
   * @throws IOException never
   */
  @Benchmark
  public int plainJacksonMappingIterator() throws IOException {
    try (JsonParser parser = plain.getFactory().createParser(new ByteArrayInputStream(list))) {
      while (parser.nextToken() != JsonToken.START_ARRAY) {
        // to "items"
      }
      parser.nextToken();
      int count = 0;
      try (MappingIterator<Deployment> items = plain.readValues(parser, Deployment.class)) {
        while (items.hasNext()) {
          items.next();
          count++;
        }
      }
      return count;
    }
  }

  /**
   * Machinery, items of a named class: each item bounded, its bytes copied and decoded strictly.
   *
   * @return the number of items
   */
  @Benchmark
  public int machineryDecodeItemsOfAClass() {
    int count = 0;
    try (ItemStream<Deployment> items =
        codec.decodeItems(new ByteArrayInputStream(list), Deployment.class)) {
      while (items.hasNext()) {
        items.next();
        count++;
      }
    }
    return count;
  }

  /**
   * Machinery, items of any kind: each item read as a tree (to give a typeless item the list's
   * kind), then decoded strictly by its kind.
   *
   * @return the number of items
   */
  @Benchmark
  public int machineryDecodeItemsOfAnyKind() {
    int count = 0;
    try (ItemStream<Object> items =
        codec.decodeItems(new ByteArrayInputStream(list), Object.class)) {
      while (items.hasNext()) {
        items.next();
        count++;
      }
    }
    return count;
  }
}
