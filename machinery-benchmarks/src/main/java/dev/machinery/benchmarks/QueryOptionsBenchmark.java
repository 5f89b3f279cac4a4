package dev.machinery.benchmarks;

import dev.machinery.apiserver.negotiation.QueryOptions;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A list's query parameters ({@code labelSelector}, {@code limit}, {@code resourceVersion}, as an
 * informer's first list sends them) read into {@code ListOptions}, as every LIST reads them: by
 * {@link QueryOptions#decode} (each value converted to its setter's type and set), beside the same
 * options written as JSON and read back through the library's codec (what {@code decode} did for
 * every request before) and beside hand-written code that calls the three setters.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class QueryOptionsBenchmark {
  private QueryOptions options;
  private Codec json;
  private Map<String, List<String>> query;

  /** Makes the decoder over a Scheme of {@code meta.k8s.io/v1}. */
  @Setup
  public void setUp() {
    CodecFactory codecs = CodecFactory.create(MetaV1.addToScheme(Scheme.builder()).build());
    options = new QueryOptions(codecs, Set.of("pretty", "includeObject", "watch"));
    json = codecs.json();
    query =
        Map.of(
            "labelSelector", List.of("app=web,tier!=cache"),
            "limit", List.of("500"),
            "resourceVersion", List.of("0"));
  }

  /**
   * The shipped decoder.
   *
   * @return the options
   */
  @Benchmark
  public Object decode() {
    return options.decode(query, "ListOptions");
  }

  /**
   * The same options written as JSON and read back into their class, as the decoder did before.
   *
   * @return the options
   */
  @Benchmark
  public Object throughJson() {
    Unstructured fields = new Unstructured();
    fields.setApiVersion("meta.k8s.io/v1");
    fields.setKind("ListOptions");
    fields.setField("labelSelector", query.get("labelSelector").get(0));
    fields.setField("limit", Long.parseLong(query.get("limit").get(0)));
    fields.setField("resourceVersion", query.get("resourceVersion").get(0));
    return json.decode(json.encode(fields), ListOptions.class).object();
  }

  /**
   * Hand-written: the three values read and set, nothing checked.
   *
   * @return the options
   */
  @Benchmark
  public Object handWritten() {
    ListOptions list = new ListOptions();
    list.setApiVersion("meta.k8s.io/v1");
    list.setKind("ListOptions");
    list.setLabelSelector(query.get("labelSelector").get(0));
    list.setLimit(Long.parseLong(query.get("limit").get(0)));
    list.setResourceVersion(query.get("resourceVersion").get(0));
    return list;
  }
}
