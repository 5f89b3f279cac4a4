package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.rest.GarbageCollectionPolicy;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube-apiserver's deletion rules on the server's HTTP path, as its generic registry's tests
 * (k8s.io/apiserver {@code pkg/registry/generic/registry/store_test.go}: {@code
 * TestStoreDeleteWithOrphanDependents}, {@code TestStoreDeletionPropagation}, {@code
 * TestGracefulStoreHandleFinalizers}, {@code TestGracefulStoreCanDeleteIfExistingGracePeriodZero})
 * and {@code rest/delete.go}'s {@code BeforeDelete} state them: the propagation finalizers,
 * graceful deletion, the validation of DeleteOptions, and the deletion of namespaces ({@code
 * pkg/registry/core/namespace/storage}).
 */
class DeletionServerTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final GroupVersion X = GroupVersion.of("x.dev", "v1");
  private static final GroupVersion CORE = GroupVersion.of("", "v1");
  private static final String NS = "/api/v1/namespaces";

  private ApiServer server;
  private final AtomicInteger names = new AtomicInteger();

  private static ApiServer.Builder builder() {
    return ApiServer.builder(MetaV1.addToScheme(Scheme.builder()).build())
        .addUnstructuredResource(
            ResourceDefinition.builder(GroupKind.of("", "Namespace"), false)
                .statusSubresource()
                .returnDeletedObject()
                .kindFromEndpoint()
                .build(),
            CORE,
            List.of(CORE))
        .addUnstructuredResource(
            ResourceDefinition.builder(GroupKind.of("x.dev", "Widget"), true)
                .tracksGeneration()
                .kindFromEndpoint()
                .build(),
            X,
            List.of(X))
        // A kind whose strategy orphans by default (kube's testOrphanDeleteStrategy).
        .addUnstructuredResource(
            ResourceDefinition.builder(GroupKind.of("x.dev", "Legacy"), true)
                .resource("legacies")
                .tracksGeneration()
                .kindFromEndpoint()
                .garbageCollectionPolicy(GarbageCollectionPolicy.ORPHAN_DEPENDENTS)
                .build(),
            X,
            List.of(X))
        // A kind taking no part in garbage collection.
        .addUnstructuredResource(
            ResourceDefinition.builder(GroupKind.of("x.dev", "Loner"), true)
                .kindFromEndpoint()
                .garbageCollectionPolicy(GarbageCollectionPolicy.UNSUPPORTED)
                .build(),
            X,
            List.of(X))
        // A graceful kind: the delete's period, else spec.grace, else 10.
        .addUnstructuredResource(
            ResourceDefinition.builder(GroupKind.of("x.dev", "Sleeper"), true)
                .tracksGeneration()
                .kindFromEndpoint()
                .returnDeletedObject()
                .gracefulDelete(
                    (object, requested) -> {
                      Object grace =
                          ((Map<?, ?>)
                                  ((Unstructured) object).content().getOrDefault("spec", Map.of()))
                              .get("grace");
                      return OptionalLong.of(
                          requested != null
                              ? requested
                              : grace instanceof Number n ? n.longValue() : 10);
                    })
                .build(),
            X,
            List.of(X));
  }

  @BeforeEach
  void start() {
    server = builder().build();
    assertEquals(201, call("POST", NS, "{\"metadata\":{\"name\":\"test\"}}").status());
  }

  // ---- propagation ------------------------------------------------------------------------

  /**
   * TestStoreDeleteWithOrphanDependents's table: the existing finalizers, the delete's options
   * (query), the resource (widgets: background by default; legacies: orphan by default), whether
   * the object is gone, and the finalizers it is kept with (marked deleted, grace period 0, its
   * generation bumped).
   */
  @ParameterizedTest(name = "[{index}] {0} {1} on {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          foo.com/x,orphan,bar.com/y | orphanDependents=true  | widgets  | false | foo.com/x,orphan,bar.com/y
          foo.com/x,bar.com/y        | orphanDependents=true  | widgets  | false | foo.com/x,bar.com/y,orphan
          ''                         | orphanDependents=true  | widgets  | false | orphan
          orphan                     | orphanDependents=true  | widgets  | false | orphan
          foo.com/x,orphan,bar.com/y | orphanDependents=false | legacies | false | foo.com/x,bar.com/y
          foo.com/x,bar.com/y        | orphanDependents=false | legacies | false | foo.com/x,bar.com/y
          ''                         | orphanDependents=false | legacies | true  | ''
          orphan                     | orphanDependents=false | legacies | true  | ''
          foo.com/x,orphan,bar.com/y | ''                     | widgets  | false | foo.com/x,orphan,bar.com/y
          foo.com/x,orphan,bar.com/y | ''                     | legacies | false | foo.com/x,orphan,bar.com/y
          foo.com/x,bar.com/y        | ''                     | widgets  | false | foo.com/x,bar.com/y
          foo.com/x,bar.com/y        | ''                     | legacies | false | foo.com/x,bar.com/y,orphan
          ''                         | ''                     | widgets  | true  | ''
          ''                         | ''                     | legacies | false | orphan
          orphan                     | ''                     | widgets  | false | orphan
          orphan                     | ''                     | legacies | false | orphan
          """)
  void orphanDependents(
      String existing, String query, String resource, boolean gone, String finalizers) {
    checkDelete(existing, query, resource, gone, finalizers);
  }

  /**
   * TestStoreDeletionPropagation's table: the existing finalizers, the propagation policy, the
   * resource, whether the object is gone, and the finalizers it is kept with.
   */
  @ParameterizedTest(name = "[{index}] {0} {1} on {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''                 | propagationPolicy=Foreground | widgets  | false | foregroundDeletion
          ''                 | propagationPolicy=Foreground | legacies | false | foregroundDeletion
          ''                 | propagationPolicy=Background | widgets  | true  | ''
          ''                 | propagationPolicy=Background | legacies | true  | ''
          ''                 | propagationPolicy=Orphan     | widgets  | false | orphan
          ''                 | propagationPolicy=Orphan     | legacies | false | orphan
          ''                 | ''                           | widgets  | true  | ''
          ''                 | ''                           | legacies | false | orphan
          orphan             | propagationPolicy=Foreground | widgets  | false | foregroundDeletion
          orphan             | propagationPolicy=Foreground | legacies | false | foregroundDeletion
          orphan             | propagationPolicy=Background | widgets  | true  | ''
          orphan             | propagationPolicy=Background | legacies | true  | ''
          orphan             | propagationPolicy=Orphan     | widgets  | false | orphan
          orphan             | propagationPolicy=Orphan     | legacies | false | orphan
          orphan             | ''                           | widgets  | false | orphan
          orphan             | ''                           | legacies | false | orphan
          foregroundDeletion | propagationPolicy=Foreground | widgets  | false | foregroundDeletion
          foregroundDeletion | propagationPolicy=Foreground | legacies | false | foregroundDeletion
          foregroundDeletion | propagationPolicy=Background | widgets  | true  | ''
          foregroundDeletion | propagationPolicy=Background | legacies | true  | ''
          foregroundDeletion | propagationPolicy=Orphan     | widgets  | false | orphan
          foregroundDeletion | propagationPolicy=Orphan     | legacies | false | orphan
          foregroundDeletion | ''                           | widgets  | false | foregroundDeletion
          foregroundDeletion | ''                           | legacies | false | foregroundDeletion
          orphan             | propagationPolicy=Foreground | loners   | true  | ''
          foo.com/x,orphan   | propagationPolicy=Orphan     | loners   | false | foo.com/x
          ''                 | propagationPolicy=Orphan     | loners   | true  | ''
          """)
  void propagation(
      String existing, String query, String resource, boolean gone, String finalizers) {
    checkDelete(existing, query, resource, gone, finalizers);
  }

  private void checkDelete(
      String existing, String query, String resource, boolean gone, String finalizers) {
    String name = "o" + names.incrementAndGet();
    String path = create(resource, name, existing);
    ApiResponse deleted = call("DELETE", path + (query.isEmpty() ? "" : "?" + query), null);
    // 202 only when the object stays and orphanDependents=false was asked.
    int expected = !gone && query.equals("orphanDependents=false") ? 202 : 200;
    assertEquals(expected, deleted.status(), text(deleted));
    ApiResponse read = call("GET", path, null);
    if (gone) {
      assertEquals(404, read.status(), text(read));
      return;
    }
    JsonNode object = json(read);
    assertEquals(list(finalizers), strings(object.at("/metadata/finalizers")), text(read));
    assertFalse(object.at("/metadata/deletionTimestamp").isMissingNode());
    assertEquals(0, object.at("/metadata/deletionGracePeriodSeconds").asLong(-1));
    if (!resource.equals("loners")) {
      assertEquals(2, object.at("/metadata/generation").asLong(), "the generation is bumped");
    }
    assertEquals(json(deleted).at("/metadata"), object.at("/metadata"), "answered with it");
  }

  @Test
  void aSecondDeleteReplacesThePropagationFinalizerAndKeepsTheTimestamp() {
    String path = create("widgets", "twice", "example.com/hold");
    JsonNode first = json(call("DELETE", path + "?propagationPolicy=Foreground", null));
    assertEquals(
        List.of("example.com/hold", "foregroundDeletion"),
        strings(first.at("/metadata/finalizers")));
    JsonNode second = json(call("DELETE", path + "?propagationPolicy=Orphan", null));
    assertEquals(List.of("example.com/hold", "orphan"), strings(second.at("/metadata/finalizers")));
    assertEquals(first.at("/metadata/deletionTimestamp"), second.at("/metadata/deletionTimestamp"));
    assertEquals(2, second.at("/metadata/generation").asLong(), "bumped once");
    // The same policy again changes nothing.
    JsonNode third = json(call("DELETE", path + "?propagationPolicy=Orphan", null));
    assertEquals(second.at("/metadata"), third.at("/metadata"));
  }

  @Test
  void theLastFinalizerRemovedByAnUpdateRemovesTheObject() throws IOException {
    String path = create("widgets", "held", "example.com/hold");
    assertEquals(200, call("DELETE", path, null).status());
    ApiResponse patched =
        call("PATCH", path, "{\"metadata\":{\"finalizers\":null}}", "application/merge-patch+json");
    assertEquals(200, patched.status(), text(patched));
    assertEquals(404, call("GET", path, null).status());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ?orphanDependents=true&propagationPolicy=Foreground | propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set
          ?propagationPolicy=Sideways | propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"
          """)
  void deleteOptionsAreValidatedAsKubeDoes(String query, String message) {
    create("widgets", "kept", "");
    ApiResponse refused =
        call("DELETE", "/apis/x.dev/v1/namespaces/test/widgets/kept" + query, null);
    assertEquals(422, refused.status(), text(refused));
    JsonNode status = json(refused);
    assertEquals(
        "DeleteOptions.meta.k8s.io \"\" is invalid: " + message, status.path("message").asText());
    assertEquals("Invalid", status.path("reason").asText());
    assertEquals(200, call("GET", "/apis/x.dev/v1/namespaces/test/widgets/kept", null).status());
  }

  /** BeforeDelete's preconditions name the kind; the namespace registry's say "Precondition". */
  @Test
  void preconditionsAreWordedAsKubeWordsThem() {
    String path = create("widgets", "pre", "");
    ApiResponse uid = call("DELETE", path, "{\"preconditions\":{\"uid\":\"other\"}}");
    assertEquals(409, uid.status(), text(uid));
    String actual = json(call("GET", path, null)).at("/metadata/uid").asText();
    assertEquals(
        "Operation cannot be fulfilled on Widget.x.dev \"pre\": the UID in the precondition"
            + " (other) does not match the UID in record ("
            + actual
            + "). The object might have been deleted and then recreated",
        json(uid).path("message").asText());
    ApiResponse version = call("DELETE", path, "{\"preconditions\":{\"resourceVersion\":\"1\"}}");
    assertEquals(409, version.status(), text(version));
    assertTrue(
        json(version)
            .path("message")
            .asText()
            .startsWith(
                "Operation cannot be fulfilled on Widget.x.dev \"pre\": the ResourceVersion in the"
                    + " precondition (1) does not match the ResourceVersion in record ("),
        text(version));
    ApiResponse namespace = call("DELETE", NS + "/test", "{\"preconditions\":{\"uid\":\"other\"}}");
    assertEquals(409, namespace.status(), text(namespace));
    assertTrue(
        json(namespace)
            .path("message")
            .asText()
            .startsWith(
                "Operation cannot be fulfilled on namespaces \"test\": Precondition failed: UID in"
                    + " precondition: other, UID in object meta: "),
        text(namespace));
  }

  @Test
  void bothOptionsInTheBodyAreRefusedToo() {
    create("widgets", "body", "");
    ApiResponse refused =
        call(
            "DELETE",
            "/apis/x.dev/v1/namespaces/test/widgets/body",
            "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"orphanDependents\":false,"
                + "\"propagationPolicy\":\"Orphan\"}");
    assertEquals(422, refused.status(), text(refused));
    assertEquals(
        "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: \"Orphan\":"
            + " orphanDependents and deletionPropagation cannot be both set",
        json(refused).path("message").asText());
  }

  @Test
  void aCollectionIsDeletedWithTheCollectionsPolicy() {
    create("widgets", "c1", "");
    create("widgets", "c2", "");
    ApiResponse deleted =
        call("DELETE", "/apis/x.dev/v1/namespaces/test/widgets?propagationPolicy=Orphan", null);
    assertEquals(200, deleted.status(), text(deleted));
    for (String name : List.of("c1", "c2")) {
      JsonNode kept = json(call("GET", "/apis/x.dev/v1/namespaces/test/widgets/" + name, null));
      assertEquals(List.of("orphan"), strings(kept.at("/metadata/finalizers")));
    }
  }

  @Test
  void aDryRunStoresNoFinalizer() {
    String path = create("widgets", "dry", "");
    JsonNode answered = json(call("DELETE", path + "?dryRun=All&propagationPolicy=Orphan", null));
    assertEquals(List.of("orphan"), strings(answered.at("/metadata/finalizers")));
    JsonNode stored = json(call("GET", path, null));
    assertTrue(stored.at("/metadata/finalizers").isMissingNode(), stored.toString());
    assertTrue(stored.at("/metadata/deletionTimestamp").isMissingNode(), stored.toString());
  }

  // ---- graceful deletion ------------------------------------------------------------------

  @Test
  void aGracefulKindIsMarkedWithItsPeriodAndAFurtherDeleteMayOnlyShortenIt() {
    String path = create("sleepers", "s", "");
    ApiResponse first = call("DELETE", path, null);
    assertEquals(200, first.status(), text(first));
    JsonNode marked = json(first);
    assertEquals(10, marked.at("/metadata/deletionGracePeriodSeconds").asLong());
    assertEquals(2, marked.at("/metadata/generation").asLong());
    Instant at = Instant.parse(marked.at("/metadata/deletionTimestamp").asText());
    Instant created = Instant.parse(marked.at("/metadata/creationTimestamp").asText());
    assertFalse(at.isBefore(created.plusSeconds(10)), "deleted at now + 10s");
    // A longer or equal period changes nothing.
    assertEquals(marked, json(call("DELETE", path + "?gracePeriodSeconds=20", null)));
    assertEquals(marked, json(call("DELETE", path + "?gracePeriodSeconds=10", null)));
    assertEquals(marked, json(call("DELETE", path, null)));
    // A shorter one moves the timestamp back by the difference.
    JsonNode shorter = json(call("DELETE", path + "?gracePeriodSeconds=4", null));
    assertEquals(4, shorter.at("/metadata/deletionGracePeriodSeconds").asLong());
    assertEquals(
        Duration.ofSeconds(6),
        Duration.between(Instant.parse(shorter.at("/metadata/deletionTimestamp").asText()), at));
    assertEquals(2, shorter.at("/metadata/generation").asLong(), "bumped once");
    // Period 0 removes it.
    ApiResponse now = call("DELETE", path + "?gracePeriodSeconds=0", null);
    assertEquals(200, now.status(), text(now));
    assertEquals(0, json(now).at("/metadata/deletionGracePeriodSeconds").asLong(-1));
    assertEquals(404, call("GET", path, null).status());
  }

  @ParameterizedTest
  @CsvSource({"-5, 1", "0, -1", "3, 3"})
  void aNegativePeriodIsOneSecondAndZeroDeletesAtOnce(long asked, long kept) {
    String path = create("sleepers", "n" + names.incrementAndGet(), "");
    ApiResponse deleted = call("DELETE", path + "?gracePeriodSeconds=" + asked, null);
    assertEquals(200, deleted.status(), text(deleted));
    ApiResponse read = call("GET", path, null);
    if (kept < 0) {
      assertEquals(404, read.status());
    } else {
      assertEquals(kept, json(read).at("/metadata/deletionGracePeriodSeconds").asLong());
    }
  }

  /** TestGracefulStoreHandleFinalizers: finalizers hold a gracelessly deleted object. */
  @Test
  void finalizersHoldAGracefulKindDeletedWithPeriodZero() {
    String path = create("sleepers", "f", "example.com/hold");
    JsonNode marked = json(call("DELETE", path + "?gracePeriodSeconds=0", null));
    assertEquals(0, marked.at("/metadata/deletionGracePeriodSeconds").asLong(-1));
    assertEquals(200, call("GET", path, null).status());
    // Period 0 left: removing the finalizer removes it.
    ApiResponse patched =
        call("PATCH", path, "{\"metadata\":{\"finalizers\":null}}", "application/merge-patch+json");
    assertEquals(200, patched.status(), text(patched));
    assertEquals(404, call("GET", path, null).status());
  }

  /** ShouldDeleteDuringUpdate: a running grace period keeps an object its finalizers left. */
  @Test
  void removingTheFinalizersDuringAGracePeriodKeepsTheObjectUntilPeriodZero() {
    String path = create("sleepers", "g", "example.com/hold");
    assertEquals(
        30,
        json(call("DELETE", path + "?gracePeriodSeconds=30", null))
            .at("/metadata/deletionGracePeriodSeconds")
            .asLong());
    ApiResponse patched =
        call("PATCH", path, "{\"metadata\":{\"finalizers\":null}}", "application/merge-patch+json");
    assertEquals(200, patched.status(), text(patched));
    assertEquals(200, call("GET", path, null).status(), "kept while the period runs");
    assertEquals(200, call("DELETE", path + "?gracePeriodSeconds=0", null).status());
    assertEquals(404, call("GET", path, null).status());
  }

  @Test
  void aNonGracefulKindIgnoresTheGracePeriod() {
    String path = create("widgets", "ignored", "");
    assertEquals(200, call("DELETE", path + "?gracePeriodSeconds=30", null).status());
    assertEquals(404, call("GET", path, null).status());
  }

  // ---- namespaces -------------------------------------------------------------------------

  @Test
  void withoutCleanupADeletedNamespaceIsTerminatingUntilFinalized() {
    server = builder().namespaceContentCleanup(false).build();
    assertEquals(
        201,
        call(
                "POST",
                NS,
                "{\"metadata\":{\"name\":\"doomed\"},\"spec\":{\"finalizers\":[\"kubernetes\"]}}")
            .status());
    assertEquals(201, call("POST", xPath("doomed", "widgets"), widget("w", "")).status());
    ApiResponse deleted = call("DELETE", NS + "/doomed", null);
    assertEquals(200, deleted.status(), text(deleted));
    JsonNode marked = json(deleted);
    assertEquals("Terminating", marked.at("/status/phase").asText());
    assertFalse(marked.at("/metadata/deletionTimestamp").isMissingNode());
    assertTrue(marked.at("/metadata/deletionGracePeriodSeconds").isMissingNode());
    assertEquals(List.of("kubernetes"), strings(marked.at("/spec/finalizers")));
    // The content stays (a namespace controller deletes it) and nothing new may be created.
    assertEquals(200, call("GET", xPath("doomed", "widgets") + "/w", null).status());
    ApiResponse refused = call("POST", xPath("doomed", "widgets"), widget("v", ""));
    assertEquals(403, refused.status());
    assertEquals(
        "widgets.x.dev \"v\" is forbidden: unable to create new content in namespace doomed"
            + " because it is being terminated",
        json(refused).path("message").asText());
    // A further delete answers it unchanged while spec.finalizers hold it.
    assertEquals(marked, json(call("DELETE", NS + "/doomed", null)));
    // finalize is written with PUT only.
    assertEquals(405, call("GET", NS + "/doomed/finalize", null).status());
    assertEquals(
        405, call("PATCH", NS + "/doomed/finalize", "{}", "application/merge-patch+json").status());
    ApiResponse finalized =
        call(
            "PUT",
            NS + "/doomed/finalize",
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"doomed\"},"
                + "\"spec\":{\"finalizers\":[]}}");
    assertEquals(200, finalized.status(), text(finalized));
    assertEquals(404, call("GET", NS + "/doomed", null).status(), "gone once finalized");
  }

  @Test
  void aNamespaceWithoutSpecFinalizersGoesOnTheSecondDelete() {
    server = builder().namespaceContentCleanup(false).build();
    assertEquals(201, call("POST", NS, "{\"metadata\":{\"name\":\"bare\"}}").status());
    assertEquals(
        "Terminating", json(call("DELETE", NS + "/bare", null)).at("/status/phase").asText());
    assertEquals(200, call("GET", NS + "/bare", null).status());
    assertEquals(200, call("DELETE", NS + "/bare", null).status());
    assertEquals(404, call("GET", NS + "/bare", null).status());
  }

  @Test
  void aNamespacesPropagationFinalizerOutlivesItsSpecFinalizers() {
    server = builder().namespaceContentCleanup(false).build();
    assertEquals(
        201,
        call(
                "POST",
                NS,
                "{\"metadata\":{\"name\":\"fg\"},\"spec\":{\"finalizers\":[\"kubernetes\"]}}")
            .status());
    JsonNode marked = json(call("DELETE", NS + "/fg?propagationPolicy=Foreground", null));
    assertEquals(List.of("foregroundDeletion"), strings(marked.at("/metadata/finalizers")));
    // orphanDependents=false on a namespace being deleted: the answer is 202 with the namespace.
    ApiResponse again = call("DELETE", NS + "/fg?orphanDependents=false", null);
    assertEquals(202, again.status(), text(again));
    ApiResponse finalized =
        call(
            "PUT",
            NS + "/fg/finalize",
            "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"fg\","
                + "\"finalizers\":[\"foregroundDeletion\"]},\"spec\":{\"finalizers\":[]}}");
    assertEquals(200, finalized.status(), text(finalized));
    assertEquals(200, call("GET", NS + "/fg", null).status(), "its metadata.finalizers hold it");
    ApiResponse released =
        call(
            "PATCH",
            NS + "/fg",
            "{\"metadata\":{\"finalizers\":null}}",
            "application/merge-patch+json");
    assertEquals(200, released.status(), text(released));
    assertEquals(404, call("GET", NS + "/fg", null).status());
  }

  /**
   * The namespace registry's TestDeleteWithGCFinalizers table: a namespace's existing propagation
   * finalizer, the first delete's options, and the finalizers the marked namespace is answered
   * with.
   */
  @ParameterizedTest(name = "[{index}] {0} {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          orphan             | ''                           | orphan
          foregroundDeletion | ''                           | foregroundDeletion
          ''                 | ''                           | ''
          orphan             | propagationPolicy=Background | ''
          foregroundDeletion | propagationPolicy=Background | ''
          ''                 | propagationPolicy=Background | ''
          orphan             | propagationPolicy=Foreground | foregroundDeletion
          foregroundDeletion | propagationPolicy=Foreground | foregroundDeletion
          ''                 | propagationPolicy=Foreground | foregroundDeletion
          orphan             | propagationPolicy=Orphan     | orphan
          foregroundDeletion | propagationPolicy=Orphan     | orphan
          ''                 | propagationPolicy=Orphan     | orphan
          orphan             | orphanDependents=true        | orphan
          foregroundDeletion | orphanDependents=true        | orphan
          ''                 | orphanDependents=true        | orphan
          """)
  void aNamespacesPropagationFinalizersAsKubesNamespaceRegistrySetsThem(
      String existing, String query, String remaining) {
    server = builder().namespaceContentCleanup(false).build();
    String name = "gc" + names.incrementAndGet();
    String finalizers = existing.isEmpty() ? "" : ",\"finalizers\":[\"" + existing + "\"]";
    ApiResponse created =
        call(
            "POST",
            NS,
            "{\"metadata\":{\"name\":\""
                + name
                + "\""
                + finalizers
                + "},\"spec\":{\"finalizers\":[]}}");
    assertEquals(201, created.status(), text(created));
    ApiResponse deleted =
        call("DELETE", NS + "/" + name + (query.isEmpty() ? "" : "?" + query), null);
    assertEquals(200, deleted.status(), text(deleted));
    JsonNode marked = json(deleted);
    assertEquals(list(remaining), strings(marked.at("/metadata/finalizers")), text(deleted));
    assertEquals("Terminating", marked.at("/status/phase").asText());
  }

  @Test
  void withCleanupTheServerDeletesTheContentAndFinalizes() {
    assertEquals(
        201,
        call(
                "POST",
                NS,
                "{\"metadata\":{\"name\":\"tidy\"},\"spec\":{\"finalizers\":[\"kubernetes\"]}}")
            .status());
    assertEquals(201, call("POST", xPath("tidy", "widgets"), widget("a", "")).status());
    assertEquals(201, call("POST", xPath("tidy", "sleepers"), widget("b", "")).status());
    ApiResponse deleted = call("DELETE", NS + "/tidy", null);
    assertEquals(200, deleted.status(), text(deleted));
    assertEquals("Namespace", json(deleted).path("kind").asText());
    assertEquals(404, call("GET", NS + "/tidy", null).status());
    assertEquals(404, call("GET", xPath("tidy", "widgets") + "/a", null).status());
    assertEquals(404, call("GET", xPath("tidy", "sleepers") + "/b", null).status());
  }

  /**
   * With the server's cleanup, a namespace whose spec.finalizers are empty goes with its first
   * delete (kube's registry marks it, and the cleanup, as kube's namespace controller, finds
   * nothing to wait for).
   */
  @Test
  void withCleanupANamespaceWithoutSpecFinalizersGoesAtOnce() {
    assertEquals(
        201,
        call("POST", NS, "{\"metadata\":{\"name\":\"empty\"},\"spec\":{\"finalizers\":[]}}")
            .status());
    ApiResponse deleted = call("DELETE", NS + "/empty", null);
    assertEquals(200, deleted.status(), text(deleted));
    assertEquals("Terminating", json(deleted).at("/status/phase").asText());
    assertEquals(404, call("GET", NS + "/empty", null).status());
  }

  @Test
  void withCleanupContentHeldByFinalizersKeepsTheNamespaceTerminating() {
    assertEquals(201, call("POST", NS, "{\"metadata\":{\"name\":\"stuck\"}}").status());
    assertEquals(
        201, call("POST", xPath("stuck", "widgets"), widget("held", "example.com/hold")).status());
    JsonNode marked = json(call("DELETE", NS + "/stuck", null));
    assertEquals("Terminating", marked.at("/status/phase").asText());
    assertEquals(200, call("GET", NS + "/stuck", null).status());
    ApiResponse released =
        call(
            "PATCH",
            xPath("stuck", "widgets") + "/held",
            "{\"metadata\":{\"finalizers\":null}}",
            "application/merge-patch+json");
    assertEquals(200, released.status(), text(released));
    assertEquals(200, call("DELETE", NS + "/stuck", null).status());
    assertEquals(404, call("GET", NS + "/stuck", null).status());
  }

  @Test
  void withCleanupANamespaceWithOtherSpecFinalizersWaitsForThem() {
    assertEquals(
        201,
        call(
                "POST",
                NS,
                "{\"metadata\":{\"name\":\"other\"},\"spec\":{\"finalizers\":[\"kubernetes\",\"example.com/x\"]}}")
            .status());
    call("DELETE", NS + "/other", null);
    JsonNode kept = json(call("GET", NS + "/other", null));
    assertEquals(List.of("example.com/x"), strings(kept.at("/spec/finalizers")));
    assertEquals("Terminating", kept.at("/status/phase").asText());
  }

  // ---- helpers ----------------------------------------------------------------------------

  private static String xPath(String namespace, String resource) {
    return "/apis/x.dev/v1/namespaces/" + namespace + "/" + resource;
  }

  private String create(String resource, String name, String finalizers) {
    ApiResponse created = call("POST", xPath("test", resource), widget(name, finalizers));
    assertEquals(201, created.status(), text(created));
    return xPath("test", resource) + "/" + name;
  }

  private static String widget(String name, String finalizers) {
    StringBuilder list = new StringBuilder();
    for (String f : list(finalizers)) {
      list.append(list.length() == 0 ? "" : ",").append('"').append(f).append('"');
    }
    return "{\"metadata\":{\"name\":\""
        + name
        + "\""
        + (list.length() == 0 ? "" : ",\"finalizers\":[" + list + "]")
        + "},\"spec\":{\"size\":1}}";
  }

  private static List<String> list(String commaSeparated) {
    return commaSeparated == null || commaSeparated.isEmpty()
        ? List.of()
        : List.of(commaSeparated.split(","));
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private ApiResponse call(String method, String path, String body) {
    return call(method, path, body, "application/json");
  }

  private ApiResponse call(String method, String path, String body, String contentType) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    if (body != null) {
      headers.put("Content-Type", List.of(contentType));
    }
    String query = "";
    int q = path.indexOf('?');
    Map<String, List<String>> parameters = new LinkedHashMap<>();
    if (q >= 0) {
      query = path.substring(q + 1);
      path = path.substring(0, q);
      for (String pair : query.split("&")) {
        int eq = pair.indexOf('=');
        parameters
            .computeIfAbsent(pair.substring(0, eq), k -> new ArrayList<>())
            .add(pair.substring(eq + 1));
      }
    }
    return server.handle(
        new ApiRequest(
            method,
            path,
            parameters,
            headers,
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String text(ApiResponse response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  private static JsonNode json(ApiResponse response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError(text(response), e);
    }
  }
}
