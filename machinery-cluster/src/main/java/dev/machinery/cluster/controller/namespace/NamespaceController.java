package dev.machinery.cluster.controller.namespace;

import dev.machinery.api.core.v1.Namespace;
import dev.machinery.client.Client;
import dev.machinery.cluster.ControllerContext;
import dev.machinery.cluster.controller.garbagecollector.ServerResources;
import dev.machinery.controller.Controller;
import dev.machinery.controller.EventHandler;
import dev.machinery.controller.Reconciler;
import dev.machinery.controller.Request;
import dev.machinery.controller.Result;
import dev.machinery.controller.clock.Clock;
import dev.machinery.controller.workqueue.RateLimiters;
import dev.machinery.controller.workqueue.RateLimitingQueue;
import java.time.Duration;

/**
 * Sets up kube-controller-manager's {@code namespace-controller} (alias {@code namespace}) in a
 * {@link ControllerContext}: Namespaces with a deletion timestamp are queued 5 seconds after the
 * change is seen (kube's delay, so that creations racing the deletion land first), and ten workers
 * run the {@link NamespacedResourcesDeleter} on them as the {@code namespace-controller} service
 * account. While content remains, a namespace is looked at again after half the deleter's estimate
 * plus a second; failures are retried through a rate limiter of 5 ms doubling to 60 s (and 10 a
 * second overall), as kube's.
 *
 * <p>Thread-safe.
 */
public final class NamespaceController {
  /** kube-controller-manager's name of the controller. */
  public static final String NAME = "namespace-controller";

  /** The older name {@code --controllers} also accepts. */
  public static final String ALIAS = "namespace";

  /** The service account the controller's requests are made as. */
  public static final String SERVICE_ACCOUNT = "namespace-controller";

  /** How long after a namespace's deletion is seen it is processed, as kube's. */
  static final Duration DELETION_GRACE = Duration.ofSeconds(5);

  private NamespaceController() {}

  /**
   * Sets the namespace controller up.
   *
   * @param context the controller's context
   * @throws InterruptedException when interrupted
   */
  public static void initialize(ControllerContext context) throws InterruptedException {
    Client client = context.client(SERVICE_ACCOUNT);
    NamespacedResourcesDeleter deleter =
        new NamespacedResourcesDeleter(
            client, context.clock(), () -> ServerResources.preferred(client.discovery()));
    Reconciler reconciler =
        request -> {
          try {
            deleter.delete(request.name());
            return Result.done();
          } catch (NamespacedResourcesDeleter.ResourcesRemaining remaining) {
            return Result.requeueAfter(Duration.ofSeconds(remaining.estimate() / 2 + 1));
          }
        };
    context.add(
        Controller.builder(NAME, reconciler)
            .watches(context.informer(Namespace.class), new DeletedNamespaces())
            .workers(10)
            .rateLimiter(
                RateLimiters.maxOf(
                    RateLimiters.itemExponentialFailure(
                        Duration.ofMillis(5), Duration.ofSeconds(60)),
                    RateLimiters.bucket(10, 100, Clock.system())))
            .build());
  }

  /** Queues namespaces being deleted, after the grace delay; deletions are not queued. */
  private static final class DeletedNamespaces implements EventHandler<Namespace> {
    private static void enqueue(Namespace namespace, RateLimitingQueue<Request> queue) {
      if (namespace.getMetadata() != null
          && namespace.getMetadata().getDeletionTimestamp() != null) {
        queue.addAfter(new Request("", namespace.getMetadata().getName()), DELETION_GRACE);
      }
    }

    @Override
    public void create(Namespace object, RateLimitingQueue<Request> queue) {
      enqueue(object, queue);
    }

    @Override
    public void update(Namespace oldObject, Namespace newObject, RateLimitingQueue<Request> queue) {
      enqueue(newObject, queue);
    }

    @Override
    public void delete(
        Namespace object, boolean finalStateUnknown, RateLimitingQueue<Request> queue) {}
  }
}
