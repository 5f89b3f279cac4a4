package dev.machinery.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.machinery.apiserver.registry.webhook.Webhook;
import dev.machinery.apiserver.registry.webhook.WebhookAdmission;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.patch.Patches;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The webhook configurations as stored now, for {@link WebhookAdmission}: read again from the two
 * stores whenever the storage's revision has moved since the last read, so a configuration applies
 * to every write admitted after it is stored (immediately, where kube-apiserver waits for its
 * informer); each configuration's webhooks are parsed once per resourceVersion. Thread-safe.
 */
final class WebhookConfigurations implements WebhookAdmission.Source {
  private final Codec json;
  private final ResourceStore mutating;
  private final ResourceStore validating;
  private final ResourceStore namespaces;
  private final Map<String, List<Webhook>> parsed = new ConcurrentHashMap<>();
  private volatile Snapshot snapshot;

  private record Snapshot(long revision, List<Webhook> mutating, List<Webhook> validating) {}

  WebhookConfigurations(
      Codec json, ResourceStore mutating, ResourceStore validating, ResourceStore namespaces) {
    this.json = json;
    this.mutating = mutating;
    this.validating = validating;
    this.namespaces = namespaces;
  }

  /** The store of MutatingWebhookConfigurations, or {@code null}. */
  ResourceStore mutating() {
    return mutating;
  }

  /** The store of ValidatingWebhookConfigurations, or {@code null}. */
  ResourceStore validating() {
    return validating;
  }

  @Override
  public List<Webhook> webhooks(boolean wantMutating) {
    ResourceStore any = mutating != null ? mutating : validating;
    long revision = any.currentRevision();
    Snapshot current = snapshot;
    if (current == null || current.revision() != revision) {
      current = new Snapshot(revision, read(mutating, true), read(validating, false));
      snapshot = current;
    }
    return wantMutating ? current.mutating() : current.validating();
  }

  private List<Webhook> read(ResourceStore store, boolean isMutating) {
    if (store == null) {
      return List.of();
    }
    List<Object> items = new ArrayList<>(store.list(null, o -> true, 0, null, "").items());
    items.sort(Comparator.comparing(o -> Accessor.of(o).getName()));
    List<Webhook> out = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    for (Object item : items) {
      MetaObject meta = Accessor.of(item);
      String key = (isMutating ? "m/" : "v/") + meta.getName() + "/" + meta.getResourceVersion();
      seen.add(key);
      out.addAll(
          parsed.computeIfAbsent(
              key,
              k -> {
                JsonNode tree = Patches.readTree(json.encode(item), "the webhook configuration");
                return Webhook.read(tree, isMutating);
              }));
    }
    parsed.keySet().removeIf(k -> k.startsWith(isMutating ? "m/" : "v/") && !seen.contains(k));
    return List.copyOf(out);
  }

  @Override
  public Optional<Map<String, String>> namespaceLabels(String namespace) {
    if (namespaces == null) {
      return Optional.of(Map.of());
    }
    try {
      Map<String, String> labels = Accessor.of(namespaces.getShared(null, namespace)).getLabels();
      return Optional.of(labels == null ? Map.of() : labels);
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
