package dev.machinery.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.client.Fixtures.Gadget;
import dev.machinery.client.transport.TransportRequest;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.CreateOptions;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.GetOptions;
import dev.machinery.unversioned.meta.v1.ListOptions;
import dev.machinery.unversioned.meta.v1.PatchOptions;
import dev.machinery.unversioned.meta.v1.Preconditions;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.UpdateOptions;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.watch.Event;
import dev.machinery.unversioned.watch.EventType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the client puts on the wire for each verb (method, path, query as Go's parameter codec
 * writes it, headers, body) and how it reads the answers, against a scripted transport.
 */
class ResourceClientTest {
  private final FakeTransport transport = new FakeTransport();
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final Client client =
      Client.builder(transport)
          .scheme(Fixtures.SCHEME)
          .restMapper(Fixtures.MAPPER)
          .rateLimiter(RateLimiter.unlimited())
          .warningHandler((code, agent, text) -> warnings.add(code + " " + agent + " " + text))
          .build();
  private final ResourceClient<Gadget> gadgets = client.resources(Gadget.class).inNamespace("ns");

  private static final String GADGET =
      "{\"apiVersion\":\"demo.dev/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"g\","
          + "\"namespace\":\"ns\",\"resourceVersion\":\"7\"},\"size\":\"big\"}";

  private TransportRequest last() {
    return transport.requests.get(transport.requests.size() - 1);
  }

  private static String body(TransportRequest request) {
    return new String(request.body(), StandardCharsets.UTF_8);
  }

  @Test
  void getReadsTheObjectAtItsPath() {
    transport.thenJson(200, GADGET);
    GetOptions options = new GetOptions();
    options.setResourceVersion("0");
    Gadget g = gadgets.get("g", options);
    assertEquals("big", g.getSize());
    assertEquals("GET", last().method());
    assertEquals(
        "/apis/demo.dev/v1/namespaces/ns/gadgets/g?resourceVersion=0",
        last().encodedPathAndQuery());
    assertEquals("application/json", last().header("Accept"));
  }

  @Test
  void listOptionsAreWrittenAsGoWritesThem() {
    transport.thenJson(
        200,
        "{\"apiVersion\":\"demo.dev/v1\",\"kind\":\"GadgetList\",\"metadata\":{},\"items\":[]}");
    ListOptions options = new ListOptions();
    options.setLabelSelector("tier in (a,b),!x");
    options.setFieldSelector("metadata.name=g");
    options.setLimit(5);
    options.setContinue("tok=");
    options.setResourceVersion("0");
    options.setResourceVersionMatch("NotOlderThan");
    options.setTimeoutSeconds(30L);
    client.resources(Gadget.class).list(options);
    assertEquals(
        "/apis/demo.dev/v1/gadgets?continue=tok%3D&fieldSelector=metadata.name%3Dg"
            + "&labelSelector=tier+in+%28a%2Cb%29%2C%21x&limit=5&resourceVersion=0"
            + "&resourceVersionMatch=NotOlderThan&timeoutSeconds=30",
        last().encodedPathAndQuery());
  }

  @Test
  void aPageCarriesTheListsMetadataAndItemsGetTheirKind() {
    transport.thenJson(
        200,
        "{\"apiVersion\":\"demo.dev/v1\",\"kind\":\"GadgetList\",\"metadata\":{\"resourceVersion\":"
            + "\"12\",\"continue\":\"next\",\"remainingItemCount\":4},\"items\":[{\"metadata\":"
            + "{\"name\":\"a\"},\"size\":\"s\"},{\"metadata\":{\"name\":\"b\"}}]}");
    ListPage<Gadget> page = gadgets.list(new ListOptions());
    assertEquals(2, page.items().size());
    assertEquals("Gadget", page.items().get(0).getKind());
    assertEquals("demo.dev/v1", page.items().get(0).getApiVersion());
    assertEquals("next", page.continueToken());
    assertEquals("12", page.resourceVersion());
    assertEquals(Optional.of(4L), page.remaining());
    assertTrue(page.hasNext());
  }

  @Test
  void listItemsAreDecodedFromTheirOwnBytesWhateverTheyHoldAndWhereverTheTypeStands() {
    transport.thenJson(
        200,
        "{\"items\":[{\"metadata\":{\"name\":\"a}{\\\"[\",\"labels\":{\"x\":\"é ☃ 😀\"}},"
            + "\"size\":\"]}\"} , {\"metadata\":{\"name\":\"b\",\"annotations\":{\"n\":\"{\\\"items\\\":[]}\"}}}],"
            + "\"metadata\":{\"resourceVersion\":\"9\"},\"extra\":{\"items\":[5],\"kind\":\"XList\"},"
            + "\"kind\":\"GadgetList\",\"apiVersion\":\"demo.dev/v1\"}");
    ListPage<Gadget> page = gadgets.list(new ListOptions());
    assertEquals(2, page.items().size());
    Gadget a = page.items().get(0);
    assertEquals("a}{\"[", a.getMetadata().getName());
    assertEquals(Map.of("x", "é ☃ 😀"), a.getMetadata().getLabels());
    assertEquals("]}", a.getSize());
    assertEquals("Gadget", a.getKind());
    assertEquals("demo.dev/v1", a.getApiVersion());
    Gadget b = page.items().get(1);
    assertEquals("b", b.getMetadata().getName());
    assertEquals(Map.of("n", "{\"items\":[]}"), b.getMetadata().getAnnotations());
    assertEquals(null, b.getSize());
    assertEquals("9", page.resourceVersion());
    assertEquals("", page.continueToken());
    assertFalse(page.hasNext());
  }

  @Test
  void aListThatIsNotAListIsADecodeErrorSayingWhy() {
    transport
        .thenJson(200, "[{\"items\":[]}]")
        .thenJson(200, "{\"kind\":\"GadgetList\",\"items\":[{\"metadata\":{\"name\":\"a\"}}")
        .thenJson(200, "{\"kind\":\"GadgetList\",\"items\":{\"a\":{}}}")
        .thenJson(200, "{\"kind\":\"GadgetList\",\"items\":[7]}")
        .thenJson(200, "{\"kind\":\"GadgetList\",\"metadata\":null,\"items\":null}");
    DecodeException notObject =
        assertThrows(DecodeException.class, () -> gadgets.list(new ListOptions()));
    assertEquals("the list is not a JSON object", notObject.getMessage());
    DecodeException truncated =
        assertThrows(DecodeException.class, () -> gadgets.list(new ListOptions()));
    assertTrue(truncated.getMessage().startsWith("the list is not JSON: "), truncated.getMessage());
    DecodeException notArray =
        assertThrows(DecodeException.class, () -> gadgets.list(new ListOptions()));
    assertEquals("items", notArray.fieldPath());
    assertThrows(DecodeException.class, () -> gadgets.list(new ListOptions()));
    ListPage<Gadget> empty = gadgets.list(new ListOptions());
    assertEquals(List.of(), empty.items());
    assertEquals("", empty.resourceVersion());
  }

  @Test
  void listAllFollowsContinueWithoutTheFirstPagesVersion() {
    transport
        .thenJson(
            200,
            "{\"kind\":\"GadgetList\",\"apiVersion\":\"demo.dev/v1\",\"metadata\":{\"continue\":\"c1\"},\"items\":[{\"metadata\":{\"name\":\"a\"}}]}")
        .thenJson(
            200,
            "{\"kind\":\"GadgetList\",\"apiVersion\":\"demo.dev/v1\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"b\"}}]}");
    ListOptions options = new ListOptions();
    options.setLimit(1);
    options.setResourceVersion("0");
    List<Gadget> all = gadgets.listAll(options);
    assertEquals(List.of("a", "b"), all.stream().map(g -> g.getMetadata().getName()).toList());
    assertEquals("0", transport.requests.get(0).parameter("resourceVersion"));
    assertEquals("c1", transport.requests.get(1).parameter("continue"));
    assertEquals(null, transport.requests.get(1).parameter("resourceVersion"));
    assertEquals("1", transport.requests.get(1).parameter("limit"));
  }

  @Test
  void writesCarryTheirOptions() {
    transport
        .thenJson(201, GADGET)
        .thenJson(200, GADGET)
        .thenJson(200, GADGET)
        .thenJson(200, GADGET);
    CreateOptions create = new CreateOptions();
    create.setDryRun(List.of("All"));
    create.setFieldManager("me");
    create.setFieldValidation("Strict");
    gadgets.create(Gadget.named("g"), create);
    assertEquals("POST", last().method());
    assertEquals(
        "/apis/demo.dev/v1/namespaces/ns/gadgets?dryRun=All&fieldManager=me&fieldValidation=Strict",
        last().encodedPathAndQuery());
    assertEquals("application/json", last().header("Content-Type"));
    assertTrue(body(last()).startsWith("{\"apiVersion\":\"demo.dev/v1\",\"kind\":\"Gadget\""));

    gadgets.update(Gadget.named("g"), new UpdateOptions());
    assertEquals(
        "PUT /apis/demo.dev/v1/namespaces/ns/gadgets/g",
        last().method() + " " + last().encodedPathAndQuery());

    gadgets.updateStatus(Gadget.named("g"), new UpdateOptions());
    assertEquals("/apis/demo.dev/v1/namespaces/ns/gadgets/g/status", last().path());

    PatchOptions patch = new PatchOptions();
    patch.setForce(false);
    gadgets.patch("g", PatchType.STRATEGIC_MERGE, "{}", patch, "status");
    assertEquals("PATCH", last().method());
    assertEquals(
        "/apis/demo.dev/v1/namespaces/ns/gadgets/g/status?force=false",
        last().encodedPathAndQuery());
    assertEquals("application/strategic-merge-patch+json", last().header("Content-Type"));
  }

  @Test
  void applyIsAnApplyPatchWithItsManagerAndForce() {
    transport.thenJson(200, GADGET);
    gadgets.apply(Gadget.named("g"), "ctl", true);
    assertEquals("PATCH", last().method());
    assertEquals(
        "/apis/demo.dev/v1/namespaces/ns/gadgets/g?fieldManager=ctl&force=true",
        last().encodedPathAndQuery());
    assertEquals("application/apply-patch+yaml", last().header("Content-Type"));
  }

  @Test
  void deleteSendsDeleteOptionsAndTellsAStatusFromTheObject() {
    transport
        .thenJson(
            200,
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\"}")
        .thenJson(200, GADGET);
    DeleteOptions options = new DeleteOptions();
    options.setPropagationPolicy("Foreground");
    options.setGracePeriodSeconds(0L);
    Preconditions preconditions = new Preconditions();
    preconditions.setResourceVersion("7");
    options.setPreconditions(preconditions);
    assertEquals(Optional.empty(), gadgets.delete("g", options));
    assertEquals("DELETE", last().method());
    assertEquals(
        "{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"DeleteOptions\",\"gracePeriodSeconds\":0,"
            + "\"preconditions\":{\"resourceVersion\":\"7\"},\"propagationPolicy\":\"Foreground\"}",
        body(last()));
    assertEquals("big", gadgets.delete("g").orElseThrow().getSize());
  }

  @Test
  void deleteCollectionSendsSelectorsAndOptions() {
    transport.thenJson(
        200,
        "{\"kind\":\"GadgetList\",\"apiVersion\":\"demo.dev/v1\",\"metadata\":{},\"items\":[]}");
    ListOptions selector = new ListOptions();
    selector.setLabelSelector("a=b");
    DeleteOptions options = new DeleteOptions();
    options.setDryRun(List.of("All"));
    gadgets.deleteCollection(options, selector);
    assertEquals(
        "DELETE /apis/demo.dev/v1/namespaces/ns/gadgets?labelSelector=a%3Db",
        last().method() + " " + last().encodedPathAndQuery());
    assertTrue(body(last()).contains("\"dryRun\":[\"All\"]"));
  }

  @Test
  void aNamespacedVerbWithoutANamespaceOrANameIsRefused() {
    ResourceClient<Gadget> anywhere = client.resources(Gadget.class);
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> anywhere.get("g"))
            .getMessage()
            .startsWith("namespace: gadgets.demo.dev are namespaced"));
    assertEquals(
        "name: resource name may not be empty",
        assertThrows(IllegalArgumentException.class, () -> gadgets.get("")).getMessage());
    assertEquals(
        "name: \"a/b\" may not be '.', '..' or contain '/' or '%'",
        assertThrows(IllegalArgumentException.class, () -> gadgets.get("a/b")).getMessage());
    assertEquals(List.of(), transport.requests);
  }

  @Test
  void aStatusBodyIsTheTypedError() {
    transport.then(
        404,
        Map.of("Content-Type", List.of("application/json")),
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
            + "\"message\":\"gadgets.demo.dev \\\"g\\\" not found\",\"reason\":\"NotFound\","
            + "\"details\":{\"name\":\"g\",\"group\":\"demo.dev\",\"kind\":\"gadgets\"},\"code\":404}");
    StatusException missing = assertThrows(StatusException.class, () -> gadgets.get("g"));
    assertTrue(ApiErrors.isNotFound(missing));
    assertEquals("gadgets.demo.dev \"g\" not found", missing.getMessage());
    assertEquals("g", missing.status().getDetails().getName());
  }

  @ParameterizedTest(name = "{0} {1} with \"{3}\"")
  @CsvSource(
      delimiter = '|',
      value = {
        "404 | GET    | text/plain       | no such thing | NotFound             | the server could not find the requested resource (get gadgets.demo.dev g)",
        "409 | POST   | text/plain       | taken         | AlreadyExists        | the server reported a conflict (post gadgets.demo.dev g)",
        "409 | PUT    | text/plain       | stale         | Conflict             | the server reported a conflict (put gadgets.demo.dev g)",
        "400 | GET    | text/plain       | what          | BadRequest           | the server rejected our request for an unknown reason (get gadgets.demo.dev g)",
        "401 | GET    | text/plain       | who           | Unauthorized         | the server has asked for the client to provide credentials (get gadgets.demo.dev g)",
        "403 | GET    | text/plain       | not you       | Forbidden            | not you (get gadgets.demo.dev g)",
        "405 | GET    | text/plain       | no            | MethodNotAllowed     | the server does not allow this method on the requested resource (get gadgets.demo.dev g)",
        "406 | GET    | application/x    | ignored       | NotAcceptable        | the server was unable to respond with a content type that the client supports (get gadgets.demo.dev g)",
        "415 | GET    | text/plain       | yaml only     | UnsupportedMediaType | yaml only (get gadgets.demo.dev g)",
        "422 | GET    | text/plain       | bad           | Invalid              | the server rejected our request due to an error in our request (get gadgets.demo.dev g)",
        "500 | GET    | text/plain       | boom          | InternalError        | an error on the server (\"boom\") has prevented the request from succeeding (get gadgets.demo.dev g)",
        "502 | GET    | application/json | {\"not\":1}   | InternalError        | an error on the server (\"{\\\"not\\\":1}\") has prevented the request from succeeding (get gadgets.demo.dev g)",
        "503 | GET    | text/plain       | later         | ServiceUnavailable   | the server is currently unable to handle the request (get gadgets.demo.dev g)",
        "504 | GET    | text/plain       | slow          | Timeout              | the server was unable to return a response in the time allotted, but may still be processing the request (get gadgets.demo.dev g)",
        "418 | GET    | text/plain       | teapot        | ''                   | the server responded with the status code 418 but did not return more information (get gadgets.demo.dev g)",
      })
  void anotherBodyGivesClientGosGenericError(
      int code, String method, String contentType, String body, String reason, String message) {
    transport.then(code, Map.of("Content-Type", List.of(contentType)), body);
    TransportRequest request =
        new TransportRequest(
            method, "/apis/demo.dev/v1/namespaces/ns/gadgets/g", Map.of(), Map.of(), null, false);
    Requests requests =
        new Requests(
            transport,
            new Codecs(
                Fixtures.SCHEME,
                dev.machinery.core.codec.CodecFactory.create(Fixtures.SCHEME),
                dev.machinery.core.codec.CodecFactory.create(Fixtures.SCHEME),
                null,
                dev.machinery.core.codec.CodecLimits.DEFAULTS),
            RateLimiter.unlimited(),
            0,
            WarningHandler.NONE,
            d -> {});
    StatusException error =
        assertThrows(
            StatusException.class,
            () ->
                requests.send(
                    request,
                    new Requests.Target(
                        dev.machinery.core.schema.GroupResource.of("demo.dev", "gadgets"), "g")));
    Status status = error.status();
    assertEquals(code, status.getCode());
    assertEquals(reason, status.getReason());
    assertEquals(message, status.getMessage());
    assertEquals("UnexpectedServerResponse", status.getDetails().getCauses().get(0).getReason());
    assertEquals(
        contentType.equals("application/x") ? "unknown" : body,
        status.getDetails().getCauses().get(0).getMessage());
  }

  @Test
  void a410IsResourceExpired() {
    transport.then(
        410,
        Map.of("Content-Type", List.of("application/json")),
        FakeTransport.status(410, "Expired", "too old resource version: 1 (40)"));
    ResourceExpiredException expired =
        assertThrows(ResourceExpiredException.class, () -> gadgets.list(new ListOptions()));
    assertTrue(ApiErrors.isResourceExpired(expired));
    assertEquals("too old resource version: 1 (40)", expired.getMessage());
  }

  @Test
  void warningsGoToTheHandler() {
    transport.then(
        200,
        Map.of(
            "Content-Type", List.of("application/json"),
            "Warning", List.of("299 - \"deprecated\"", "299 - \"unknown field \\\"x\\\"\"")),
        GADGET);
    gadgets.get("g");
    assertEquals(List.of("299 - deprecated", "299 - unknown field \"x\""), warnings);
  }

  private static String frame(String type, String object) {
    return "{\"type\":\"" + type + "\",\"object\":" + object + "}\n";
  }

  @Test
  void aWatchHandsOutEventsAndBookmarksAndTracksTheVersion() {
    transport.thenJson(
        200,
        frame("ADDED", GADGET)
            + frame(
                "BOOKMARK",
                "{\"apiVersion\":\"demo.dev/v1\",\"kind\":\"Gadget\",\"metadata\":{\"resourceVersion\":\"9\"}}")
            + frame("DELETED", GADGET.replace("\"7\"", "\"10\"")));
    ListOptions options = new ListOptions();
    options.setResourceVersion("5");
    options.setAllowWatchBookmarks(true);
    try (Watch<Gadget> watch = gadgets.watch(options)) {
      assertEquals("watch=true", last().encodedQuery().replaceAll(".*(watch=true).*", "$1"));
      assertEquals("5", watch.resourceVersion());
      Event added = watch.next();
      assertEquals(EventType.ADDED, added.type());
      assertEquals("big", ((Gadget) added.object()).getSize());
      assertEquals("7", watch.resourceVersion());
      assertEquals(EventType.BOOKMARK, watch.next().type());
      assertEquals("9", watch.resourceVersion());
      assertEquals(EventType.DELETED, watch.next().type());
      assertEquals("10", watch.resourceVersion());
      assertFalse(watch.hasNext());
    }
    assertEquals("true", last().parameter("allowWatchBookmarks"));
    assertTrue(last().streaming());
  }

  @Test
  void anErrorEventIsThrownAndA410IsResourceExpired() {
    transport
        .thenJson(
            200,
            frame("ERROR", FakeTransport.status(410, "Expired", "too old resource version: 5 (9)")))
        .thenJson(200, frame("ERROR", FakeTransport.status(500, "InternalError", "storage broke")));
    try (Watch<Gadget> watch = gadgets.watch(new ListOptions())) {
      ResourceExpiredException expired =
          assertThrows(ResourceExpiredException.class, watch::hasNext);
      assertEquals("Expired", expired.statusReason());
      assertFalse(watch.hasNext(), "the watch ends with its error");
    }
    try (Watch<Gadget> watch = gadgets.watch(new ListOptions())) {
      StatusException failed = assertThrows(StatusException.class, watch::next);
      assertTrue(ApiErrors.isInternalError(failed));
    }
  }

  @Test
  void aGarbledFrameNamesTheEvent() {
    transport.thenJson(200, frame("ADDED", GADGET) + "{\"type\":\"SIDEWAYS\",\"object\":{}}");
    try (Watch<Gadget> watch = gadgets.watch(new ListOptions())) {
      watch.next();
      dev.machinery.core.codec.DecodeException garbled =
          assertThrows(dev.machinery.core.codec.DecodeException.class, watch::next);
      assertTrue(
          garbled.getMessage().startsWith("event 2 of the watch: unknown event type \"SIDEWAYS\""),
          garbled.getMessage());
    }
  }

  @Test
  void unstructuredListsAndWatchesKeepEveryField() {
    transport
        .thenJson(
            200,
            "{\"apiVersion\":\"demo.dev/v1\",\"kind\":\"GadgetList\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"a\"},\"extra\":{\"x\":1}}]}")
        .thenJson(
            200,
            frame(
                "MODIFIED",
                "{\"apiVersion\":\"demo.dev/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"3\"},\"extra\":true}"));
    ResourceClient<Unstructured> raw = client.resources(Fixtures.GADGETS).inNamespace("ns");
    Unstructured item = raw.list(new ListOptions()).items().get(0);
    assertEquals("Gadget", item.getKind());
    assertEquals(Optional.of(1L), item.nestedLong("extra", "x"));
    try (Watch<Unstructured> watch = raw.watch(new ListOptions())) {
      Unstructured changed = (Unstructured) watch.next().object();
      assertEquals(Optional.of(true), changed.nestedBoolean("extra"));
      assertEquals("3", watch.resourceVersion());
    }
  }

  @Test
  void aClassTheSchemeDoesNotKnowIsRefused() {
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> client.resources(String.class));
    assertEquals(
        "class java.lang.String is not registered in the client's Scheme", refused.getMessage());
  }
}
