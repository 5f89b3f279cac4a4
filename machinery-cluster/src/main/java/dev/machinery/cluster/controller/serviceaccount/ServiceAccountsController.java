package dev.machinery.cluster.controller.serviceaccount;

import dev.machinery.api.core.v1.Namespace;
import dev.machinery.api.core.v1.ServiceAccount;
import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.cache.Lister;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import java.util.List;
import java.util.Optional;

/**
 * Makes sure every active namespace holds the {@code default} ServiceAccount, as Go's {@code
 * ServiceAccountsController}: a namespace added or updated is synced, a {@code default} account
 * deleted is made again; a namespace that is not {@code Active} (being deleted) is left alone, and
 * a create refused because the namespace is gone or terminating is not retried. It writes as
 * {@value #IDENTITY}.
 *
 * <p>Thread-safe: the controller's workers may sync different namespaces at once.
 */
public final class ServiceAccountsController {
  /** kube-controller-manager's name of this controller. */
  public static final String NAME = "serviceaccount-controller";

  /** The older name {@code --controllers} accepts. */
  public static final String ALIAS = "serviceaccount";

  /** The service account the controller writes as. */
  public static final String IDENTITY = "service-account-controller";

  /**
   * The accounts every namespace gets (kube's default {@code ServiceAccountsControllerOptions}).
   */
  public static final List<String> ACCOUNTS = List.of("default");

  private final Lister<Namespace> namespaces;
  private final Lister<ServiceAccount> accounts;
  private final Client client;

  private ServiceAccountsController(
      Lister<Namespace> namespaces, Lister<ServiceAccount> accounts, Client client) {
    this.namespaces = namespaces;
    this.accounts = accounts;
    this.client = client;
  }

  /**
   * Sets the controller up in a context: informers of namespaces and service accounts, a controller
   * keyed by namespace.
   *
   * @param context the controller context
   * @throws InterruptedException when interrupted while a late controller waits for its caches
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    var namespaceInformer = context.informer(Namespace.class);
    var accountInformer = context.informer(ServiceAccount.class);
    ServiceAccountsController sync =
        new ServiceAccountsController(
            namespaceInformer.lister(), accountInformer.lister(), context.client(IDENTITY));
    context.add(
        Controller.builder(NAME, sync::reconcile)
            .watches(namespaceInformer, namespaceEvents())
            .watches(accountInformer, deletedAccounts())
            .workers(1)
            .build());
  }

  /** Syncs one namespace (the request's name). */
  Result reconcile(Request request) {
    String name = request.name();
    Optional<Namespace> namespace = namespaces.get(name);
    if (namespace.isEmpty()) {
      return Result.done();
    }
    Namespace ns = namespace.get();
    String phase = ns.getStatus() == null ? null : ns.getStatus().getPhase();
    if (phase != null && !phase.equals("Active")) {
      // Kube skips a namespace that is not active: it is being deleted.
      return Result.done();
    }
    if (ns.getMetadata() != null && ns.getMetadata().getDeletionTimestamp() != null) {
      return Result.done();
    }
    for (String account : ACCOUNTS) {
      if (accounts.namespace(name).get(account).isPresent()) {
        continue;
      }
      ServiceAccount created = new ServiceAccount();
      ObjectMeta meta = new ObjectMeta();
      meta.setName(account);
      meta.setNamespace(name);
      created.setMetadata(meta);
      try {
        client.resources(ServiceAccount.class).inNamespace(name).create(created);
      } catch (RuntimeException e) {
        if (ApiErrors.isAlreadyExists(e)) {
          continue;
        }
        if (ApiErrors.isNotFound(e) || namespaceTerminating(e)) {
          return Result.done();
        }
        throw e;
      }
    }
    return Result.done();
  }

  private static boolean namespaceTerminating(RuntimeException e) {
    if (!ApiErrors.isForbidden(e)) {
      return false;
    }
    var status = ApiErrors.statusFor(e);
    return status.getDetails() != null
        && status.getDetails().getCauses() != null
        && status.getDetails().getCauses().stream()
            .anyMatch(c -> "NamespaceTerminating".equals(c.getReason()));
  }

  private static EventHandler<Namespace> namespaceEvents() {
    return new EventHandler<>() {
      @Override
      public void create(Namespace object, RateLimitingQueue<Request> queue) {
        queue.add(new Request("", object.getMetadata().getName()));
      }

      @Override
      public void update(
          Namespace oldObject, Namespace newObject, RateLimitingQueue<Request> queue) {
        queue.add(new Request("", newObject.getMetadata().getName()));
      }

      @Override
      public void delete(
          Namespace object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        // Nothing to make in a namespace that is gone.
      }
    };
  }

  private static EventHandler<ServiceAccount> deletedAccounts() {
    return new EventHandler<>() {
      @Override
      public void create(ServiceAccount object, RateLimitingQueue<Request> queue) {}

      @Override
      public void update(
          ServiceAccount oldObject, ServiceAccount newObject, RateLimitingQueue<Request> queue) {}

      @Override
      public void delete(
          ServiceAccount object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {
        ObjectMeta meta = object.getMetadata();
        if (meta != null && ACCOUNTS.contains(meta.getName())) {
          queue.add(new Request("", meta.getNamespace()));
        }
      }
    };
  }
}
