package dev.machinery.apiserver.negotiation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.TableColumnDefinition;
import dev.machinery.unversioned.testapi.Pod;
import dev.machinery.unversioned.testapi.PodList;
import dev.machinery.unversioned.testapi.ReplicaSet;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The proposal's examples, as request header → chosen representation → response body. */
class NegotiationTest {
  static final GroupVersion CORE = GroupVersion.of("", "v1");
  static final GroupVersion APPS = GroupVersion.of("apps", "v1");
  static final Scheme SCHEME =
      MetaV1.addToGroupVersion(
              MetaV1.addToScheme(Scheme.builder())
                  .addKnownTypes(CORE, Pod.class, PodList.class)
                  .addKnownTypes(APPS, ReplicaSet.class),
              CORE)
          .build();
  static final Negotiator NEGOTIATOR =
      Negotiator.builder(SCHEME)
          .addScale(
              GroupKind.of("apps", "ReplicaSet"),
              ReplicaSet.class,
              new ScaleAccessor<ReplicaSet>() {
                @Override
                public Scale read(ReplicaSet set) {
                  Scale scale = new Scale();
                  scale.getMetadata().setName(set.getMetadata().getName());
                  scale.getMetadata().setNamespace(set.getMetadata().getNamespace());
                  scale.getSpec().setReplicas(set.getReplicas());
                  scale.getStatus().setReplicas(set.getReadyReplicas());
                  scale.getStatus().setSelector(set.getSelector());
                  return scale;
                }

                @Override
                public void write(ReplicaSet set, Scale scale) {
                  set.setReplicas(scale.getSpec().getReplicas());
                }
              })
          .build();
  static final Endpoint PODS = new Endpoint(CORE.withKind("Pod"), true);

  static Pod pod(String name) {
    Pod pod = new Pod();
    pod.setApiVersion("v1");
    pod.setKind("Pod");
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name);
    meta.setNamespace("example");
    meta.setUid("uid-" + name);
    meta.setResourceVersion("10");
    meta.setCreationTimestamp(Instant.parse("2024-05-01T12:00:00Z"));
    meta.setLabels(Map.of("app", "web"));
    pod.setMetadata(meta);
    return pod;
  }

  static PodList pods() {
    PodList list = new PodList();
    list.setApiVersion("v1");
    list.setKind("PodList");
    ListMeta meta = new ListMeta();
    meta.setResourceVersion("11");
    list.setMetadata(meta);
    list.setItems(List.of(pod("foo"), pod("bar")));
    return list;
  }

  static Response get(String accept, Endpoint endpoint, Object object) {
    Negotiation negotiation = NEGOTIATOR.negotiate(accept, endpoint);
    return negotiation.acceptable()
        ? NEGOTIATOR.respond(
            negotiation.representation(), (dev.machinery.core.runtime.ApiObject) object, null)
        : NEGOTIATOR.notAcceptableResponse(negotiation);
  }

  @Test
  void aPodListAsATable() {
    Response response = get("application/json;as=Table;g=meta.k8s.io;v=v1", PODS, pods());
    assertEquals(200, response.status());
    assertEquals("application/json;as=Table;g=meta.k8s.io;v=v1", response.contentType());
    assertEquals(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"Table\",\"metadata\":{\"resourceVersion\":"
            + "\"11\"},\"columnDefinitions\":[{\"name\":\"Name\",\"type\":\"string\",\"format\":"
            + "\"name\",\"description\":\"Name must be unique within a namespace.\",\"priority\":0},"
            + "{\"name\":\"Created At\",\"type\":\"date\",\"format\":\"\",\"description\":\"The time"
            + " the object was created.\",\"priority\":0}],\"rows\":[{\"cells\":[\"foo\","
            + "\"2024-05-01T12:00:00Z\"],\"object\":{\"kind\":\"PartialObjectMetadata\","
            + "\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":{\"name\":\"foo\",\"namespace\":"
            + "\"example\",\"uid\":\"uid-foo\",\"resourceVersion\":\"10\",\"creationTimestamp\":"
            + "\"2024-05-01T12:00:00Z\",\"labels\":{\"app\":\"web\"}}}},{\"cells\":[\"bar\","
            + "\"2024-05-01T12:00:00Z\"],\"object\":{\"kind\":\"PartialObjectMetadata\","
            + "\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":{\"name\":\"bar\",\"namespace\":"
            + "\"example\",\"uid\":\"uid-bar\",\"resourceVersion\":\"10\",\"creationTimestamp\":"
            + "\"2024-05-01T12:00:00Z\",\"labels\":{\"app\":\"web\"}}}}]}",
        response.text());
    Negotiation none = NEGOTIATOR.negotiate("application/json;as=Table;g=meta.k8s.io;v=v1", PODS);
    Response withoutObjects = NEGOTIATOR.respond(none.representation(), pods(), "None");
    assertFalse(withoutObjects.text().contains("\"object\""));
  }

  @Test
  void aTableRowsMetadataEncodedOnceIsTheMetadataEncodedWithTheTable() throws Exception {
    PodList list = pods();
    Pod odd = pod("odd");
    odd.getMetadata()
        .setLabels(Map.of("quote", "a\"b\\c", "unicode", "\u00e9t\u00e9 \u2603", "ctl", "\u0001"));
    odd.getMetadata().setAnnotations(Map.of("json", "{\"x\":[1,2]}"));
    Pod bare = new Pod();
    bare.setApiVersion("v1");
    bare.setKind("Pod");
    list.setItems(List.of(odd, pod("foo"), bare));
    Negotiation table = NEGOTIATOR.negotiate("application/json;as=Table;g=meta.k8s.io;v=v1", PODS);
    Negotiation pretty =
        NEGOTIATOR.negotiate("application/json;as=Table;g=meta.k8s.io;v=v1;pretty=1", PODS);
    Map<Object, Map<Object, Object>> held = new java.util.IdentityHashMap<>();
    ItemMemo remembering =
        (item, key, compute) ->
            held.computeIfAbsent(item, i -> new java.util.HashMap<>())
                .computeIfAbsent(key, k -> compute.apply(item));
    String first = NEGOTIATOR.respond(table.representation(), list, null, remembering).text();
    String again = NEGOTIATOR.respond(table.representation(), list, null, remembering).text();
    String unremembered = NEGOTIATOR.respond(table.representation(), list, null).text();
    String written = NEGOTIATOR.respond(pretty.representation(), list, null).text();
    assertEquals(first, again, "the remembered encodings written again");
    assertEquals(first, unremembered);
    // The pretty table serializes each row's metadata with the table: the same JSON.
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    assertEquals(json.readTree(written), json.readTree(first));
    assertTrue(first.contains("\"metadata\":null"), "a row without metadata: " + first);
    assertEquals(3, held.size(), "one memo entry per row object");
  }

  @Test
  void registeredColumnsAndAnEmptyList() {
    Negotiator custom =
        Negotiator.builder(SCHEME)
            .addTableConvertor(
                GroupKind.of("", "Pod"),
                new TableConvertor() {
                  @Override
                  public List<TableColumnDefinition> columns() {
                    TableColumnDefinition app = new TableColumnDefinition();
                    app.setName("App");
                    app.setType("string");
                    app.setFormat("");
                    app.setDescription("the app label");
                    app.setPriority(0);
                    return List.of(app);
                  }

                  @Override
                  public List<Object> cells(Object object) {
                    return List.of(((Pod) object).getMetadata().getLabels().get("app"));
                  }
                })
            .build();
    Representation table = custom.negotiate("text/csv", PODS).representation();
    assertEquals("App\r\nweb\r\nweb\r\n", custom.respond(table, pods(), null).text());
    PodList empty = pods();
    empty.setItems(List.of());
    assertEquals("App\r\n", custom.respond(table, empty, null).text());
    assertThrows(IllegalArgumentException.class, () -> custom.respond(table, pods(), "Everything"));
  }

  @Test
  void negotiatesAndRendersFromManyThreadsAtOnce() throws Exception {
    String expected =
        get("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", PODS, pods()).text();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<String>> results = new java.util.ArrayList<>();
      for (int i = 0; i < 200; i++) {
        results.add(
            pool.submit(
                () ->
                    get(
                            "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
                            PODS,
                            pods())
                        .text()));
      }
      for (java.util.concurrent.Future<String> result : results) {
        assertEquals(expected, result.get());
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void aPrettyTable() {
    Response response = get("application/json;as=Table;g=meta.k8s.io;v=v1;pretty=1", PODS, pods());
    assertTrue(
        response.text().startsWith("{\n  \"apiVersion\": \"meta.k8s.io/v1\""), response.text());
    assertEquals("application/json;as=Table;g=meta.k8s.io;v=v1", response.contentType());
  }

  @Test
  void statusInTheServerVersion() {
    Status status = new Status();
    status.setStatus("Failure");
    status.setReason("NotFound");
    status.setCode(404);
    Endpoint endpoint = new Endpoint(CORE.withKind("Pod"), false);
    Response v1 = get("application/json;sv=v1", endpoint, status);
    assertEquals("application/json;sv=v1", v1.contentType());
    assertEquals(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"Status\",\"metadata\":{},\"status\":"
            + "\"Failure\",\"reason\":\"NotFound\",\"code\":404}",
        v1.text());
    Response v2 = get("application/json;sv=v2", endpoint, status);
    assertEquals(406, v2.status());
    assertTrue(v2.text().contains("\"reason\":\"NotAcceptable\""), v2.text());
    assertEquals(
        List.of("application/json;sv=v2: sv=v2 is not served; meta.k8s.io serves v1"),
        NEGOTIATOR.negotiate("application/json;sv=v2", endpoint).dropped());
  }

  @Test
  void partialObjectMetadataWithFallback() {
    Response response =
        get(
            "application/json;g=meta.k8s.io;v=v1;as=PartialObjectMetadata, application/json",
            PODS,
            pods());
    assertEquals(
        "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1", response.contentType());
    assertEquals(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadataList\",\"metadata\":"
            + "{\"resourceVersion\":\"11\"},\"items\":[{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":"
            + "\"PartialObjectMetadata\",\"metadata\":{\"name\":\"foo\",\"namespace\":\"example\","
            + "\"uid\":\"uid-foo\",\"resourceVersion\":\"10\",\"creationTimestamp\":"
            + "\"2024-05-01T12:00:00Z\",\"labels\":{\"app\":\"web\"}}},{\"apiVersion\":"
            + "\"meta.k8s.io/v1\",\"kind\":\"PartialObjectMetadata\",\"metadata\":{\"name\":\"bar\","
            + "\"namespace\":\"example\",\"uid\":\"uid-bar\",\"resourceVersion\":\"10\","
            + "\"creationTimestamp\":\"2024-05-01T12:00:00Z\",\"labels\":{\"app\":\"web\"}}}]}",
        response.text());
    // The proposal writes the parameters with commas, which RFC 7231 reads as separate ranges:
    // "v=v1" and "as=..." are malformed and dropped, and plain JSON is served.
    Negotiation literal =
        NEGOTIATOR.negotiate(
            "application/json;g=meta.k8s.io,v=v1,as=PartialObjectMetadata, application/json", PODS);
    assertEquals("application/json", literal.representation().contentType().toString());
    assertEquals(3, literal.dropped().size(), literal.dropped().toString());
  }

  @Test
  void scaleReadAndWrittenThroughTheGenericInterface() {
    ReplicaSet set = new ReplicaSet();
    set.setApiVersion("apps/v1");
    set.setKind("ReplicaSet");
    set.setMetadata(new ObjectMeta());
    set.getMetadata().setName("test");
    set.getMetadata().setNamespace("example");
    set.setReplicas(1);
    set.setReadyReplicas(1);
    Endpoint endpoint = new Endpoint(APPS.withKind("ReplicaSet"), false);
    Response got =
        get("application/json;g=meta.k8s.io;v=v1;as=Scale, application/json", endpoint, set);
    assertEquals("application/json;as=Scale;g=meta.k8s.io;v=v1", got.contentType());
    assertEquals(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\"test\","
            + "\"namespace\":\"example\",\"creationTimestamp\":null},\"spec\":{\"replicas\":1},"
            + "\"status\":{\"replicas\":1}}",
        got.text());
    Scale sent =
        CodecFactory.create(SCHEME)
            .json()
            .decode(
                "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"Scale\",\"spec\":{\"replicas\":2}}",
                Scale.class)
            .object();
    new ScaleWriter().write(set, sent);
    assertEquals(2, set.getReplicas());
    assertTrue(
        get("application/json;g=meta.k8s.io;v=v1;as=Scale", PODS, pods()).status() == 406,
        "pods declare no scale");
  }

  /** The PUT side: the server writes the client's Scale through the accessor it registered. */
  private static final class ScaleWriter {
    void write(ReplicaSet set, Scale scale) {
      set.setReplicas(scale.getSpec().getReplicas());
    }
  }

  @Test
  void aliases() {
    Response tabular =
        get("application/json+vnd.kubernetes.as+meta.k8s.io+v1+TabularOutput", PODS, pods());
    assertEquals("application/json;as=Table;g=meta.k8s.io;v=v1", tabular.contentType());
    assertTrue(tabular.text().contains("\"kind\":\"Table\""));
    Response exported =
        get(
            "application/json+vnd.kubernetes.export",
            new Endpoint(CORE.withKind("Pod"), false),
            pod("web"));
    assertEquals("application/json;export=1", exported.contentType());
    assertEquals(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\",\"namespace\":"
            + "\"example\",\"labels\":{\"app\":\"web\"}}}",
        exported.text());
    Response csv = get("text/csv", PODS, pods());
    assertEquals("text/csv;as=Table;g=meta.k8s.io;v=v1", csv.contentType());
    assertEquals(
        "Name,Created At\r\nfoo,2024-05-01T12:00:00Z\r\nbar,2024-05-01T12:00:00Z\r\n", csv.text());
  }

  @Test
  void rankingFollowsTheRfc() {
    assertEquals(
        Representation.Transform.NONE,
        NEGOTIATOR
            .negotiate("application/json;as=Table;g=meta.k8s.io;v=v1;q=0.5, application/json", PODS)
            .representation()
            .transform());
    assertEquals(
        Representation.Transform.TABLE,
        NEGOTIATOR
            .negotiate("application/json, application/json;as=Table;g=meta.k8s.io;v=v1", PODS)
            .representation()
            .transform(),
        "equal weights: the more specific range wins, whatever the order");
    assertEquals(
        "application/yaml",
        NEGOTIATOR
            .negotiate("application/json;q=0, */*", PODS)
            .representation()
            .contentType()
            .toString(),
        "q=0 excludes a representation that a wildcard would otherwise give");
    assertFalse(NEGOTIATOR.negotiate("application/json;q=0", PODS).acceptable());
    assertEquals(
        "application/json",
        NEGOTIATOR
            .negotiate("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", PODS)
            .representation()
            .contentType()
            .toString(),
        "a browser's header");
    assertEquals(
        "application/json",
        NEGOTIATOR.negotiate(null, PODS).representation().contentType().toString());
  }

  @Test
  void aThousandRangesAreReadToTheLast() {
    String header = "application/x-a;v=1, ".repeat(999) + "application/json";
    Negotiation negotiation = NEGOTIATOR.negotiate(header, PODS);
    assertTrue(negotiation.acceptable(), negotiation.dropped().toString());
    assertEquals("application/json", negotiation.representation().contentType().toString());
    assertEquals(
        List.of(
            "application/x-a;v=1: not a media type this server writes (application/json,"
                + " application/yaml, text/csv)",
            "and 983 more ranges dropped"),
        negotiation.dropped().subList(Negotiation.MAX_REASONS - 1, Negotiation.MAX_REASONS + 1));
    assertEquals(Negotiation.MAX_REASONS + 1, negotiation.dropped().size());
  }

  @Test
  void aParameterWithoutEqualsIsIgnoredAsGoIgnoresIt() {
    for (String header :
        List.of("application/json;foo", "application/json; foo ;", "application/json;as")) {
      Negotiation negotiation = NEGOTIATOR.negotiate(header, PODS);
      assertTrue(negotiation.acceptable(), header + " " + negotiation.dropped());
      assertEquals(
          "application/json", negotiation.representation().contentType().toString(), header);
    }
    assertEquals(
        "application/json;as=Table;g=meta.k8s.io;v=v1",
        NEGOTIATOR
            .negotiate("application/json;bare;as=Table;g=meta.k8s.io;v=v1", PODS)
            .representation()
            .contentType()
            .toString());
  }

  @Test
  void anUnterminatedQuoteDropsOnlyItsRange() {
    Negotiation negotiation =
        NEGOTIATOR.negotiate("application/json;as=\"Table, application/yaml", PODS);
    assertEquals("application/yaml", negotiation.representation().contentType().toString());
    assertEquals(
        List.of(
            "media type \"application/json;as=\"Table\": unterminated quoted string at position"
                + " 26"),
        negotiation.dropped());
  }

  @Test
  void hostileHeadersCostOnePassAndOnlyTheirOwnRanges() {
    String tooLong = "application/x-a,".repeat(AcceptHeader.MAX_LENGTH / 16) + "application/json";
    Negotiation tooMuch = NEGOTIATOR.negotiate(tooLong, PODS);
    assertFalse(tooMuch.acceptable());
    assertEquals(406, tooMuch.status().getCode());
    assertEquals(
        List.of("the Accept header is 1048592 characters long; at most 1048576 are read"),
        tooMuch.dropped());
    // At the bound: a quarter of a million ranges, read in one pass and answered.
    String longest =
        "a/b,".repeat((AcceptHeader.MAX_LENGTH - "application/json".length()) / 4)
            + "application/json";
    assertTrue(longest.length() <= AcceptHeader.MAX_LENGTH);
    Negotiation atTheBound = NEGOTIATOR.negotiate(longest, PODS);
    assertEquals("application/json", atTheBound.representation().contentType().toString());
    assertEquals(Negotiation.MAX_REASONS + 1, atTheBound.dropped().size());
    assertEquals(
        "and 262124 more ranges dropped", atTheBound.dropped().get(Negotiation.MAX_REASONS));
    String junk = ";=\"\\,".repeat((AcceptHeader.MAX_LENGTH - 20) / 5) + ",application/json";
    assertEquals(
        "application/json",
        NEGOTIATOR.negotiate(junk, PODS).representation().contentType().toString());
    String manyParameters = "application/json" + ";p=1".repeat(40);
    assertFalse(NEGOTIATOR.negotiate(manyParameters, PODS).acceptable());
    for (String bad :
        List.of(
            "application/json;q=2",
            "application/json;q=-1",
            "application/json;q=0.5555",
            "application/json;q=abc",
            "application/json;as=\"Table",
            "application",
            "*/json",
            "application/json;export=yes",
            "application/json;as=Secret;g=meta.k8s.io;v=v1",
            "application/json;g=meta.k8s.io;v=v1",
            "application/json;charset=latin1",
            "application/json;stream=watch")) {
      Negotiation negotiation = NEGOTIATOR.negotiate(bad, PODS);
      assertFalse(negotiation.acceptable(), bad);
      assertEquals(1, negotiation.dropped().size(), bad + " " + negotiation.dropped());
    }
    assertEquals(
        "media type \"application/json;q=2\": q=\"2\" is not a weight between 0 and 1 with at"
            + " most three decimals at position 19",
        NEGOTIATOR.negotiate("application/json;q=2", PODS).dropped().get(0));
    assertTrue(NEGOTIATOR.negotiate("application/json;charset=UTF-8", PODS).acceptable());
  }

  /**
   * A value an options class's own setter refuses is a {@link QueryParameterException} naming the
   * parameter and the setter's reason.
   */
  @Test
  void aValueTheOptionsRefuseNamesTheParameter() {
    GroupVersion group = GroupVersion.of("options.example.dev", "v1");
    Scheme scheme =
        MetaV1.addToScheme(Scheme.builder())
            .addKnownType(group.withKind("ListOptions"), CheckedOptions.class)
            .build();
    QueryOptions options = new QueryOptions(CodecFactory.create(scheme), Set.of());
    Map<String, List<String>> query =
        Map.of("apiVersion", List.of("options.example.dev/v1"), "limit", List.of("-3"));
    QueryParameterException refused =
        assertThrows(QueryParameterException.class, () -> options.decode(query, "ListOptions"));
    assertEquals("limit", refused.parameter());
    assertEquals("parameter \"limit\" was refused: a limit is not negative", refused.getMessage());
    assertEquals(
        4,
        ((CheckedOptions)
                options.decode(
                    Map.of("apiVersion", List.of("options.example.dev/v1"), "limit", List.of("4")),
                    "ListOptions"))
            .getLimit());
  }

  /** Options whose setter checks its value. */
  public static final class CheckedOptions {
    private String apiVersion;
    private String kind;
    private long limit;

    /** Empty options. */
    public CheckedOptions() {}

    public String getApiVersion() {
      return apiVersion;
    }

    public void setApiVersion(String apiVersion) {
      this.apiVersion = apiVersion;
    }

    public String getKind() {
      return kind;
    }

    public void setKind(String kind) {
      this.kind = kind;
    }

    public long getLimit() {
      return limit;
    }

    public void setLimit(long limit) {
      if (limit < 0) {
        throw new IllegalArgumentException("a limit is not negative");
      }
      this.limit = limit;
    }
  }

  @Test
  void versionedOptionsInQueryParameters() {
    QueryOptions options = new QueryOptions(CodecFactory.create(SCHEME), Set.of("pretty"));
    ListOptions list =
        (ListOptions)
            options.decode(
                Map.of(
                    "labelSelector", List.of("app=web"),
                    "limit", List.of("5"),
                    "watch", List.of("true"),
                    "pretty", List.of("1")),
                "ListOptions");
    assertEquals("meta.k8s.io/v1", list.getApiVersion());
    assertEquals("app=web", list.getLabelSelector());
    assertEquals(5, list.getLimit());
    assertTrue(list.isWatch());
    QueryParameterException unknownVersion =
        assertThrows(
            QueryParameterException.class,
            () ->
                options.decode(
                    Map.of("apiVersion", List.of("meta.k8s.io/v2"), "rv", List.of("10")),
                    "ListOptions"));
    assertEquals(
        "options of kind \"ListOptions\" in apiVersion \"meta.k8s.io/v2\" are not understood by"
            + " this server; it reads meta.k8s.io/v1",
        unknownVersion.getMessage());
    assertEquals("apiVersion", unknownVersion.parameter());
    assertEquals(
        "parameter \"limit\" is \"ten\"; expected a whole number",
        assertThrows(
                QueryParameterException.class,
                () -> options.decode(Map.of("limit", List.of("ten")), "ListOptions"))
            .getMessage());
    // Go's parameter codec ignores a parameter that is no field of the options (issue 21).
    assertEquals(
        "app=web",
        ((ListOptions)
                options.decode(
                    Map.of("rv", List.of("10"), "labelSelector", List.of("app=web")),
                    "ListOptions"))
            .getLabelSelector());
    // A parameter without a name (a query of "?=x") is no field either: it failed with a
    // StringIndexOutOfBoundsException, answered 500.
    Map<String, List<String>> unnamed = new java.util.HashMap<>();
    unnamed.put("", List.of("x"));
    unnamed.put("limit", List.of("7"));
    assertEquals(7, ((ListOptions) options.decode(unnamed, "ListOptions")).getLimit());
    // The option kinds are read in every group version the Scheme registers, as kube-apiserver's
    // parameter scheme binds them there, and nowhere else.
    assertEquals(
        "x",
        ((ListOptions)
                options.decode(
                    Map.of("apiVersion", List.of("apps/v1"), "labelSelector", List.of("x")),
                    "ListOptions"))
            .getLabelSelector());
    assertEquals(
        "options of kind \"ListOptions\" in apiVersion \"nowhere.dev/v1\" are not understood by"
            + " this server; it reads meta.k8s.io/v1",
        assertThrows(
                QueryParameterException.class,
                () ->
                    options.decode(Map.of("apiVersion", List.of("nowhere.dev/v1")), "ListOptions"))
            .getMessage());
    assertEquals(
        List.of("All"),
        ((dev.machinery.unversioned.meta.v1.DeleteOptions)
                options.decode(
                    Map.of("dryRun", List.of("All"), "apiVersion", List.of("v1")), "DeleteOptions"))
            .getDryRun());
  }
}
