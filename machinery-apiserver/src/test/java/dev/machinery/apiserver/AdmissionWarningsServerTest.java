package dev.machinery.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionException;
import dev.machinery.apiserver.admission.AdmissionRecorder;
import dev.machinery.apiserver.admission.MutatingAdmissionPlugin;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ValidatingAdmissionPlugin;
import dev.machinery.apiserver.audit.AuditEvent;
import dev.machinery.apiserver.audit.AuditPolicy;
import dev.machinery.apiserver.audit.Stage;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.RbacV1;
import dev.machinery.apiserver.registry.AdmissionNotes;
import dev.machinery.apiserver.registry.rest.ResourceDefinition;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.MetaV1;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What admission plugins add to a write with {@link AdmissionAttributes#addWarning} and {@link
 * AdmissionAttributes#addAuditAnnotation} reaches the client as {@code Warning} headers and the
 * request's audit event, as kube-apiserver's warning recorder and {@code AddAnnotation} deliver
 * them: on creates, updates, patches and deletes, from mutating and validating plugins, and (the
 * annotations) on a refused write too.
 */
class AdmissionWarningsServerTest {
  private static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/ns/roles";
  private static final UserInfo JANE = UserInfo.of("jane", List.of("system:authenticated"));

  private final Map<String, AuditEvent> events = new ConcurrentHashMap<>();
  private ApiServer server;

  @BeforeEach
  void start() {
    Scheme scheme = RbacV1.addToScheme(MetaV1.addToScheme(Scheme.builder())).build();
    MutatingAdmissionPlugin mutating =
        new MutatingAdmissionPlugin() {
          @Override
          public String name() {
            return "Noting";
          }

          @Override
          public Object admit(AdmissionAttributes a) {
            a.addWarning("noted by a mutating plugin on " + a.operation());
            a.addAuditAnnotation("noting.example.com/operation", a.operation().toString());
            return a.object();
          }
        };
    ValidatingAdmissionPlugin validating =
        new ValidatingAdmissionPlugin() {
          @Override
          public String name() {
            return "Warning";
          }

          @Override
          public void validate(AdmissionAttributes a) {
            if (a.name().startsWith("warn-")) {
              a.addWarning("the name \"" + a.name() + "\" is discouraged");
              // Repeated: sent once.
              a.addWarning("the name \"" + a.name() + "\" is discouraged");
            }
            a.addAuditAnnotation("warning.example.com/checked", a.name());
            // The first value of a key stays.
            a.addAuditAnnotation("noting.example.com/operation", "overwritten");
            if (a.name().startsWith("forbidden-")) {
              throw new AdmissionException("names starting with forbidden- are refused");
            }
          }
        };
    server =
        ApiServer.builder(scheme)
            .addResource(
                ResourceDefinition.builder(GroupKind.of(RbacV1.GROUP, "Role"), true).build())
            .admission(mutating)
            .admission(validating)
            .audit(
                AuditPolicy.parse(
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\n"
                        + "rules:\n- level: Metadata\n"),
                event -> {
                  if (event.stage() == Stage.RESPONSE_COMPLETE) {
                    events.put(event.auditId(), event);
                  }
                })
            .build();
  }

  @Test
  void warningsOfMutatingAndValidatingPluginsAreHeadersInOrder() {
    ApiResponse created = call("POST", ROLES, role("warn-me"), "application/json");
    assertEquals(201, created.status());
    assertEquals(
        List.of(
            "299 - \"noted by a mutating plugin on CREATE\"",
            "299 - \"the name \\\"warn-me\\\" is discouraged\""),
        created.headers().get("Warning"));
    Map<String, String> annotations = annotations(created);
    assertEquals("CREATE", annotations.get("noting.example.com/operation"));
    assertEquals("warn-me", annotations.get("warning.example.com/checked"));
  }

  @Test
  void updatesPatchesAndDeletesCarryThemToo() {
    assertEquals(201, call("POST", ROLES, role("r"), "application/json").status());
    ApiResponse updated = call("PUT", ROLES + "/r", role("r"), "application/json");
    assertEquals(200, updated.status());
    assertEquals(
        List.of("299 - \"noted by a mutating plugin on UPDATE\""),
        updated.headers().get("Warning"));
    assertEquals("UPDATE", annotations(updated).get("noting.example.com/operation"));
    ApiResponse patched =
        call(
            "PATCH",
            ROLES + "/r",
            "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}",
            "application/merge-patch+json");
    assertEquals(200, patched.status());
    assertEquals(
        List.of("299 - \"noted by a mutating plugin on UPDATE\""),
        patched.headers().get("Warning"));
    ApiResponse deleted = call("DELETE", ROLES + "/r", null, null);
    assertEquals(200, deleted.status());
    assertEquals(
        List.of("299 - \"noted by a mutating plugin on DELETE\""),
        deleted.headers().get("Warning"));
    assertEquals("DELETE", annotations(deleted).get("noting.example.com/operation"));
  }

  @Test
  void aRefusedWriteKeepsItsAuditAnnotations() {
    ApiResponse refused = call("POST", ROLES, role("forbidden-1"), "application/json");
    assertEquals(403, refused.status());
    Map<String, String> annotations = annotations(refused);
    assertEquals("forbidden-1", annotations.get("warning.example.com/checked"));
    assertEquals("CREATE", annotations.get("noting.example.com/operation"));
  }

  @Test
  void aRefusedWriteCarriesTheWarningsGivenBeforeTheRefusal() {
    // kube-apiserver's warning recorder writes its headers whatever the status: kubectl prints
    // "Warning: ..." above the refusal.
    ApiResponse refused = call("POST", ROLES, role("forbidden-2"), "application/json");
    assertEquals(403, refused.status());
    assertEquals(
        List.of("299 - \"noted by a mutating plugin on CREATE\""),
        refused.headers().get("Warning"));
    assertEquals(201, call("POST", ROLES, role("r"), "application/json").status());
    ApiResponse refusedDelete = call("DELETE", ROLES + "/forbidden-3", null, null);
    assertEquals(404, refusedDelete.status());
    assertEquals(null, refusedDelete.headers().get("Warning"), "nothing admitted, nothing warned");
  }

  @Test
  void blankWarningsAndKeysAreRefusedNamingThem() {
    AdmissionNotes notes = new AdmissionNotes();
    AdmissionAttributes a =
        new AdmissionAttributes(
            Operation.CREATE,
            GroupVersionKind.of(RbacV1.GROUP, "v1", "Role"),
            GroupResource.of(RbacV1.GROUP, "roles"),
            "",
            "ns",
            "r",
            null,
            null,
            JANE,
            false,
            notes);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> a.addWarning(" "));
    assertEquals(
        "admission warning for roles.rbac.authorization.k8s.io \"r\" is blank", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> a.addAuditAnnotation("", "v"));
    assertEquals("audit annotation key is blank (value \"v\")", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> a.addAuditAnnotation("k", null));
    assertEquals("audit annotation \"k\" has no value", e.getMessage());
    a.withObject(null).addWarning("kept by the copy");
    assertEquals(List.of("kept by the copy"), notes.warnings());
    AdmissionAttributes outside =
        new AdmissionAttributes(
            Operation.CREATE,
            GroupVersionKind.of(RbacV1.GROUP, "v1", "Role"),
            GroupResource.of(RbacV1.GROUP, "roles"),
            "",
            "ns",
            "r",
            null,
            null,
            JANE,
            false);
    assertEquals(AdmissionRecorder.NONE, outside.recorder());
  }

  private Map<String, String> annotations(ApiResponse response) {
    String id = response.header(AuditEvent.AUDIT_ID_HEADER);
    assertNotNull(id, "no Audit-ID header");
    AuditEvent event = events.get(id);
    assertNotNull(event, "no ResponseComplete event for " + id);
    return event.annotations();
  }

  private ApiResponse call(String method, String path, String body, String type) {
    return server.handleAs(
        JANE,
        new ApiRequest(
            method,
            path,
            Map.of(),
            type == null ? Map.of() : Map.of("Content-Type", List.of(type)),
            new ByteArrayInputStream(
                body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8))));
  }

  private static String role(String name) {
    return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
        + "\"metadata\":{\"name\":\""
        + name
        + "\"},\"rules\":[]}";
  }
}
