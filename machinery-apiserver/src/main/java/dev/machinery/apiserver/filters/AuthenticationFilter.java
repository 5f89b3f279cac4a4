package dev.machinery.apiserver.filters;

import dev.machinery.apiserver.authentication.AuthenticationException;
import dev.machinery.apiserver.authentication.Authenticator;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.unversioned.errors.ApiErrors;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's authentication filter: the request's credentials (client certificate, bearer
 * token, none) name its user, or it is handed to the handler of failed authentication, which
 * answers {@code 401 Unauthorized} ({@link #unauthorized}, audited when the server audits).
 * Immutable; thread-safe.
 */
public final class AuthenticationFilter implements Filter {
  /**
   * The logger, made on first use: the server logs nothing while it starts, and the first logger
   * starts SLF4J (its provider found and configured), which costs a fresh JVM about 0.1 s.
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(AuthenticationFilter.class);
  }

  private final Authenticator authenticator;
  private final Handler failed;

  /**
   * Creates the filter.
   *
   * @param authenticator who the credentials name
   * @param failed answers a request whose credentials name no one
   */
  public AuthenticationFilter(Authenticator authenticator, Handler failed) {
    this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    this.failed = Objects.requireNonNull(failed, "failed");
  }

  /**
   * The answer to a request whose credentials name no one: {@code 401} with kube-apiserver's {@code
   * Unauthorized} Status.
   *
   * @param failures how the refusal is written
   * @return the handler
   */
  public static Handler unauthorized(Failures failures) {
    return request ->
        failures.response(ApiErrors.statusFor(ApiErrors.newUnauthorized("Unauthorized")));
  }

  @Override
  public ApiResponse filter(RequestContext request, Handler next) {
    UserInfo user;
    try {
      user =
          authenticator
              .authenticate(request.request())
              .orElseThrow(() -> new AuthenticationException("the authenticator found no user"));
    } catch (AuthenticationException e) {
      Log.LOG.debug(
          "{} {}: unauthorized: {}",
          request.request().method(),
          request.request().path(),
          e.getMessage());
      return failed.handle(request);
    }
    return next.handle(request.withUser(user));
  }
}
