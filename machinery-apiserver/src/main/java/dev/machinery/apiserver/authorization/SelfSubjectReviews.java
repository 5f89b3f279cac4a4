package dev.machinery.apiserver.authorization;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.discovery.ResourceInfo;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Answers {@code SelfSubjectReview} ({@code authentication.k8s.io} v1, v1beta1 and v1alpha1:
 * kubectl 1.27 asks for v1beta1, 1.28 and later for v1, each falling back to the older on 404): a
 * create that is not stored, whose status holds the requesting user.
 */
public final class SelfSubjectReviews {
  private static final String PREFIX = "/apis/authentication.k8s.io/";
  private static final String RESOURCE = "/selfsubjectreviews";
  private static final List<String> VERSIONS = List.of("v1", "v1beta1", "v1alpha1");
  private static final long MAX_BODY_BYTES = 64 * 1024;

  private SelfSubjectReviews() {}

  /**
   * The review as kube-apiserver's discovery lists it by default: in {@code v1} alone (the older
   * versions are answered for kubectl 1.27, not listed).
   *
   * @return the discovery entries
   */
  public static List<ResourceInfo> discovery() {
    return List.of(AccessReviews.review("SelfSubjectReview", false));
  }

  /**
   * Answers a request for a SelfSubjectReview.
   *
   * @param request the request
   * @param user the user it is made as
   * @return the answer, or empty when the request is for something else
   */
  public static Optional<ApiResponse> handle(ApiRequest request, UserInfo user) {
    String path = request.path();
    if (!path.startsWith(PREFIX) || !path.endsWith(RESOURCE)) {
      return Optional.empty();
    }
    String version = path.substring(PREFIX.length(), path.length() - RESOURCE.length());
    if (!VERSIONS.contains(version)) {
      return Optional.empty();
    }
    if (!request.method().equals("POST")) {
      throw ApiErrors.newMethodNotSupported(
          new GroupResource("authentication.k8s.io", "selfsubjectreviews"), request.method());
    }
    drain(request.body());
    StringBuilder out = new StringBuilder();
    out.append("{\"kind\":\"SelfSubjectReview\",\"apiVersion\":\"authentication.k8s.io/")
        .append(version)
        .append("\",\"metadata\":{\"creationTimestamp\":null},\"status\":{\"userInfo\":{");
    out.append("\"username\":");
    string(out, user.name());
    if (!user.uid().isEmpty()) {
      out.append(",\"uid\":");
      string(out, user.uid());
    }
    if (!user.groups().isEmpty()) {
      out.append(",\"groups\":");
      strings(out, user.groups());
    }
    if (!user.extra().isEmpty()) {
      out.append(",\"extra\":{");
      boolean first = true;
      for (Map.Entry<String, List<String>> entry : user.extra().entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        string(out, entry.getKey());
        out.append(':');
        strings(out, entry.getValue());
      }
      out.append('}');
    }
    out.append("}}}\n");
    return Optional.of(
        ApiResponse.of(201, "application/json", out.toString().getBytes(StandardCharsets.UTF_8)));
  }

  private static void drain(InputStream body) {
    byte[] buffer = new byte[8192];
    long read = 0;
    try (body) {
      int n;
      while ((n = body.read(buffer)) >= 0) {
        read += n;
        if (read > MAX_BODY_BYTES) {
          throw ApiErrors.newRequestEntityTooLarge(
              "a SelfSubjectReview is at most " + MAX_BODY_BYTES + " bytes");
        }
      }
    } catch (IOException e) {
      throw (StatusException)
          ApiErrors.newBadRequest("the request body cannot be read").initCause(e);
    }
  }

  private static void strings(StringBuilder out, List<String> values) {
    out.append('[');
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      string(out, values.get(i));
    }
    out.append(']');
  }

  private static void string(StringBuilder out, String value) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20 || c == '\u2028' || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
