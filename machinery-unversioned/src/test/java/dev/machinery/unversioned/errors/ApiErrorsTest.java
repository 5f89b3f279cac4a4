package dev.machinery.unversioned.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.codec.DecodeException;
import dev.machinery.core.codec.LimitExceededException;
import dev.machinery.core.runtime.NotRegisteredException;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusCause;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The Status of each factory as kube-apiserver writes it, the checks, and the mapping. */
class ApiErrorsTest {
  private static final GroupResource DEPLOYMENTS = GroupResource.of("apps", "deployments");

  @Test
  void factoriesWordMessagesAndCodesAsKubernetes() {
    Object[][] rows = {
      {
        ApiErrors.newNotFound(DEPLOYMENTS, "web"),
        404,
        "NotFound",
        "deployments.apps \"web\" not found"
      },
      {
        ApiErrors.newAlreadyExists(GroupResource.of("", "configmaps"), "app"),
        409,
        "AlreadyExists",
        "configmaps \"app\" already exists"
      },
      {
        ApiErrors.newConflict(
            DEPLOYMENTS,
            "web",
            "the object has been modified; please apply your"
                + " changes to the latest version and try again"),
        409,
        "Conflict",
        "Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified;"
            + " please apply your changes to the latest version and try again"
      },
      {ApiErrors.newBadRequest("bad"), 400, "BadRequest", "bad"},
      {ApiErrors.newUnauthorized(""), 401, "Unauthorized", "not authorized"},
      {
        ApiErrors.newForbidden(GroupResource.of("", "pods"), "p", "no"),
        403,
        "Forbidden",
        "pods \"p\" is forbidden: no"
      },
      {ApiErrors.newForbidden(GroupResource.EMPTY, "", "no"), 403, "Forbidden", "forbidden: no"},
      {
        ApiErrors.newMethodNotSupported(
            GroupResource.of("authentication.k8s.io", "tokenreviews"), "get"),
        405,
        "MethodNotAllowed",
        "get is not supported on resources of kind \"tokenreviews.authentication.k8s.io\""
      },
      {
        ApiErrors.newRequestEntityTooLarge("limit is 3145728"),
        413,
        "RequestEntityTooLarge",
        "Request entity too large: limit is 3145728"
      },
      {
        ApiErrors.newResourceExpired("too old resource version: 1 (5)"),
        410,
        "Expired",
        "too old resource version: 1 (5)"
      },
      {ApiErrors.newGone("gone"), 410, "Gone", "gone"},
      {ApiErrors.newTooManyRequests("slow down", 2), 429, "TooManyRequests", "slow down"},
      {ApiErrors.newTimeout("watch", 1), 504, "Timeout", "Timeout: watch"},
      {
        ApiErrors.newServerTimeout(GroupResource.of("", "pods"), "get", 3),
        500,
        "ServerTimeout",
        "The get operation against pods could not be completed at this time, please try again."
      },
      {ApiErrors.newServiceUnavailable("down"), 503, "ServiceUnavailable", "down"},
      {
        ApiErrors.newInternalError(new IllegalStateException("boom")),
        500,
        "InternalError",
        "Internal error occurred: boom"
      },
      {ApiErrors.newNotAcceptable("only json"), 406, "NotAcceptable", "only json"},
      {ApiErrors.newUnsupportedMediaType("only json"), 415, "UnsupportedMediaType", "only json"},
    };
    for (Object[] row : rows) {
      Status status = ((StatusException) row[0]).status();
      assertEquals(row[1], status.getCode(), (String) row[3]);
      assertEquals(row[2], status.getReason(), (String) row[3]);
      assertEquals(row[3], status.getMessage());
      assertEquals("Failure", status.getStatus());
      assertEquals("Status", status.getKind());
    }
  }

  @Test
  void invalidCarriesOneCausePerFieldError() {
    StatusException invalid =
        ApiErrors.newInvalid(
            GroupKind.of("apps", "Deployment"),
            "web",
            List.of(
                FieldError.invalid(
                    FieldPath.of("spec", "replicas"), -1L, "must be greater than or equal to 0"),
                FieldError.required(FieldPath.of("spec", "selector"), "")));
    Status status = invalid.status();
    assertEquals(422, status.getCode());
    assertEquals(
        "Deployment.apps \"web\" is invalid: [spec.replicas: Invalid value: -1: must be greater"
            + " than or equal to 0, spec.selector: Required value]",
        status.getMessage());
    StatusCause first = status.getDetails().getCauses().get(0);
    assertEquals("FieldValueInvalid", first.getReason());
    assertEquals("spec.replicas", first.getField());
    assertEquals("Invalid value: -1: must be greater than or equal to 0", first.getMessage());
    assertEquals("Deployment", status.getDetails().getKind());
    assertEquals("apps", status.getDetails().getGroup());
  }

  @Test
  void checksSeeThroughCausesAndReadDecodedStatuses() {
    StatusException notFound = ApiErrors.newNotFound(DEPLOYMENTS, "web");
    assertTrue(ApiErrors.isNotFound(new CompletionException(notFound)));
    assertFalse(ApiErrors.isConflict(notFound));
    assertTrue(ApiErrors.isConflict(ApiErrors.newConflict(DEPLOYMENTS, "web", "x")));
    assertFalse(ApiErrors.isAlreadyExists(ApiErrors.newConflict(DEPLOYMENTS, "web", "x")));
    assertFalse(ApiErrors.isNotFound(new IllegalStateException("x")));
    // A Status from a server that invents a reason: known by its code, as Go's checks do.
    Status foreign = new Status();
    foreign.setReason("SomethingNew");
    foreign.setCode(404);
    assertTrue(ApiErrors.isNotFound(foreign));
    assertTrue(ApiErrors.isNotFound(new StatusException(foreign)));
    foreign.setReason("Conflict");
    assertFalse(ApiErrors.isNotFound(foreign));
    Status decoded =
        CodecFactory.create(MetaV1.addToScheme(Scheme.builder()).build())
            .json()
            .decode(
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                    + "\"message\":\"x\",\"reason\":\"AlreadyExists\",\"code\":409}",
                Status.class)
            .object();
    assertTrue(ApiErrors.isAlreadyExists(decoded));
  }

  @Test
  void everyLibraryFailureMapsToTheStatusAServerAnswers() {
    DecodeException strict =
        new DecodeException(
            "strict decoding error: unknown field \"spec.replcias\"", "", 0, 0, null);
    Status bad = ApiErrors.statusFor(strict);
    assertEquals(400, bad.getCode());
    assertEquals("BadRequest", bad.getReason());
    assertEquals(strict.getMessage(), bad.getMessage());
    Status large =
        ApiErrors.statusFor(
            new LimitExceededException("maxJsonBytes", 10, "document is over 10 bytes", "", 0, 0));
    assertEquals(413, large.getCode());
    assertEquals("RequestEntityTooLarge", large.getReason());
    Status deep =
        ApiErrors.statusFor(
            new LimitExceededException("maxNestingDepth", 10, "too deep", "", 0, 0));
    assertEquals(400, deep.getCode());
    Status internal = ApiErrors.statusFor(new NullPointerException("oops"));
    assertEquals(500, internal.getCode());
    assertEquals("Internal error occurred: oops", internal.getMessage());
    assertEquals(
        "InternalError",
        ApiErrors.reasonFor(
            new NotRegisteredException(
                Object.class, "no kind is registered for the type java.lang.Object")));
    Status carried = ApiErrors.statusFor(new RuntimeException(ApiErrors.newGone("gone")));
    assertEquals(410, carried.getCode());
  }
}
