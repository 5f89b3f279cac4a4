package dev.machinery.benchmarks;

import dev.machinery.apiserver.negotiation.Endpoint;
import dev.machinery.apiserver.negotiation.Negotiator;
import dev.machinery.apiserver.negotiation.Representation;
import dev.machinery.benchmarks.apps.v1.Deployment;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.util.ArrayList;
import java.util.List;
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
 * Listing 10,000 Deployment-sized objects in full, as PartialObjectMetadata, and as a Table without
 * objects: the alternate representations must be far cheaper than the full encoding.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class NegotiationBenchmark {
  private Negotiator negotiator;
  private DeploymentList list;
  private Representation full;
  private Representation partial;
  private Representation table;
  private CodecFactory codecs;
  private Object prebuilt;

  /** Decodes the benchmark document 10,000 times into a list and negotiates the three forms. */
  @Setup
  public void setUp() {
    Scheme scheme =
        MetaV1.addToScheme(Scheme.builder())
            .addKnownTypes(BenchmarkData.APPS_V1, Deployment.class, DeploymentList.class)
            .build();
    codecs = CodecFactory.create(scheme);
    List<Deployment> items = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      Deployment deployment =
          codecs.json().decode(BenchmarkData.deploymentJson(), Deployment.class).object();
      deployment.getMetadata().setName("web-" + i);
      items.add(deployment);
    }
    list = new DeploymentList();
    list.setApiVersion("apps/v1");
    list.setKind("DeploymentList");
    list.setMetadata(new ListMeta());
    list.setItems(items);
    negotiator = Negotiator.builder(scheme).build();
    Endpoint endpoint = new Endpoint(BenchmarkData.APPS_V1.withKind("Deployment"), true);
    full = negotiator.negotiate("application/json", endpoint).representation();
    partial =
        negotiator
            .negotiate("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", endpoint)
            .representation();
    table =
        negotiator
            .negotiate("application/json;as=Table;g=meta.k8s.io;v=v1", endpoint)
            .representation();
    dev.machinery.unversioned.meta.v1.PartialObjectMetadataList partials =
        new dev.machinery.unversioned.meta.v1.PartialObjectMetadataList();
    partials.setApiVersion("meta.k8s.io/v1");
    partials.setKind("PartialObjectMetadataList");
    List<dev.machinery.unversioned.meta.v1.PartialObjectMetadata> built = new ArrayList<>();
    for (Deployment item : items) {
      dev.machinery.unversioned.meta.v1.PartialObjectMetadata partial =
          new dev.machinery.unversioned.meta.v1.PartialObjectMetadata();
      partial.setApiVersion("meta.k8s.io/v1");
      partial.setKind("PartialObjectMetadata");
      partial.setMetadata(item.getMetadata());
      built.add(partial);
    }
    partials.setItems(built);
    prebuilt = partials;
  }

  /**
   * The full list.
   *
   * @return the body
   */
  @Benchmark
  public byte[] fullList() {
    return negotiator.respond(full, list, null).body();
  }

  /**
   * The list as PartialObjectMetadataList.
   *
   * @return the body
   */
  @Benchmark
  public byte[] partialObjectMetadataList() {
    return negotiator.respond(partial, list, null).body();
  }

  /**
   * Encoding a PartialObjectMetadataList built beforehand: the share of encoding in {@link
   * #partialObjectMetadataList()}.
   *
   * @return the body
   */
  @Benchmark
  public byte[] encodePrebuiltPartialList() {
    return codecs.json().encode(prebuilt);
  }

  /**
   * The list as a Table without objects.
   *
   * @return the body
   */
  @Benchmark
  public byte[] tableWithoutObjects() {
    return negotiator.respond(table, list, "None").body();
  }
}
