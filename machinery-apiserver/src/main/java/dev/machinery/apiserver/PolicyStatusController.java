package dev.machinery.apiserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.machinery.apiserver.admission.policy.PolicyObjects;
import dev.machinery.apiserver.admission.policy.PolicyTypeChecker;
import dev.machinery.apiserver.admission.policy.PolicyTypeChecker.ExpressionWarning;
import dev.machinery.apiserver.http.ApiRequest;
import dev.machinery.apiserver.http.ApiResponse;
import dev.machinery.apiserver.registry.ResourceStore;
import dev.machinery.apiserver.storage.StorageEvent;
import dev.machinery.apiserver.storage.StorageException;
import dev.machinery.apiserver.storage.StorageWatch;
import dev.machinery.unversioned.errors.ApiErrors;
import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's ValidatingAdmissionPolicy status controller: for each generation of a policy
 * (its {@code metadata.generation} above its {@code status.observedGeneration}) it type checks the
 * policy's validations ({@link PolicyTypeChecker}) and applies {@code status.observedGeneration}
 * and {@code status.typeChecking} (its {@code expressionWarnings} left out when there is none)
 * through the request path, as a server-side apply of the {@code status} subresource by the field
 * manager {@value #FIELD_MANAGER} with {@code force}. As with kube-apiserver's structured merge, a
 * generation without warnings after one with them leaves no {@code typeChecking} at all (removing
 * the last field of the applied, otherwise empty object removes the object). It follows the stored
 * policies with a storage watch on a daemon thread of its own, so the status is written soon after
 * a create or update, not within it.
 *
 * <p>A policy whose status could not be written is reconciled again, from its stored state, when
 * the watch has been idle for a second, as kube-apiserver's controller requeues it.
 *
 * <p>Thread-safe: one thread reconciles, until {@link #close()}.
 */
final class PolicyStatusController implements AutoCloseable {
  /** The field manager of the status writes, as kube-apiserver's controller names itself. */
  static final String FIELD_MANAGER = "validatingadmissionpolicy-status-controller";

  /**
   * The logger, made on first use: the server logs nothing while it starts, and the first logger
   * starts SLF4J (its provider found and configured), which costs a fresh JVM about 0.1 s.
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(PolicyStatusController.class);
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PATH =
      "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/";

  private final ResourceStore policies;
  private final PolicyObjects objects;
  private final PolicyTypeChecker checker;
  private final Function<ApiRequest, ApiResponse> loopback;
  private volatile boolean closed;
  private volatile Thread thread;

  /** The policies whose status could not be written, tried again when the watch is idle. */
  private final Set<String> failed = new LinkedHashSet<>();

  private PolicyStatusController(
      ResourceStore policies,
      PolicyObjects objects,
      PolicyTypeChecker checker,
      Function<ApiRequest, ApiResponse> loopback) {
    this.policies = policies;
    this.objects = objects;
    this.checker = checker;
    this.loopback = loopback;
  }

  /**
   * Starts the controller: the watch is opened at once, at the revision of a first list, so that no
   * policy written after the server is built is missed; the policies already stored are reconciled
   * by the thread first.
   */
  static PolicyStatusController start(
      ResourceStore policies,
      PolicyObjects objects,
      PolicyTypeChecker checker,
      Function<ApiRequest, ApiResponse> loopback) {
    PolicyStatusController controller =
        new PolicyStatusController(policies, objects, checker, loopback);
    ResourceStore.Page page = policies.list(null, o -> true, 0, null, "");
    StorageWatch first = policies.watch(null, page.revision());
    Thread thread =
        new Thread(
            () -> {
              for (Object policy : page.items()) {
                controller.reconcileQuietly(policy);
              }
              controller.run(page.revision(), first);
            },
            "validatingadmissionpolicy status controller");
    thread.setDaemon(true);
    controller.thread = thread;
    thread.start();
    return controller;
  }

  /** Stops the thread, waiting up to ten seconds for it. Calling it again does nothing more. */
  @Override
  public void close() {
    closed = true;
    Thread running = thread;
    if (running != null && running != Thread.currentThread()) {
      running.interrupt();
      try {
        running.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void run(long revision, StorageWatch first) {
    long after = revision;
    long backoff = 0;
    StorageWatch opened = first;
    while (!closed) {
      StorageWatch next = opened;
      opened = null;
      try (StorageWatch watch = next != null ? next : policies.watch(null, after)) {
        backoff = 0;
        while (!watch.isDone() && !closed) {
          StorageEvent event = watch.poll(1, TimeUnit.SECONDS);
          if (event == null) {
            retryFailed();
            continue;
          }
          after = event.revision();
          if (event.type() != StorageEvent.Type.DELETE) {
            reconcileQuietly(policies.decode(event.kv()));
          }
        }
        StorageException error = watch.error();
        if (error != null && error.kind() == StorageException.Kind.COMPACTED && !closed) {
          // The changes in between are gone: every policy is looked at again.
          ResourceStore.Page page = policies.list(null, o -> true, 0, null, "");
          for (Object policy : page.items()) {
            reconcileQuietly(policy);
          }
          after = page.revision();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        if (closed) {
          return;
        }
        Log.LOG.debug("the ValidatingAdmissionPolicy watch failed; starting it again", e);
        backoff = Math.min(backoff == 0 ? 1000 : backoff * 2, 30_000);
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
    if (opened != null) {
      opened.close();
    }
  }

  private void reconcileQuietly(Object policy) {
    Map<String, Object> tree = objects.tree(policy);
    String name = name(tree);
    boolean done;
    try {
      done = reconcile(tree);
    } catch (RuntimeException e) {
      if (!closed) {
        Log.LOG.warn("type checking ValidatingAdmissionPolicy {} failed", name, e);
      }
      done = false;
    }
    if (done) {
      failed.remove(name);
    } else {
      failed.add(name);
    }
  }

  /** Reconciles again, from their stored state, the policies whose status could not be written. */
  private void retryFailed() {
    for (String name : List.copyOf(failed)) {
      if (closed) {
        return;
      }
      Object policy;
      try {
        policy = policies.get(null, name);
      } catch (RuntimeException e) {
        if (ApiErrors.isNotFound(e)) {
          failed.remove(name);
        }
        continue;
      }
      reconcileQuietly(policy);
    }
  }

  private static String name(Map<String, Object> policy) {
    Object metadata = policy.get("metadata");
    return metadata instanceof Map<?, ?> m ? String.valueOf(m.get("name")) : "";
  }

  /**
   * Type checks a policy and applies its status, unless its generation was observed already.
   *
   * @return false when the status could not be written (tried again later)
   */
  boolean reconcile(Map<String, Object> policy) {
    long generation = number(policy, "metadata", "generation");
    long observed = number(policy, "status", "observedGeneration");
    if (generation <= observed) {
      return true;
    }
    String name = name(policy);
    List<Map<String, Object>> warnings = new ArrayList<>();
    for (ExpressionWarning warning : checker.check(policy)) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("fieldRef", warning.fieldRef());
      entry.put("warning", warning.warning());
      warnings.add(entry);
    }
    Map<String, Object> typeChecking = new LinkedHashMap<>();
    if (!warnings.isEmpty()) {
      typeChecking.put("expressionWarnings", warnings);
    }
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("observedGeneration", generation);
    status.put("typeChecking", typeChecking);
    Map<String, Object> apply = new LinkedHashMap<>();
    apply.put("apiVersion", "admissionregistration.k8s.io/v1");
    apply.put("kind", "ValidatingAdmissionPolicy");
    apply.put("metadata", Map.of("name", name));
    apply.put("status", status);
    byte[] body;
    try {
      body = JSON.writeValueAsBytes(apply);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    ApiResponse response =
        loopback.apply(
            new ApiRequest(
                "PATCH",
                PATH + name + "/status",
                Map.of("fieldManager", List.of(FIELD_MANAGER), "force", List.of("true")),
                Map.of("Content-Type", List.of("application/apply-patch+yaml")),
                new ByteArrayInputStream(body)));
    if (response.status() >= 300 && response.status() != 404) {
      if (closed) {
        return false;
      }
      Log.LOG.warn(
          "applying the status of ValidatingAdmissionPolicy {} failed: {} {}",
          URLEncoder.encode(name, StandardCharsets.UTF_8),
          response.status(),
          new String(response.body(), StandardCharsets.UTF_8));
      return false;
    }
    return true;
  }

  private static long number(Map<String, Object> tree, String first, String second) {
    Object parent = tree.get(first);
    if (parent instanceof Map<?, ?> map && map.get(second) instanceof Number n) {
      return n.longValue();
    }
    return 0;
  }
}
