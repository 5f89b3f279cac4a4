package dev.machinery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.fields.FieldSelector;
import dev.machinery.unversioned.fields.FieldSets;
import dev.machinery.unversioned.intstr.IntOrString;
import dev.machinery.unversioned.labels.LabelSelectors;
import dev.machinery.unversioned.labels.Selector;
import dev.machinery.unversioned.meta.v1.Condition;
import dev.machinery.unversioned.meta.v1.Conditions;
import dev.machinery.unversioned.meta.v1.LabelSelector;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.resource.Quantity;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import dev.machinery.unversioned.validation.ObjectMetaValidation;
import dev.machinery.unversioned.validation.Validation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The examples of docs/values.md, docs/selectors.md and docs/errors.md, compiled and run. */
class ValuesGuideTest {
  @Test
  void quantities() {
    Quantity cpu = Quantity.parse("0.5");
    assertEquals("500m", cpu.toString()); // canonical form: no fraction, largest suffix
    assertEquals(500, cpu.milliValue());
    Quantity memory = Quantity.parse("1.5Gi");
    assertEquals("1536Mi", memory.toString());
    assertTrue(Quantity.parse("1000m").isSemanticallyEqual(Quantity.parse("1")));
    assertEquals("1792Mi", memory.add(Quantity.parse("256Mi")).toString());
  }

  @Test
  void intOrString() {
    IntOrString maxSurge = IntOrString.parse("25%");
    assertEquals(3, maxSurge.scaledValue(10, true)); // the deployment controller rounds surge up
    assertEquals(2, maxSurge.scaledValue(10, false)); // and unavailability down
    assertEquals(IntOrString.ofInt(8080), IntOrString.parse("8080"));
  }

  @Test
  void labelSelectors() {
    Selector selector = Selector.parse("app=web,tier in (frontend,cache),!canary");
    assertTrue(selector.matches(Map.of("app", "web", "tier", "cache")));
    assertEquals("app=web,!canary,tier in (cache,frontend)", selector.toString());
    LabelSelector spec = LabelSelectors.parse("app=web,tier in (frontend)");
    assertEquals(Map.of("app", "web"), spec.getMatchLabels());
    assertTrue(LabelSelectors.toSelector(spec).matches(Map.of("app", "web", "tier", "frontend")));
  }

  @Test
  void fieldSelectors() {
    ObjectMeta meta = new ObjectMeta();
    meta.setName("web");
    meta.setNamespace("default");
    FieldSelector selector = FieldSelector.parse("metadata.namespace=default,metadata.name!=db");
    assertTrue(selector.matches(FieldSets.of(meta, true)));
  }

  @Test
  void validationAndErrors() {
    ObjectMeta meta = new ObjectMeta();
    meta.setName("My_App");
    meta.setNamespace("default");
    List<FieldError> errors =
        ObjectMetaValidation.validateCreate(
            meta, true, Validation::nameIsDNSSubdomain, FieldPath.of("metadata"));
    StatusException invalid =
        ApiErrors.newInvalid(GroupKind.of("apps", "Deployment"), "My_App", errors);
    Status status = invalid.status();
    assertEquals(422, status.getCode());
    assertEquals("metadata.name", status.getDetails().getCauses().get(0).getField());
    assertTrue(
        status
            .getMessage()
            .startsWith(
                "Deployment.apps \"My_App\" is invalid: metadata.name: Invalid value: \"My_App\": a lowercase RFC 1123 subdomain"));

    StatusException missing = ApiErrors.newNotFound(GroupResource.of("apps", "deployments"), "web");
    assertEquals("deployments.apps \"web\" not found", missing.getMessage());
    assertTrue(ApiErrors.isNotFound(missing));

    // Any failure becomes the Status a server answers with.
    Status bad =
        ApiErrors.statusFor(
            new DecodeException("spec.replicas: expected an integer", "spec.replicas"));
    assertEquals(400, bad.getCode());
    assertEquals("BadRequest", bad.getReason());
  }

  @Test
  void conditions() {
    List<Condition> conditions = new ArrayList<>();
    Conditions.set(
        conditions, new Condition("Ready", Condition.FALSE, "Starting", "waiting for pods"));
    Conditions.set(conditions, new Condition("Ready", Condition.TRUE, "PodsReady", "3 of 3 ready"));
    assertTrue(Conditions.isTrue(conditions, "Ready"));
    assertFalse(Conditions.isTrue(conditions, "Degraded"));
  }
}
