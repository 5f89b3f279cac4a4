package dev.machinery.apiserver.filters;

import dev.machinery.apiserver.authentication.Authenticator;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The server's filters in kube-apiserver's order ({@code DefaultBuildHandlerChain}): recovery, the
 * header-field limit and authentication for requests from the network; then, for every request,
 * audit (when the server audits), impersonation, the limits of requests in flight, authorization,
 * and the filters a server adds after authorization, in front of its handler. Requests made in
 * process on behalf of a user ({@link #handleAs}) enter after authentication.
 *
 * <p>Immutable; thread-safe.
 */
public final class HandlerChain {
  private final Filter.Handler network;
  private final Filter.Handler authenticated;

  /**
   * Composes the chain.
   *
   * @param failures how failures are written
   * @param maxHeaderFields the most header fields a request may have
   * @param authenticator who a request's credentials name
   * @param audit the audit filter, or {@code null} when the server does not audit
   * @param authorizer the server's authorizer
   * @param maxReadOnly the most read-only requests answered at once, 0 for no limit
   * @param maxMutating the most mutating requests answered at once, 0 for no limit
   * @param afterAuthorization the filters a server adds after authorization, outermost first
   * @param handler the handler at the end
   */
  public HandlerChain(
      Failures failures,
      int maxHeaderFields,
      Authenticator authenticator,
      AuditFilter audit,
      Authorizer authorizer,
      int maxReadOnly,
      int maxMutating,
      List<Filter> afterAuthorization,
      Filter.Handler handler) {
    List<Filter> filters = new ArrayList<>();
    if (audit != null) {
      filters.add(audit);
    }
    filters.add(new ImpersonationFilter(authorizer));
    filters.add(new MaxInFlightFilter(maxReadOnly, maxMutating, failures));
    filters.add(new AuthorizationFilter(authorizer));
    filters.addAll(afterAuthorization);
    Filter.Handler afterAuthentication =
        Filter.chain(filters, Objects.requireNonNull(handler, "handler"));
    // Each entry recovers once, outermost: a failure anywhere after it is answered with its Status.
    RecoveryFilter recovery = new RecoveryFilter(failures);
    this.authenticated = Filter.chain(List.of(recovery), afterAuthentication);
    Filter.Handler unauthorized = AuthenticationFilter.unauthorized(failures);
    this.network =
        Filter.chain(
            List.of(
                recovery,
                new HeaderLimitFilter(maxHeaderFields, failures),
                new AuthenticationFilter(
                    authenticator,
                    audit == null ? unauthorized : audit.failedAuthentication(unauthorized))),
            afterAuthentication);
  }

  /**
   * Answers a request from the network.
   *
   * @param request the request as received, not yet authenticated
   * @return the response
   */
  public ApiResponse handle(RequestContext request) {
    return network.handle(request);
  }

  /**
   * Answers a request made in process on behalf of the user it carries, without authenticating it.
   *
   * @param request the request, with its user
   * @return the response
   */
  public ApiResponse handleAs(RequestContext request) {
    return authenticated.handle(request);
  }
}
