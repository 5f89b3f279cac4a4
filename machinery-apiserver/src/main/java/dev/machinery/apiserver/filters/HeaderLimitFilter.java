package dev.machinery.apiserver.filters;

import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.unversioned.meta.v1.Status;
import java.util.List;

/**
 * Refuses a request with more header fields than the server reads, with {@code 431} and a {@code
 * Status} that counts them, before anything else is read. Immutable; thread-safe.
 */
public final class HeaderLimitFilter implements Filter {
  private final int maxFields;
  private final Failures failures;

  /**
   * Creates the filter.
   *
   * @param maxFields the most header fields a request may have
   * @param failures how the refusal is written
   */
  public HeaderLimitFilter(int maxFields, Failures failures) {
    if (maxFields <= 0) {
      throw new IllegalArgumentException("the header field limit must be positive");
    }
    this.maxFields = maxFields;
    this.failures = java.util.Objects.requireNonNull(failures, "failures");
  }

  @Override
  public ApiResponse filter(RequestContext request, Handler next) {
    int fields = 0;
    for (List<String> values : request.request().headers().values()) {
      fields += values.size();
    }
    if (fields > maxFields) {
      Status status = new Status();
      status.setStatus("Failure");
      status.setCode(431);
      status.setMessage(
          "the request has " + fields + " header fields; at most " + maxFields + " are read");
      return failures.response(status);
    }
    return next.handle(request);
  }
}
