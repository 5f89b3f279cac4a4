package dev.machinery.apiserver.endpoints;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.rest.SubresourceAction;
import dev.machinery.apiserver.registry.rest.SubresourceCall;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Answers the subresources a resource's definition answers in code ({@link SubresourceAction}):
 * checks the verb, reads the body (JSON, YAML or protobuf) as a tree, hands the action a {@link
 * SubresourceCall} over the parent's store, and writes its answer as JSON. Immutable; thread-safe.
 */
final class SubresourceActions {
  private static final ObjectMapper TREES = new ObjectMapper();

  private final RequestScope scope;
  private final ApiHandler loopback;

  SubresourceActions(RequestScope scope, ApiHandler loopback) {
    this.scope = scope;
    this.loopback = loopback;
  }

  ApiResponse handle(
      RequestContext context,
      RequestInfo info,
      Served target,
      String verb,
      SubresourceAction action) {
    ApiRequest request = context.request();
    if (!action.verbs().contains(verb)) {
      throw ApiErrors.newMethodNotSupported(target.store().groupResource(), request.method());
    }
    Optional<ObjectNode> body = readBody(request, action);
    boolean dryRun = RequestOptions.dryRun(request);
    SubresourceCall call =
        new SubresourceCall() {
          @Override
          public UserInfo user() {
            return context.attributes().user();
          }

          @Override
          public String verb() {
            return verb;
          }

          @Override
          public String namespace() {
            return info.namespace();
          }

          @Override
          public String name() {
            return info.name();
          }

          @Override
          public Optional<ObjectNode> body() {
            return body.map(ObjectNode::deepCopy);
          }

          @Override
          public String parameter(String name) {
            return request.parameter(name);
          }

          @Override
          public boolean dryRun() {
            return dryRun;
          }

          @Override
          public ObjectNode parent() {
            return scope.fields().tree(target.store().get(info.namespace(), info.name()));
          }

          @Override
          public ObjectNode updateParent(UnaryOperator<ObjectNode> change) {
            Class<?> type = target.store().storageClass();
            Object stored =
                target
                    .store()
                    .assign(
                        info.namespace(),
                        info.name(),
                        object ->
                            scope.fields().object(change.apply(scope.fields().tree(object)), type),
                        dryRun);
            return scope.fields().tree(stored);
          }

          @Override
          public ApiHandler loopback() {
            return loopback;
          }
        };
    SubresourceAction.Response response = action.handler().handle(call);
    try {
      return ApiResponse.of(
          response.code(), "application/json", TREES.writeValueAsBytes(response.body()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The body as a tree (JSON, YAML or protobuf, under the body limit), empty when there is none; a
   * body without {@code apiVersion} and {@code kind} is taken as the action's kind, as kube's
   * decoder defaults them.
   */
  private Optional<ObjectNode> readBody(ApiRequest request, SubresourceAction action) {
    if (request.method().equals("GET") || request.method().equals("HEAD")) {
      return Optional.empty();
    }
    byte[] bytes = scope.body(request);
    if (bytes.length == 0) {
      return Optional.empty();
    }
    Unstructured object = scope.decodeActionBody(request, bytes, action.kind());
    return Optional.of((ObjectNode) TREES.valueToTree(object.content()));
  }
}
