package dev.machinery.apiserver;

import dev.machinery.apiserver.authorization.Attributes;

/**
 * The attributes of the request the current thread is answering, for the checks the storage path
 * makes on behalf of its user (RBAC escalation prevention), as Go keeps the user in the request's
 * context. Set by {@link ApiServer} around each request; thread-confined by construction.
 */
final class RequestContext {
  private static final ThreadLocal<Attributes> CURRENT = new ThreadLocal<>();

  private RequestContext() {}

  static Attributes current() {
    return CURRENT.get();
  }

  /** Runs {@code body} with {@code attributes} as the current request's, restoring the previous. */
  static <T> T with(Attributes attributes, java.util.function.Supplier<T> body) {
    Attributes previous = CURRENT.get();
    CURRENT.set(attributes);
    try {
      return body.get();
    } finally {
      if (previous == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(previous);
      }
    }
  }
}
