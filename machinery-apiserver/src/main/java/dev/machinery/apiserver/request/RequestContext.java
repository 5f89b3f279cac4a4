package dev.machinery.apiserver.request;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorization;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.unversioned.validation.Validation;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One request as it passes down the server's filters to its handler, as Go's request {@code
 * context.Context} carries it: the request, what its path names ({@link RequestInfo}, parsed once
 * when the context is made), when it was received, the user it is made as, its authorization {@link
 * Attributes}, and the {@link AuditRecorder} that takes what the later steps decide. Each filter
 * that learns something hands its successor a new context ({@link #withUser}, {@link #withRequest},
 * {@link #withAudit}); nothing is kept in a thread. The warnings a step gives for the response
 * ({@link #addWarning}) are kept for the request as a whole, as Go's warning recorder keeps them in
 * the request's context, so that a refused request is answered with them too.
 *
 * <p>Thread-safe: immutable but for the warnings, which every context of one request shares and
 * which may be added from any thread.
 */
public final class RequestContext {
  private final ApiRequest request;
  private final Optional<RequestInfo> info;
  private final Instant received;
  private final UserInfo user;
  private final Attributes attributes;
  private final AuditRecorder audit;
  private final List<String> warnings;

  private RequestContext(
      ApiRequest request,
      Optional<RequestInfo> info,
      Instant received,
      UserInfo user,
      AuditRecorder audit,
      List<String> warnings) {
    this.warnings = warnings;
    this.request = request;
    this.info = info;
    this.received = received;
    this.user = user;
    this.attributes = user == null ? null : attributes(request, info, user);
    this.audit = audit;
  }

  /**
   * The context of a request just received: its path parsed, no user yet.
   *
   * @param request the request
   * @param received when it was received
   * @return the context
   */
  public static RequestContext received(ApiRequest request, Instant received) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(received, "received");
    return new RequestContext(
        request,
        RequestInfo.parse(request.path()),
        received,
        null,
        AuditRecorder.NONE,
        new CopyOnWriteArrayList<>());
  }

  /**
   * The request, as the steps before have left it (the audit step may have read its body).
   *
   * @return the request
   */
  public ApiRequest request() {
    return request;
  }

  /**
   * What the path names, when it names a resource (or a collection) under {@code /api} or {@code
   * /apis}.
   *
   * @return the parsed path, or empty for a non-resource path such as {@code /version}
   */
  public Optional<RequestInfo> info() {
    return info;
  }

  /**
   * When the request was received.
   *
   * @return the instant
   */
  public Instant received() {
    return received;
  }

  /**
   * The user the request is made as: the authenticated one, or the one it impersonates.
   *
   * @return the user
   * @throws IllegalStateException before authentication
   */
  public UserInfo user() {
    if (user == null) {
      throw new IllegalStateException("the request is not authenticated yet");
    }
    return user;
  }

  /**
   * What the request asks to do, for authorizers, admission and audit policies.
   *
   * @return the attributes, with {@link #user()}
   * @throws IllegalStateException before authentication
   */
  public Attributes attributes() {
    if (attributes == null) {
      throw new IllegalStateException("the request is not authenticated yet");
    }
    return attributes;
  }

  /**
   * Where the later steps record what they decide for the request's audit event.
   *
   * @return the recorder, {@link AuditRecorder#NONE} when the request is not audited
   */
  public AuditRecorder audit() {
    return audit;
  }

  /**
   * The same request made as a user.
   *
   * @param user the user
   * @return the new context
   */
  public RequestContext withUser(UserInfo user) {
    return new RequestContext(
        request, info, received, Objects.requireNonNull(user), audit, warnings);
  }

  /**
   * The same context around another form of the request (the same method and path).
   *
   * @param request the request
   * @return the new context
   */
  public RequestContext withRequest(ApiRequest request) {
    return new RequestContext(
        Objects.requireNonNull(request), info, received, user, audit, warnings);
  }

  /**
   * The same request recorded by an audit event.
   *
   * @param audit the recorder
   * @return the new context
   */
  public RequestContext withAudit(AuditRecorder audit) {
    return new RequestContext(
        request, info, received, user, Objects.requireNonNull(audit), warnings);
  }

  /**
   * The attributes of a request made by a user, as kube-apiserver's {@code RequestInfoFactory}
   * makes them: a path that names a resource is a resource request with its verb ({@link
   * RequestInfo#verb}); a list or watch whose field selector asks for one {@code metadata.name} is
   * about that name; anything else is a non-resource request whose verb is the method in lower
   * case.
   */
  /**
   * Keeps a warning for the response, once however often it is given (as kube-apiserver's warning
   * recorder deduplicates them).
   *
   * @param warning the warning's text
   */
  public void addWarning(String warning) {
    Objects.requireNonNull(warning, "warning");
    synchronized (warnings) {
      if (!warnings.contains(warning)) {
        warnings.add(warning);
      }
    }
  }

  /**
   * Returns the warnings given so far for the response, in the order given.
   *
   * @return the warnings
   */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  private static Attributes attributes(
      ApiRequest request, Optional<RequestInfo> parsed, UserInfo user) {
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

  /**
   * Takes what the steps after the audit filter decide about a request, for its audit event.
   * Implementations are confined to the request they record.
   */
  public interface AuditRecorder {
    /** Records nothing: the request is not audited. */
    AuditRecorder NONE =
        new AuditRecorder() {
          @Override
          public void impersonated(UserInfo user) {}

          @Override
          public void authorized(Authorization decision) {}
        };

    /**
     * Records the user the request impersonates.
     *
     * @param user the impersonated user
     */
    void impersonated(UserInfo user);

    /**
     * Records the authorizers' decision.
     *
     * @param decision the decision
     */
    void authorized(Authorization decision);

    /**
     * Records an annotation of a later step, such as an admission webhook's; the first value of a
     * key stays.
     *
     * @param key the key
     * @param value the value
     */
    default void annotate(String key, String value) {}
  }
}
