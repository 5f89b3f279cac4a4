package dev.machinery.cluster.controller.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.api.apps.v1.ControllerRevision;
import dev.machinery.client.Client;
import dev.machinery.cluster.controller.util.Copies;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.DeleteOptions;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code ControllerRevision}s of one controller's sets, read and written through its client
 * (Go's {@code history.Interface} with the revision helpers of {@code pkg/controller/history}).
 *
 * <p>Thread-safe: it holds only the client.
 */
public final class ControllerHistory {
  /** The label naming a pod's or a revision's template hash. */
  public static final String REVISION_LABEL = "controller-revision-hash";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

  private final Client client;

  /**
   * The history as one controller's client reads and writes it.
   *
   * @param client the controller's client
   */
  public ControllerHistory(Client client) {
    this.client = client;
  }

  /**
   * What a set whose revision name collided does: counts the collision in its status, so that the
   * next sync hashes to another name.
   */
  @FunctionalInterface
  public interface CollisionCounter {
    /**
     * Records the set's new collision count.
     *
     * @param collisionCount the count to write
     * @throws Exception when the write failed
     */
    void count(int collisionCount) throws Exception;
  }

  /**
   * The set a revision belongs to, as its revisions need it.
   *
   * @param meta the set's metadata (namespace and name)
   * @param controllerRef the controller reference its revisions carry
   * @param templateLabels the labels of its pod template, which its revisions carry too
   * @param collisionCount its {@code status.collisionCount}, or null
   */
  public record Owner(
      ObjectMeta meta,
      OwnerReference controllerRef,
      Map<String, String> templateLabels,
      Integer collisionCount) {}

  /**
   * A revision's data as kube stores it for a set: {@code {"spec":{"template":{…,
   * "$patch":"replace"}}}}, the set's template as a strategic merge patch that replaces it.
   *
   * @param set the set, as JSON
   * @return the revision data
   */
  public static JsonNode templatePatch(JsonNode set) {
    ObjectNode template = (ObjectNode) set.path("spec").path("template").deepCopy();
    template.put("$patch", "replace");
    ObjectNode spec = JSON.createObjectNode();
    spec.set("template", template);
    ObjectNode patch = JSON.createObjectNode();
    patch.set("spec", spec);
    return patch;
  }

  /**
   * The hash in a revision's name (Go's {@code HashControllerRevision}): FNV-1 32 of the data's
   * JSON, then of the probe's decimal digits, its decimal value in the safe alphabet of {@code
   * rand.SafeEncodeString}.
   *
   * @param data the revision's data
   * @param probe the set's collision count, or null
   * @return the hash, safe in a name
   */
  public static String hash(JsonNode data, Integer probe) {
    int hash = 0x811c9dc5;
    hash = fnv1(hash, json(data).getBytes(StandardCharsets.UTF_8));
    if (probe != null) {
      hash = fnv1(hash, Long.toString(probe).getBytes(StandardCharsets.UTF_8));
    }
    return safeEncode(Integer.toUnsignedString(hash));
  }

  /**
   * A revision's name (Go's {@code ControllerRevisionName}): the set's name, cut to 223 characters,
   * a dash and the hash.
   *
   * @param setName the set's name
   * @param hash the revision's hash
   * @return the name
   */
  static String revisionName(String setName, String hash) {
    String prefix = setName.length() > 223 ? setName.substring(0, 223) : setName;
    return prefix + "-" + hash;
  }

  static int fnv1(int hash, byte[] bytes) {
    for (byte b : bytes) {
      hash *= 0x01000193;
      hash ^= b & 0xff;
    }
    return hash;
  }

  private static String safeEncode(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      out.append(ALPHANUMS.charAt((b & 0xff) % ALPHANUMS.length()));
    }
    return out.toString();
  }

  private static String json(JsonNode data) {
    try {
      return JSON.writeValueAsString(data);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The revision of a set's current template: one of its history with equal data (renumbered to the
   * newest when it was older), else a new revision {@code <set>-<hash>}. A name taken by a revision
   * with other data is a collision: counted through {@code onCollision}, then the create's failure
   * is thrown so that the set is synced again.
   *
   * @param owner the set
   * @param data the current template's revision data ({@link #templatePatch})
   * @param history the set's revisions, oldest first
   * @param onCollision what counts a collision in the set's status
   * @return the current revision
   * @throws Exception when a request failed
   */
  public ControllerRevision currentRevision(
      Owner owner, JsonNode data, List<ControllerRevision> history, CollisionCounter onCollision)
      throws Exception {
    String namespace = owner.meta().getNamespace();
    long next = history.isEmpty() ? 1 : history.get(history.size() - 1).getRevision() + 1;
    for (ControllerRevision revision : history) {
      if (data.equals(revision.getData())) {
        if (revision.getRevision() != next - 1) {
          ControllerRevision renumbered = Copies.of(revision);
          renumbered.setRevision(next);
          return client
              .resources(ControllerRevision.class)
              .inNamespace(namespace)
              .update(renumbered);
        }
        return revision;
      }
    }
    Integer collisions = owner.collisionCount();
    String hash = hash(data, collisions);
    ControllerRevision revision = new ControllerRevision();
    revision.setApiVersion("apps/v1");
    revision.setKind("ControllerRevision");
    ObjectMeta meta = new ObjectMeta();
    meta.setName(revisionName(owner.meta().getName(), hash));
    meta.setNamespace(namespace);
    Map<String, String> labels = new LinkedHashMap<>(owner.templateLabels());
    labels.put(REVISION_LABEL, hash);
    meta.setLabels(labels);
    meta.setOwnerReferences(List.of(owner.controllerRef()));
    revision.setMetadata(meta);
    revision.setData(data);
    revision.setRevision(next);
    try {
      return client.resources(ControllerRevision.class).inNamespace(namespace).create(revision);
    } catch (Exception e) {
      if (!ApiErrors.isAlreadyExists(e)) {
        throw e;
      }
      ControllerRevision existing =
          client.resources(ControllerRevision.class).inNamespace(namespace).get(meta.getName());
      if (data.equals(existing.getData())) {
        return existing;
      }
      onCollision.count(collisions == null ? 1 : collisions + 1);
      throw e;
    }
  }

  /**
   * Deletes the oldest of a set's unused revisions beyond its limit; one already gone is no error.
   *
   * @param namespace the set's namespace
   * @param unused the revisions neither the set's status nor a pod uses, oldest first
   * @param limit the set's {@code revisionHistoryLimit}
   * @throws Exception when a request failed
   */
  public void truncate(String namespace, List<ControllerRevision> unused, int limit)
      throws Exception {
    for (int i = 0; i < unused.size() - limit; i++) {
      try {
        client
            .resources(ControllerRevision.class)
            .inNamespace(namespace)
            .delete(unused.get(i).getMetadata().getName(), new DeleteOptions());
      } catch (Exception e) {
        if (!ApiErrors.isNotFound(e)) {
          throw e;
        }
      }
    }
  }
}
