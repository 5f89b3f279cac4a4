package dev.machinery.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.authentication.ServiceAccountTokens;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.rest.SubresourceAction;
import dev.machinery.apiserver.registry.rest.SubresourceCall;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The {@code serviceaccounts/token} subresource (POST an {@code authentication.k8s.io/v1}
 * TokenRequest), as kube-apiserver's {@code TokenREST}: audiences default to the API audiences,
 * {@code expirationSeconds} to 3600 (at least 600, at most {@code 2^32}, cut to the issuer's
 * maximum), a {@code boundObjectRef} to a Pod (whose service account must be this one), Secret or
 * Node of {@code v1}, whose uid, when given, must be the stored one. The answer ({@code 201}) is
 * the request with its defaults and {@code status.token} / {@code status.expirationTimestamp}.
 *
 * <p>Stateless; thread-safe.
 */
final class TokenRequests {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final GroupKind TOKEN_REQUEST = GroupKind.of("authentication.k8s.io", "TokenRequest");
  static final long DEFAULT_EXPIRATION_SECONDS = 3600;
  static final long MIN_EXPIRATION_SECONDS = 600;
  static final long MAX_EXPIRATION_SECONDS = 1L << 32;

  private TokenRequests() {}

  static SubresourceAction action(ServiceAccountTokens tokens) {
    return new SubresourceAction(
        GroupVersion.of("authentication.k8s.io", "v1").withKind("TokenRequest"),
        List.of("create"),
        call -> answer(tokens, call));
  }

  static SubresourceAction.Response answer(ServiceAccountTokens tokens, SubresourceCall call) {
    ObjectNode request =
        call.body().orElseThrow(() -> ApiErrors.newBadRequest("a TokenRequest is expected"));
    String name = call.name();
    String namespace = call.namespace();
    String bodyName = request.path("metadata").path("name").asText("");
    if (!bodyName.isEmpty() && !bodyName.equals(name)) {
      throw ApiErrors.newInvalid(
          TOKEN_REQUEST,
          name,
          List.of(
              FieldError.invalid(
                  FieldPath.of("metadata", "name"),
                  bodyName,
                  "must match the service account name if specified")));
    }
    String bodyNamespace = request.path("metadata").path("namespace").asText("");
    if (!bodyNamespace.isEmpty() && !bodyNamespace.equals(namespace)) {
      throw ApiErrors.newInvalid(
          TOKEN_REQUEST,
          name,
          List.of(
              FieldError.invalid(
                  FieldPath.of("metadata", "namespace"),
                  bodyNamespace,
                  "must match the service account namespace if specified")));
    }
    ObjectNode spec =
        request.path("spec").isObject()
            ? (ObjectNode) request.get("spec")
            : JSON.createObjectNode();
    JsonNode expirationNode = spec.path("expirationSeconds");
    long expiration =
        expirationNode.isMissingNode() || expirationNode.isNull()
            ? DEFAULT_EXPIRATION_SECONDS
            : expirationNode.asLong();
    List<FieldError> errors = new ArrayList<>();
    if (expiration < MIN_EXPIRATION_SECONDS) {
      errors.add(
          FieldError.invalid(
              FieldPath.of("spec", "expirationSeconds"),
              expiration,
              "may not specify a duration less than 10 minutes"));
    }
    if (expiration > MAX_EXPIRATION_SECONDS) {
      errors.add(
          FieldError.invalid(
              FieldPath.of("spec", "expirationSeconds"),
              expiration,
              "may not specify a duration larger than 2^32 seconds"));
    }
    if (!errors.isEmpty()) {
      throw ApiErrors.newInvalid(TOKEN_REQUEST, name, errors);
    }
    expiration = Math.min(expiration, tokens.maxExpiration().getSeconds());
    List<String> audiences = new ArrayList<>();
    spec.path("audiences").forEach(a -> audiences.add(a.asText()));
    if (audiences.isEmpty()) {
      audiences.addAll(tokens.apiAudiences());
    }

    ObjectNode account = call.parent();
    String accountUid = account.path("metadata").path("uid").asText("");
    ObjectNode k8s = JSON.createObjectNode();
    k8s.put("namespace", namespace);
    k8s.putObject("serviceaccount").put("name", name).put("uid", accountUid);
    JsonNode ref = spec.path("boundObjectRef");
    if (ref.isObject()) {
      bind(call, (ObjectNode) ref, name, namespace, k8s);
    }

    Instant now = tokens.clock().instant().truncatedTo(ChronoUnit.SECONDS);
    Instant expires = now.plusSeconds(expiration);
    ObjectNode claims = JSON.createObjectNode();
    ArrayNode aud = claims.putArray("aud");
    audiences.forEach(aud::add);
    claims.put("exp", expires.getEpochSecond());
    claims.put("iat", now.getEpochSecond());
    claims.put("iss", tokens.issuer());
    claims.put("jti", UUID.randomUUID().toString());
    claims.set("kubernetes.io", k8s);
    claims.put("nbf", now.getEpochSecond());
    claims.put("sub", "system:serviceaccount:" + namespace + ":" + name);
    @SuppressWarnings("unchecked")
    Map<String, Object> claimMap = JSON.convertValue(claims, Map.class);
    String token = tokens.sign(claimMap);

    ObjectNode out = JSON.createObjectNode();
    out.put("kind", "TokenRequest");
    out.put("apiVersion", "authentication.k8s.io/v1");
    ObjectNode metadata = out.putObject("metadata");
    metadata.put("name", name);
    metadata.put("namespace", namespace);
    metadata.put("creationTimestamp", now.toString());
    ObjectNode outSpec = out.putObject("spec");
    ArrayNode outAudiences = outSpec.putArray("audiences");
    audiences.forEach(outAudiences::add);
    outSpec.put("expirationSeconds", expiration);
    if (ref.isObject()) {
      outSpec.set("boundObjectRef", ref);
    } else {
      outSpec.putNull("boundObjectRef");
    }
    ObjectNode status = out.putObject("status");
    status.put("token", token);
    status.put("expirationTimestamp", expires.toString());
    return new SubresourceAction.Response(201, out);
  }

  private static void bind(
      SubresourceCall call, ObjectNode ref, String account, String namespace, ObjectNode k8s) {
    String apiVersion = ref.path("apiVersion").asText("");
    String kind = ref.path("kind").asText("");
    String refName = ref.path("name").asText("");
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    String version =
        apiVersion.contains("/") ? apiVersion.substring(apiVersion.indexOf('/') + 1) : apiVersion;
    String path;
    if (group.isEmpty() && kind.equals("Pod")) {
      path = "/api/" + version + "/namespaces/" + namespace + "/pods/" + refName;
    } else if (group.isEmpty() && kind.equals("Secret")) {
      path = "/api/" + version + "/namespaces/" + namespace + "/secrets/" + refName;
    } else if (group.isEmpty() && kind.equals("Node")) {
      path = "/api/" + version + "/nodes/" + refName;
    } else {
      throw ApiErrors.newBadRequest(
          "cannot bind token to object of type "
              + (group.isEmpty() ? "" : group + "/")
              + version
              + ", Kind="
              + kind);
    }
    JsonNode object = get(call, path);
    String uid = object.path("metadata").path("uid").asText("");
    ObjectNode boundRef = JSON.createObjectNode().put("name", refName).put("uid", uid);
    switch (kind) {
      case "Pod" -> {
        String podAccount = object.path("spec").path("serviceAccountName").asText("");
        if (!account.equals(podAccount)) {
          throw ApiErrors.newBadRequest(
              "cannot bind token for serviceaccount \""
                  + account
                  + "\" to pod running with different serviceaccount name.");
        }
        k8s.set("pod", boundRef);
        String nodeName = object.path("spec").path("nodeName").asText("");
        if (!nodeName.isEmpty()) {
          JsonNode node = find(call, "/api/v1/nodes/" + nodeName);
          if (node != null) {
            k8s.putObject("node")
                .put("name", nodeName)
                .put("uid", node.path("metadata").path("uid").asText(""));
          }
        }
      }
      case "Secret" -> k8s.set("secret", boundRef);
      default -> k8s.set("node", boundRef);
    }
    String claimedUid = ref.path("uid").asText("");
    if (!claimedUid.isEmpty() && !claimedUid.equals(uid)) {
      throw ApiErrors.newConflict(
          new GroupResource(group, kind),
          refName,
          "the UID in the bound object reference ("
              + claimedUid
              + ") does not match the UID in record. The object might have been deleted and then"
              + " recreated");
    }
  }

  private static JsonNode get(SubresourceCall call, String path) {
    JsonNode found = find(call, path);
    if (found == null) {
      throw new StatusException(status(call, path));
    }
    return found;
  }

  private static JsonNode find(SubresourceCall call, String path) {
    ApiResponse response = call.loopback().handle(request(path));
    if (response.status() == 404) {
      return null;
    }
    String text = text(response);
    try {
      JsonNode body = JSON.readTree(text);
      if (response.status() != 200) {
        throw new StatusException(
            JSON.treeToValue(body, dev.machinery.unversioned.meta.v1.Status.class));
      }
      return body;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static dev.machinery.unversioned.meta.v1.Status status(
      SubresourceCall call, String path) {
    try {
      return JSON.readValue(
          text(call.loopback().handle(request(path))),
          dev.machinery.unversioned.meta.v1.Status.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ApiRequest request(String path) {
    return new ApiRequest(
        "GET",
        path,
        Map.of(),
        Map.of("Accept", List.of("application/json")),
        new ByteArrayInputStream(new byte[0]));
  }

  private static String text(ApiResponse response) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      response.writeBody(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(java.nio.charset.StandardCharsets.UTF_8);
  }
}
