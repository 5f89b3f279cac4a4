package dev.machinery.cluster.controller.util;

import dev.machinery.api.core.v1.Pod;
import dev.machinery.api.core.v1.PodTemplateSpec;
import dev.machinery.client.Client;
import dev.machinery.controller.events.Event;
import dev.machinery.controller.events.EventRecorder;
import dev.machinery.core.runtime.ApiObject;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;

/**
 * Creates and deletes a controller's pods as Kubernetes' {@code RealPodControl}: a pod made from a
 * template carries its labels, annotations and finalizers, a copy of its spec, the name prefix
 * {@code <owner>-} (the server appends five random characters) and the owner's controller
 * reference; every create and delete is an event on the owner ({@code SuccessfulCreate} "Created
 * pod: NAME", {@code FailedCreate} "Error creating: ...", {@code SuccessfulDelete} "Deleted pod:
 * NAME", {@code FailedDelete} "Error deleting: ...").
 *
 * <p>Thread-safe (the client and recorder are).
 */
public final class PodControl {
  /** The reason of a pod created. */
  public static final String SUCCESSFUL_CREATE = "SuccessfulCreate";

  /** The reason of a pod that could not be created. */
  public static final String FAILED_CREATE = "FailedCreate";

  /** The reason of a pod deleted. */
  public static final String SUCCESSFUL_DELETE = "SuccessfulDelete";

  /** The reason of a pod that could not be deleted. */
  public static final String FAILED_DELETE = "FailedDelete";

  /** The cause a create is refused with in a namespace being deleted. */
  public static final String NAMESPACE_TERMINATING_CAUSE = "NamespaceTerminating";

  private final Client client;
  private final EventRecorder recorder;

  /**
   * Creates a pod control.
   *
   * @param client the controller's client
   * @param recorder the controller's event recorder
   */
  public PodControl(Client client, EventRecorder recorder) {
    this.client = Objects.requireNonNull(client, "client");
    this.recorder = Objects.requireNonNull(recorder, "recorder");
  }

  /**
   * Returns the pod a template gives for an owner (kube's {@code GetPodFromTemplate}).
   *
   * @param template the template
   * @param ownerName the owner's name, the prefix of the pod's
   * @param controllerRef the owner's controller reference, or null
   * @return the pod, not created
   */
  public static Pod podFromTemplate(
      PodTemplateSpec template, String ownerName, OwnerReference controllerRef) {
    ObjectMeta templateMeta = template.getMetadata();
    ObjectMeta meta = new ObjectMeta();
    if (templateMeta != null) {
      if (templateMeta.getLabels() != null) {
        meta.setLabels(new LinkedHashMap<>(templateMeta.getLabels()));
      }
      if (templateMeta.getAnnotations() != null) {
        meta.setAnnotations(new LinkedHashMap<>(templateMeta.getAnnotations()));
      }
      if (templateMeta.getFinalizers() != null) {
        meta.setFinalizers(new ArrayList<>(templateMeta.getFinalizers()));
      }
    }
    meta.setGenerateName(prefix(ownerName));
    if (controllerRef != null) {
      meta.setOwnerReferences(List.of(controllerRef));
    }
    Pod pod = new Pod();
    pod.setApiVersion("v1");
    pod.setKind("Pod");
    pod.setMetadata(meta);
    pod.setSpec(template.getSpec());
    // The template's spec is the cache's: the pod gets a copy of its own.
    return Copies.of(pod);
  }

  /**
   * Returns the name prefix of an owner's pods: {@code <owner>-}, or the owner's name alone when
   * that would be longer than a name may be.
   *
   * @param ownerName the owner's name
   * @return the prefix
   */
  public static String prefix(String ownerName) {
    String prefix = ownerName + "-";
    // A generated name must stay a DNS subdomain (253 characters) once a character is appended.
    return prefix.length() + 1 > 253 ? ownerName : prefix;
  }

  /**
   * Creates a pod from a template in the owner's namespace and records the event.
   *
   * @param namespace the namespace
   * @param template the template
   * @param owner the owner (the event's subject)
   * @param ownerName the owner's name
   * @param controllerRef the owner's controller reference
   * @return the pod created
   * @throws Exception the server's refusal
   */
  public Pod createPod(
      String namespace,
      PodTemplateSpec template,
      ApiObject owner,
      String ownerName,
      OwnerReference controllerRef)
      throws Exception {
    Pod pod = podFromTemplate(template, ownerName, controllerRef);
    pod.getMetadata().setNamespace(namespace);
    if (pod.getMetadata().getLabels() == null || pod.getMetadata().getLabels().isEmpty()) {
      throw new IllegalArgumentException("unable to create pods, no labels");
    }
    Pod created;
    try {
      created = client.resources(Pod.class).inNamespace(namespace).create(pod);
    } catch (StatusException e) {
      if (!hasCause(e, NAMESPACE_TERMINATING_CAUSE)) {
        recorder.eventf(
            owner,
            null,
            Event.TYPE_WARNING,
            FAILED_CREATE,
            "Create",
            "Error creating: %s",
            e.getMessage());
      }
      throw e;
    }
    recorder.eventf(
        owner,
        null,
        Event.TYPE_NORMAL,
        SUCCESSFUL_CREATE,
        "Create",
        "Created pod: %s",
        created.getMetadata().getName());
    return created;
  }

  /**
   * Deletes a pod and records the event (a pod already gone is no event, and is thrown as the
   * server's 404).
   *
   * @param namespace the namespace
   * @param name the pod's name
   * @param owner the owner (the event's subject)
   * @throws Exception the server's refusal
   */
  public void deletePod(String namespace, String name, ApiObject owner) throws Exception {
    try {
      client.resources(Pod.class).inNamespace(namespace).delete(name);
    } catch (Exception e) {
      if (!ApiErrors.isNotFound(e)) {
        recorder.eventf(
            owner,
            null,
            Event.TYPE_WARNING,
            FAILED_DELETE,
            "Delete",
            "Error deleting: %s",
            e.getMessage());
      }
      throw e;
    }
    recorder.eventf(
        owner, null, Event.TYPE_NORMAL, SUCCESSFUL_DELETE, "Delete", "Deleted pod: %s", name);
  }

  /**
   * Tells whether a refusal's Status carries a cause of the given type.
   *
   * @param e the refusal
   * @param type the cause's type
   * @return true when present
   */
  public static boolean hasCause(StatusException e, String type) {
    var status = e.status();
    if (status == null || status.getDetails() == null || status.getDetails().getCauses() == null) {
      return false;
    }
    return status.getDetails().getCauses().stream().anyMatch(c -> type.equals(c.getReason()));
  }
}
