package dev.machinery.apiserver.filters;

import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.authorization.AuthorizationErrors;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's authorization filter: the request's {@link Attributes} are put to the server's
 * authorizer; a refusal is {@code 403 Forbidden} in kube-apiserver's words, and the decision and
 * its reason are recorded in the request's audit event either way. Immutable; thread-safe.
 */
public final class AuthorizationFilter implements Filter {
  /**
   * The logger, made on first use: the server logs nothing while it starts, and the first logger
   * starts SLF4J (its provider found and configured), which costs a fresh JVM about 0.1 s.
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(AuthorizationFilter.class);
  }

  private final Authorizer authorizer;

  /**
   * Creates the filter.
   *
   * @param authorizer the server's authorizer
   */
  public AuthorizationFilter(Authorizer authorizer) {
    this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
  }

  @Override
  public ApiResponse filter(RequestContext request, Handler next) {
    Attributes attributes = request.attributes();
    Authorization decision = authorizer.authorize(attributes);
    request.audit().authorized(decision);
    if (!decision.allowed()) {
      Log.LOG.debug(
          "{} {}: forbidden to {}: {}",
          request.request().method(),
          request.request().path(),
          attributes.user().name(),
          decision.reason());
      throw AuthorizationErrors.forbidden(attributes, decision.reason());
    }
    return next.handle(request);
  }
}
