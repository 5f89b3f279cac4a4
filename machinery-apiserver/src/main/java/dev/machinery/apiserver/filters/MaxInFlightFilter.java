package dev.machinery.apiserver.filters;

import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.rbac.BootstrapPolicy;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import java.util.Set;
import java.util.concurrent.Semaphore;

/**
 * kube-apiserver's max-in-flight filter ({@code --max-requests-inflight}, {@code
 * --max-mutating-requests-inflight}): at most so many read-only and so many mutating requests are
 * answered at once; one more is refused at once with {@code 429 TooManyRequests}, {@code
 * Retry-After: 1}. A request is read-only when its verb is {@code get}, {@code list} or {@code
 * watch}; watches (long-running) and members of {@code system:masters} are not counted. A limit of
 * 0 is no limit. Thread-safe.
 */
public final class MaxInFlightFilter implements Filter {
  /** The message kube-apiserver sends with the 429. */
  static final String MESSAGE = "Too many requests, please try again later.";

  private static final Set<String> READ_ONLY = Set.of("get", "list", "watch");

  private final Semaphore readOnly;
  private final Semaphore mutating;

  private final Failures failures;

  /**
   * Creates the filter.
   *
   * @param readOnly the most read-only requests answered at once, 0 for no limit
   * @param mutating the most mutating requests answered at once, 0 for no limit
   * @param failures how a refusal is written
   */
  public MaxInFlightFilter(int readOnly, int mutating, Failures failures) {
    this.failures = java.util.Objects.requireNonNull(failures, "failures");
    this.readOnly = readOnly == 0 ? null : new Semaphore(readOnly);
    this.mutating = mutating == 0 ? null : new Semaphore(mutating);
  }

  /**
   * Takes a slot for the request, or refuses it.
   *
   * @param attributes the request
   * @return the semaphore to release when the request is answered, or {@code null} when none was
   *     taken
   * @throws StatusException 429 when the request's kind of slot is all taken
   */
  private Semaphore acquire(Attributes attributes) {
    if (attributes.verb().equals("watch")
        || attributes.user().groups().contains(BootstrapPolicy.SYSTEM_MASTERS)) {
      return null;
    }
    Semaphore slots = READ_ONLY.contains(attributes.verb()) ? readOnly : mutating;
    if (slots == null) {
      return null;
    }
    if (!slots.tryAcquire()) {
      throw ApiErrors.newTooManyRequests(MESSAGE, 1);
    }
    return slots;
  }

  @Override
  public ApiResponse filter(RequestContext request, Handler next) {
    Semaphore slot;
    try {
      slot = acquire(request.attributes());
    } catch (StatusException e) {
      return failures.response(e.status()).withHeader("Retry-After", "1");
    }
    try {
      return next.handle(request);
    } finally {
      if (slot != null) {
        slot.release();
      }
    }
  }
}
