package dev.machinery.builtins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.registry.rest.SubresourceAction;
import dev.machinery.apiserver.registry.rest.SubresourceCall;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.Status;
import dev.machinery.unversioned.meta.v1.StatusDetails;
import dev.machinery.unversioned.validation.FieldError;
import dev.machinery.unversioned.validation.FieldPath;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pod's {@code binding} subresource, as kube-apiserver's {@code BindingREST}: a {@code POST} of a
 * {@code v1 Binding} whose {@code target} names a node sets the pod's {@code spec.nodeName}, copies
 * the Binding's annotations onto the pod and sets the {@code PodScheduled=True} condition, in one
 * compare-and-swap write, answering {@code 201} with a {@code Status} of {@code Success}. A pod
 * already assigned is a {@code 409} ({@code pod X is already assigned to node "Y"}), so is one
 * being deleted or one whose UID is not the Binding's; the Binding's name must be the pod's, its
 * target's kind empty or {@code Node} and its target's name set.
 *
 * <p>Immutable and thread-safe.
 */
final class PodBinding {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private PodBinding() {}

  /** The action, for {@code ResourceDefinition.Builder.subresource("binding", ...)}. */
  static SubresourceAction action() {
    return new SubresourceAction(
        GroupVersion.of("", "v1").withKind("Binding"), List.of("create"), PodBinding::bind);
  }

  static SubresourceAction.Response bind(SubresourceCall call) {
    ObjectNode binding =
        call.body().orElseThrow(() -> ApiErrors.newBadRequest("a Binding is expected"));
    String name = binding.path("metadata").path("name").asText("");
    if (!name.equals(call.name())) {
      throw ApiErrors.newBadRequest("name in URL does not match name in Binding object");
    }
    List<FieldError> errors = new ArrayList<>();
    JsonNode target = binding.path("target");
    String kind = target.path("kind").asText("");
    if (!kind.isEmpty() && !kind.equals("Node")) {
      errors.add(
          FieldError.notSupported(
              FieldPath.of("target", "kind"), kind, List.of("Node", "<empty>")));
    }
    String node = target.path("name").asText("");
    if (node.isEmpty()) {
      errors.add(FieldError.required(FieldPath.of("target", "name"), ""));
    }
    if (!errors.isEmpty()) {
      throw ApiErrors.newInvalid(GroupKind.of("", "Binding"), name, errors);
    }
    String uid = binding.path("metadata").path("uid").asText("");
    JsonNode annotations = binding.path("metadata").path("annotations");
    call.updateParent(
        pod -> {
          String podName = pod.path("metadata").path("name").asText();
          String storedUid = pod.path("metadata").path("uid").asText("");
          if (!uid.isEmpty() && !uid.equals(storedUid)) {
            throw conflict(
                podName,
                "Precondition failed: UID in precondition: "
                    + uid
                    + ", UID in object meta: "
                    + storedUid);
          }
          if (!pod.path("metadata").path("deletionTimestamp").asText("").isEmpty()) {
            throw conflict(
                podName, "pod " + podName + " is being deleted, cannot be assigned to a host");
          }
          ObjectNode spec = pod.withObject("/spec");
          String assigned = spec.path("nodeName").asText("");
          if (!assigned.isEmpty()) {
            throw conflict(
                podName, "pod " + podName + " is already assigned to node \"" + assigned + "\"");
          }
          spec.put("nodeName", node);
          if (annotations.isObject() && !annotations.isEmpty()) {
            ObjectNode podAnnotations = pod.withObject("/metadata/annotations");
            for (Map.Entry<String, JsonNode> entry : annotations.properties()) {
              podAnnotations.set(entry.getKey(), entry.getValue());
            }
          }
          setScheduled(pod.withObject("/status"));
          return pod;
        });
    ObjectNode status = NODES.objectNode();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Success");
    status.put("code", 201);
    return new SubresourceAction.Response(201, status);
  }

  /**
   * A {@code 409} on {@code pods/binding}, as kube-apiserver wraps a binding's failure ({@code
   * NewConflict(Resource("pods/binding"), ...)}), which a {@code GroupResource} cannot name.
   */
  private static StatusException conflict(String name, String why) {
    Status status = new Status();
    status.setApiVersion("v1");
    status.setKind("Status");
    status.setStatus("Failure");
    status.setReason("Conflict");
    status.setCode(409);
    status.setMessage("Operation cannot be fulfilled on pods/binding \"" + name + "\": " + why);
    StatusDetails details = new StatusDetails();
    details.setKind("pods/binding");
    details.setName(name);
    status.setDetails(details);
    return new StatusException(status);
  }

  /** Sets {@code PodScheduled=True}, its transition time moved only when its status changes. */
  private static void setScheduled(ObjectNode status) {
    ArrayNode conditions =
        status.path("conditions").isArray()
            ? (ArrayNode) status.get("conditions")
            : status.putArray("conditions");
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    for (JsonNode existing : conditions) {
      if ("PodScheduled".equals(existing.path("type").asText())) {
        ObjectNode condition = (ObjectNode) existing;
        if (!"True".equals(condition.path("status").asText())) {
          condition.put("lastTransitionTime", now);
        }
        condition.put("status", "True");
        condition.remove("reason");
        condition.remove("message");
        condition.putNull("lastProbeTime");
        return;
      }
    }
    ObjectNode condition = conditions.addObject();
    condition.put("type", "PodScheduled");
    condition.put("status", "True");
    condition.putNull("lastProbeTime");
    condition.put("lastTransitionTime", now);
  }
}
