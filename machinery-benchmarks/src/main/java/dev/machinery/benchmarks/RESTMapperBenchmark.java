package dev.machinery.benchmarks;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import dev.machinery.restmapper.DefaultRESTMapper;
import dev.machinery.restmapper.DiscoveryRESTMapper;
import dev.machinery.restmapper.MultiRESTMapper;
import dev.machinery.restmapper.PriorityRESTMapper;
import dev.machinery.restmapper.RESTMapper;
import dev.machinery.restmapper.Scope;
import dev.machinery.unversioned.discovery.v2.DiscoveryV2;
import dev.machinery.unversioned.meta.v1.APIGroup;
import dev.machinery.unversioned.meta.v1.APIGroupList;
import dev.machinery.unversioned.meta.v1.APIResource;
import dev.machinery.unversioned.meta.v1.APIResourceList;
import dev.machinery.unversioned.meta.v1.GroupVersionForDiscovery;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * Lookups on the mapper of a real server's discovery documents (the core group and 21 named
 * groups), against the same mapper composed as Kubernetes composes it (a PriorityRESTMapper over a
 * MultiRESTMapper of one DefaultRESTMapper per group version), and the time to build it.
 */
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RESTMapperBenchmark {
  private static final GroupVersionResource DEPLOYMENTS =
      GroupVersionResource.of("", "", "deployments");
  private static final GroupVersionResource DEPLOYMENT =
      GroupVersionResource.of("", "", "deployment");
  private static final GroupVersionResource DEPLOY = GroupVersionResource.of("", "", "deploy");
  private static final GroupVersionResource APPS_DEPLOYMENTS =
      GroupVersionResource.of("apps", "", "deployments");
  private static final GroupVersionResource FULL_DEPLOYMENTS =
      GroupVersionResource.of("apps", "v1", "deployments");
  private static final GroupVersionResource EVENTS = GroupVersionResource.of("", "", "events");
  private static final GroupKind DEPLOYMENT_KIND = GroupKind.of("apps", "Deployment");

  private APIGroupList groups;
  private List<APIResourceList> lists;
  private DiscoveryRESTMapper mapper;
  private RESTMapper composed;

  /** Decodes the discovery documents and builds both mappers. */
  @Setup
  public void setUp() {
    Codec json =
        CodecFactory.create(DiscoveryV2.addToScheme(MetaV1.addToScheme(Scheme.builder())).build())
            .json();
    groups = json.decode(read("apis.json"), APIGroupList.class).object();
    lists = new ArrayList<>();
    for (String name : new String(read("index.txt"), StandardCharsets.UTF_8).split("\n")) {
      if (name.equals("api__v1.json") || name.split("__").length == 3) {
        lists.add(json.decode(read(name), APIResourceList.class).object());
      }
    }
    mapper = DiscoveryRESTMapper.fromDiscovery(groups, lists);
    composed = composed(groups, lists);
  }

  static byte[] read(String name) {
    try (InputStream in = RESTMapperBenchmark.class.getResourceAsStream("/discovery/" + name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Kubernetes' composition, for comparison. */
  static RESTMapper composed(APIGroupList groups, List<APIResourceList> lists) {
    Map<GroupVersion, APIResourceList> byVersion = new LinkedHashMap<>();
    lists.forEach(list -> byVersion.put(GroupVersion.parse(list.getGroupVersion()), list));
    List<RESTMapper> mappers = new ArrayList<>();
    List<PriorityRESTMapper.Pattern> priority = new ArrayList<>();
    priority.add(new PriorityRESTMapper.Pattern("", "v1"));
    mappers.add(single(GroupVersion.of("", "v1"), byVersion.get(GroupVersion.of("", "v1"))));
    for (APIGroup group : groups.getGroups()) {
      String preferred = group.getPreferredVersion().getVersion();
      priority.add(new PriorityRESTMapper.Pattern(group.getName(), preferred));
      for (GroupVersionForDiscovery version : group.getVersions()) {
        GroupVersion gv = GroupVersion.of(group.getName(), version.getVersion());
        if (byVersion.containsKey(gv)) {
          if (!version.getVersion().equals(preferred)) {
            priority.add(new PriorityRESTMapper.Pattern(group.getName(), version.getVersion()));
          }
          mappers.add(single(gv, byVersion.get(gv)));
        }
      }
    }
    for (APIGroup group : groups.getGroups()) {
      priority.add(new PriorityRESTMapper.Pattern(group.getName(), PriorityRESTMapper.ANY));
    }
    return new PriorityRESTMapper(MultiRESTMapper.of(mappers), priority, priority);
  }

  private static RESTMapper single(GroupVersion gv, APIResourceList list) {
    DefaultRESTMapper.Builder builder = DefaultRESTMapper.builder(gv);
    for (APIResource resource : list.getResources()) {
      if (resource.getName().contains("/")) {
        continue;
      }
      GroupVersionKind kind = gv.withKind(resource.getKind());
      builder.addSpecific(
          kind,
          gv.withResource(resource.getName()),
          resource.getSingularName().isEmpty()
              ? DefaultRESTMapper.guessResources(kind).get(1)
              : gv.withResource(resource.getSingularName()),
          resource.isNamespaced() ? Scope.NAMESPACE : Scope.ROOT);
    }
    return builder.build();
  }

  /** kindFor("deployments"). */
  @Benchmark
  public Object kindForPlural() {
    return mapper.kindFor(DEPLOYMENTS);
  }

  /** kindFor("deployment"). */
  @Benchmark
  public Object kindForSingular() {
    return mapper.kindFor(DEPLOYMENT);
  }

  /** kindFor("deploy"), a short name. */
  @Benchmark
  public Object kindForShortName() {
    return mapper.kindFor(DEPLOY);
  }

  /** kindFor("deployments.apps"), group given. */
  @Benchmark
  public Object kindForGroupResource() {
    return mapper.kindFor(APPS_DEPLOYMENTS);
  }

  /** kindFor("deployments.v1.apps"), fully specified. */
  @Benchmark
  public Object kindForFullySpecified() {
    return mapper.kindFor(FULL_DEPLOYMENTS);
  }

  /** kindFor("events"): in two groups, resolved by priority. */
  @Benchmark
  public Object kindForTwoGroups() {
    return mapper.kindFor(EVENTS);
  }

  /** resourceFor("deployments"). */
  @Benchmark
  public Object resourceForPlural() {
    return mapper.resourceFor(DEPLOYMENTS);
  }

  /** kindsFor("events"): every candidate. */
  @Benchmark
  public Object kindsForTwoGroups() {
    return mapper.kindsFor(EVENTS);
  }

  /** restMapping(Deployment.apps). */
  @Benchmark
  public Object restMapping() {
    return mapper.restMapping(DEPLOYMENT_KIND);
  }

  /** Baseline: kindFor("deployments") on Kubernetes' composition of mappers. */
  @Benchmark
  public Object composedKindForPlural() {
    return composed.kindFor(DEPLOYMENTS);
  }

  /** Baseline: kindFor("events") on Kubernetes' composition of mappers. */
  @Benchmark
  public Object composedKindForTwoGroups() {
    return composed.kindFor(EVENTS);
  }

  /** Baseline: restMapping(Deployment.apps) on Kubernetes' composition of mappers. */
  @Benchmark
  public Object composedRestMapping() {
    return composed.restMapping(DEPLOYMENT_KIND);
  }

  /** Building the mapper from decoded discovery documents. */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public Object build() {
    return DiscoveryRESTMapper.fromDiscovery(groups, lists);
  }
}
