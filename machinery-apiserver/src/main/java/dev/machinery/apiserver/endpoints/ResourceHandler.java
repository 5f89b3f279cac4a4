package dev.machinery.apiserver.endpoints;

import dev.machinery.apiserver.admission.NamespaceLifecycle;
import dev.machinery.apiserver.http.ApiHandler;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.negotiation.Negotiator;
import dev.machinery.apiserver.negotiation.ProtobufBodies;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.registry.rest.SubresourceAction;
import dev.machinery.apiserver.request.RequestContext;
import dev.machinery.apiserver.request.RequestInfo;
import dev.machinery.core.codec.CodecFactory;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusDetails;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.Validation;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Routes a resource request to the handler of its verb, as kube-apiserver's installer does: finds
 * the served resource, checks its scope and subresource, and hands the request to {@code get},
 * {@code list}, {@code watch}, {@code create}, {@code update}, {@code patch}, {@code delete} or
 * {@code deletecollection} ({@link VerbHandler}s over one {@link RequestScope}). An update or patch
 * without a name is a {@code 405}. Resources are looked up in a {@link ServedResources} on each
 * request, so resources added while the server runs are served.
 *
 * <p>Thread-safe: immutable after construction.
 */
public final class ResourceHandler {
  private final ServedResources served;
  private final Map<String, VerbHandler> verbs;
  private final SubresourceActions actions;

  /**
   * Creates the handler.
   *
   * @param scheme the scheme
   * @param served the served resources, looked up on each request
   * @param negotiator the response negotiator (protobuf included, when offered)
   * @param codecs the codecs
   * @param protobuf the protobuf codec
   * @param maxBodyBytes the request body limit
   * @param watches the watch streams
   * @param namespaces the store of namespaces, or {@code null} when the server serves none
   * @param namespaceState tells whether a namespace exists, before anything is created in it
   * @param namespaceContentCleanup whether deleting a namespace deletes its content and finalizes
   *     it (when no namespace controller runs)
   * @param loopback the server as its loopback user, for subresources answered in code
   */
  public ResourceHandler(
      Scheme scheme,
      ServedResources served,
      Negotiator negotiator,
      CodecFactory codecs,
      ProtobufBodies protobuf,
      long maxBodyBytes,
      WatchStreams watches,
      ResourceStore namespaces,
      Function<String, NamespaceLifecycle.State> namespaceState,
      boolean namespaceContentCleanup,
      ApiHandler loopback) {
    this.served = served;
    RequestScope scope = new RequestScope(scheme, codecs, protobuf, negotiator, maxBodyBytes);
    this.actions = new SubresourceActions(scope, loopback);
    Namespaces lifecycle =
        new Namespaces(
            namespaces, namespaceState, () -> namespacedStores(served), namespaceContentCleanup);
    Scales scales = new Scales(scope);
    this.verbs =
        Map.of(
            "get", new GetHandler(scope, scales),
            "list", new ListHandler(scope),
            "watch", new WatchHandler(scope, watches),
            "create", new CreateHandler(scope, lifecycle),
            "update", new UpdateHandler(scope, scales),
            "patch", new PatchHandler(scope, scales, lifecycle),
            "delete", new DeleteHandler(scope, lifecycle),
            "deletecollection", new DeleteCollectionHandler(scope, lifecycle));
  }

  /** The stores of the namespaced resources served now, one a resource. */
  private static Collection<ResourceStore> namespacedStores(ServedResources served) {
    Map<String, ResourceStore> namespaced = new HashMap<>();
    for (Served s : served.all()) {
      if (s.store().definition().namespaced()) {
        namespaced.put(s.store().prefix(null), s.store());
      }
    }
    return namespaced.values();
  }

  /**
   * Answers a resource request.
   *
   * @param context the request, with who asks
   * @param info what its path names
   * @return the response
   */
  public ApiResponse handle(RequestContext context, RequestInfo info) {
    ApiRequest request = context.request();
    Served target =
        served.find(info.group(), info.version(), info.resource()).orElseThrow(() -> notFound());
    ResourceStore store = target.store();
    boolean namespaced = store.definition().namespaced();
    if (!namespaced) {
      boolean self =
          info.resource().equals("namespaces") && Objects.equals(info.namespace(), info.name());
      if (info.namespace() != null && !self) {
        throw notFound();
      }
      info = info.withoutNamespace();
    } else if (info.namespace() == null
        && !request.method().equals("GET")
        && !request.method().equals("HEAD")) {
      throw notFound();
    }
    String verb = info.verb(request.method(), request.parameter("watch"));
    String sub = info.subresource();
    SubresourceAction action = sub == null ? null : store.definition().actions().get(sub);
    if (action != null && info.name() != null && !verb.equals("watch")) {
      checkPathNames(info);
      return actions.handle(context, info, target, verb, action);
    }
    boolean finalize =
        "finalize".equals(sub) && store.definition().kind().equals(GroupKind.of("", "Namespace"));
    if (sub != null
        && (info.name() == null
            || verb.equals("watch")
            || !(sub.equals("status") && store.definition().hasStatus())
                && !(sub.equals("scale") && store.definition().scale().isPresent())
                && !store.definition().updateSubresources().containsKey(sub)
                && !finalize)) {
      throw notFound();
    }
    if (finalize && !verb.equals("update")) {
      // A namespace's finalize subresource is written with PUT only, as kube's FinalizeREST.
      throw ApiErrors.newMethodNotSupported(store.groupResource(), request.method());
    }
    if (namespaced && info.namespace() == null && info.name() != null) {
      throw notFound();
    }
    checkPathNames(info);
    VerbHandler handler = verbs.get(verb);
    boolean needsName = verb.equals("update") || verb.equals("patch");
    if (handler == null
        || needsName && info.name() == null
        || sub == null && !store.definition().verbs().contains(verb)) {
      throw ApiErrors.newMethodNotSupported(store.groupResource(), request.method());
    }
    return handler.handle(context, info, target);
  }

  /**
   * A namespace in the path must be one a Namespace can have (a DNS-1123 label), and a name one a
   * path segment can hold ({@code IsValidPathSegmentName}): no object has any other, so the request
   * is a 400 naming it rather than an empty answer.
   */
  private static void checkPathNames(RequestInfo info) {
    if (info.namespace() != null) {
      List<String> problems = Validation.isDNS1123Label(info.namespace());
      if (!problems.isEmpty()) {
        throw ApiErrors.newBadRequest(
            "invalid namespace "
                + FieldError.quote(info.namespace())
                + ": "
                + String.join("; ", problems));
      }
    }
    if (info.name() != null) {
      List<String> problems = Validation.isValidPathSegmentName(info.name());
      if (!problems.isEmpty()) {
        throw ApiErrors.newBadRequest("invalid name (" + info.name() + "): " + problems);
      }
    }
  }

  static RuntimeException notFound() {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    status.setMessage("the server could not find the requested resource");
    status.setReason("NotFound");
    status.setDetails(new StatusDetails());
    status.setCode(404);
    return new StatusException(status);
  }
}
