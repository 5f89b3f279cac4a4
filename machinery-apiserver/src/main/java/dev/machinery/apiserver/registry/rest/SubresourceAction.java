package dev.machinery.apiserver.registry.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.core.schema.GroupVersionKind;
import java.util.List;
import java.util.Objects;

/**
 * A subresource kube-apiserver answers in code rather than by storing what is sent, such as a pod's
 * {@code binding} and {@code eviction}, a service account's {@code token} or a namespace's {@code
 * finalize}: the request's body (JSON or YAML, read as a tree) and the parent object reach {@link
 * Handler#handle}, whose answer is the response's body. The request is authenticated and authorized
 * (as {@code create} or {@code update} of {@code <resource>/<subresource>}) before it arrives;
 * admission is the handler's to run, if any.
 *
 * @param kind the kind of the request's and response's body, as discovery lists it (such as {@code
 *     policy/v1 Eviction})
 * @param verbs the verbs it answers: {@code create} (POST), {@code update} (PUT), {@code get}
 * @param handler answers a request
 */
public record SubresourceAction(GroupVersionKind kind, List<String> verbs, Handler handler) {
  /**
   * Checks for nulls and copies the verbs.
   *
   * @param kind see the record description
   * @param verbs see the record description
   * @param handler see the record description
   */
  public SubresourceAction {
    Objects.requireNonNull(kind, "kind");
    verbs = List.copyOf(verbs);
    Objects.requireNonNull(handler, "handler");
  }

  /** Answers one request of a {@link SubresourceAction}. Must be thread-safe. */
  @FunctionalInterface
  public interface Handler {
    /**
     * Answers a request; a failure is thrown as a {@code StatusException} (see {@code ApiErrors}),
     * which the client receives as its Status.
     *
     * @param call the request, its parent object and what the handler may do with it
     * @return the response
     */
    Response handle(SubresourceCall call);
  }

  /**
   * A handler's answer.
   *
   * @param code the HTTP status code, such as 201
   * @param body the body, a JSON object carrying {@code apiVersion} and {@code kind} (a {@code
   *     Status} for kube's success answers)
   */
  public record Response(int code, JsonNode body) {
    /**
     * Checks for nulls.
     *
     * @param code see the record description
     * @param body see the record description
     */
    public Response {
      Objects.requireNonNull(body, "body");
    }
  }
}
