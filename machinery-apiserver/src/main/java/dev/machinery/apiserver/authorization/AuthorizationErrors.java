package dev.machinery.apiserver.authorization;

import dev.machinery.core.schema.GroupResource;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import java.util.Locale;

/**
 * Words a refused request as kube-apiserver does ({@code responsewriters.ForbiddenStatusError}):
 * {@code pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the
 * namespace "default"}, with the group, resource and name in the Status details. Stateless;
 * thread-safe.
 */
public final class AuthorizationErrors {
  private AuthorizationErrors() {}

  /**
   * Says what the user may not do: {@code User "u" cannot VERB resource "R[/SUB]" in API group "G"
   * in the namespace "N"} (or {@code at the cluster scope}), or {@code User "u" cannot VERB path
   * "/P"} for a non-resource request.
   *
   * @param attributes the request
   * @return the sentence
   */
  public static String forbiddenMessage(Attributes attributes) {
    String user = quote(attributes.user().name());
    if (!attributes.resourceRequest()) {
      return "User " + user + " cannot " + attributes.verb() + " path " + quote(attributes.path());
    }
    String resource = attributes.resource();
    if (!attributes.subresource().isEmpty()) {
      resource = resource + "/" + attributes.subresource();
    }
    String start =
        "User "
            + user
            + " cannot "
            + attributes.verb()
            + " resource "
            + quote(resource)
            + " in API group "
            + quote(attributes.apiGroup());
    if (!attributes.namespace().isEmpty()) {
      return start + " in the namespace " + quote(attributes.namespace());
    }
    return start + " at the cluster scope";
  }

  /**
   * The {@code 403 Forbidden} for a refused request: {@link #forbiddenMessage}, then {@code ": "}
   * and the reason when there is one, after the resource (and name) as {@link
   * ApiErrors#newForbidden} puts it.
   *
   * @param attributes the request
   * @param reason the authorizer's reason, or {@code ""}
   * @return the exception
   */
  public static StatusException forbidden(Attributes attributes, String reason) {
    String why = forbiddenMessage(attributes);
    if (reason != null && !reason.isEmpty()) {
      why = why + ": " + reason;
    }
    GroupResource resource =
        attributes.resourceRequest()
            ? new GroupResource(attributes.apiGroup(), attributes.resource())
            : GroupResource.EMPTY;
    return ApiErrors.newForbidden(resource, attributes.name(), why);
  }

  /** Go's {@code %q} for the strings a request carries. */
  static String quote(String value) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20 || c == 0x7f) {
            out.append(String.format(Locale.ROOT, "\\x%02x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
