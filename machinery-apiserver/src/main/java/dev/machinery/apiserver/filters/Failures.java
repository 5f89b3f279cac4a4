package dev.machinery.apiserver.filters;

import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.core.codec.Codec;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.Status;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the request path answers a failure: a {@code v1 Status} in JSON with the failure's code, as
 * kube-apiserver's {@code responsewriters.ErrorNegotiated} writes it for a request that never
 * reached a handler's negotiation. Failures of code 500 and above are logged. Immutable;
 * thread-safe.
 */
public final class Failures {
  /**
   * The logger, made on first use: the server logs nothing while it starts, and the first logger
   * starts SLF4J (its provider found and configured), which costs a fresh JVM about 0.1 s.
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(Failures.class);
  }

  private final Codec json;

  /**
   * Creates the writer of failures.
   *
   * @param json the JSON codec of a Scheme that registers {@code meta.k8s.io/v1}
   */
  public Failures(Codec json) {
    this.json = Objects.requireNonNull(json, "json");
  }

  /**
   * The response for a Status.
   *
   * @param status the Status; its {@code apiVersion}, {@code kind} and {@code metadata} are filled
   *     in
   * @return the response, of the Status' code
   */
  public ApiResponse response(Status status) {
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    if (status.getMetadata() == null) {
      status.setMetadata(new ListMeta());
    }
    return ApiResponse.of(status.getCode(), "application/json", json.encode(status));
  }

  /**
   * The response for what a step threw: its {@link ApiErrors#statusFor Status}, logged with the
   * request when it is a server error.
   *
   * @param method the request's method
   * @param path the request's path
   * @param thrown what was thrown
   * @return the response
   */
  public ApiResponse response(String method, String path, Throwable thrown) {
    Status status = ApiErrors.statusFor(thrown);
    if (status.getCode() >= 500) {
      Log.LOG.warn("{} {} failed", method, path, thrown);
    }
    return response(status);
  }

  /**
   * The response for what a step threw while serving a request, as {@link #response(String, String,
   * Throwable)}, with a {@code Warning} header for each warning the steps gave before it failed
   * ({@link RequestContext#warnings()}): kube-apiserver answers a refusal with them, and kubectl
   * prints them above the error.
   *
   * @param context the request
   * @param thrown what was thrown
   * @return the response
   */
  public ApiResponse response(RequestContext context, Throwable thrown) {
    ApiResponse failed = response(context.request().method(), context.request().path(), thrown);
    for (String warning : context.warnings()) {
      failed = failed.withWarning(warning);
    }
    return failed;
  }
}
