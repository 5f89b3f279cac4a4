package dev.machinery.apiserver;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.endpoints.RequestInfo;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.unversioned.validation.Validation;
import java.util.Locale;
import java.util.Optional;

/**
 * A request's authorization attributes, as kube-apiserver's {@code RequestInfoFactory} makes them:
 * a path under {@code /api/v1} or {@code /apis/GROUP/VERSION} that names a resource is a resource
 * request with its verb ({@link RequestInfo#verb}); a list or watch whose field selector asks for
 * one {@code metadata.name} is about that name; anything else is a non-resource request whose verb
 * is the method in lower case. Stateless; thread-safe.
 */
final class RequestAttributes {
  private RequestAttributes() {}

  static Attributes of(ApiRequest request, UserInfo user) {
    Optional<RequestInfo> parsed = RequestInfo.parse(request.path());
    if (parsed.isEmpty()) {
      return Attributes.nonResource(
          user, request.method().toLowerCase(Locale.ROOT), request.path());
    }
    RequestInfo info = parsed.get();
    String verb = info.verb(request.method(), request.parameter("watch"));
    String name = info.name();
    if (name == null && (verb.equals("list") || verb.equals("watch"))) {
      name = exactName(request.parameter("fieldSelector"));
    }
    return new Attributes(
        user,
        verb,
        true,
        info.group(),
        info.version(),
        info.resource(),
        info.subresource(),
        info.namespace(),
        name,
        request.path());
  }

  /** The name a field selector asks for exactly ({@code metadata.name=x}), or null. */
  private static String exactName(String selector) {
    if (selector == null || selector.isEmpty()) {
      return null;
    }
    String found = null;
    for (String term : selector.split(",")) {
      String t = term.strip();
      String value = null;
      if (t.startsWith("metadata.name==")) {
        value = t.substring("metadata.name==".length());
      } else if (t.startsWith("metadata.name=")) {
        value = t.substring("metadata.name=".length());
      }
      if (value != null) {
        if (found != null && !found.equals(value)) {
          return null;
        }
        found = value;
      }
    }
    return found != null && Validation.isValidPathSegmentName(found).isEmpty() ? found : null;
  }
}
