package dev.machinery.apiserver.filters;

import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import java.util.Objects;

/**
 * The outermost step, as kube-apiserver's panic recovery: whatever a later step throws (a {@code
 * StatusException} of the API's errors, any other runtime failure, a stack overflow) is answered
 * with its {@code Status}, so that a request never leaves the chain without a response, with the
 * {@code Warning} headers of what the steps warned of before it failed. Immutable; thread-safe.
 */
public final class RecoveryFilter implements Filter {
  private final Failures failures;

  /**
   * Creates the filter.
   *
   * @param failures how a failure is written
   */
  public RecoveryFilter(Failures failures) {
    this.failures = Objects.requireNonNull(failures, "failures");
  }

  @Override
  public ApiResponse filter(RequestContext request, Handler next) {
    try {
      return next.handle(request);
    } catch (RuntimeException | StackOverflowError e) {
      return failures.response(request, e);
    }
  }
}
