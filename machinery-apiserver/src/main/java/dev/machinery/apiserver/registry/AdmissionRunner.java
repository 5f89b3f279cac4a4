package dev.machinery.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionChain;
import dev.machinery.apiserver.admission.NamespaceLifecycle;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.core.codec.Codec;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The server's {@link AdmissionHook}: describes each write of a store as {@link
 * AdmissionAttributes} (the user and subresource of the requester the store is handed, {@link
 * ResourceStore#LOOPBACK} for the server's own writes) and runs the chain; tells {@link
 * NamespaceLifecycle} the state of a namespace from the store of Namespaces. Thread-safe: the chain
 * and the store are set once while the server is built.
 */
public final class AdmissionRunner implements AdmissionHook {
  private static final JsonMapper TREES = JsonMapper.builder().build();

  private final Codec json;
  private AdmissionChain chain = AdmissionChain.of(java.util.List.of());
  private ResourceStore namespaces;

  /**
   * Creates the hook; {@link #attach} gives it its chain.
   *
   * @param json the JSON codec, to read a Namespace's phase
   */
  public AdmissionRunner(Codec json) {
    this.json = json;
  }

  /**
   * Called once while the server is built.
   *
   * @param chain the admission chain
   * @param namespaces the store of Namespaces, or {@code null} when none are served
   */
  public void attach(AdmissionChain chain, ResourceStore namespaces) {
    this.chain = chain;
    this.namespaces = namespaces;
  }

  @Override
  public Object mutate(
      Attributes requester,
      ResourceStore store,
      Operation operation,
      Object object,
      Object old,
      boolean dryRun) {
    if (chain.isEmpty()) {
      return object;
    }
    return chain.mutate(attributes(requester, store, operation, object, old, dryRun));
  }

  @Override
  public void validate(
      Attributes requester,
      ResourceStore store,
      Operation operation,
      Object object,
      Object old,
      boolean dryRun) {
    if (!chain.isEmpty()) {
      chain.validate(attributes(requester, store, operation, object, old, dryRun));
    }
  }

  private static AdmissionAttributes attributes(
      Attributes request,
      ResourceStore store,
      Operation operation,
      Object object,
      Object old,
      boolean dryRun) {
    UserInfo user = request.user();
    MetaObject meta = Accessor.of(object != null ? object : old);
    MetaObject stored = old == null ? meta : Accessor.of(old);
    String namespace = meta.getNamespace();
    if (namespace == null || namespace.isEmpty()) {
      // An update's body may leave the namespace out; the object keeps the stored one.
      namespace = stored.getNamespace();
    }
    String name = meta.getName();
    if (name == null || name.isEmpty()) {
      name = stored.getName();
    }
    return new AdmissionAttributes(
        operation,
        store.storageKind(),
        store.groupResource(),
        request.subresource(),
        namespace,
        name,
        object,
        old,
        user,
        dryRun);
  }

  /**
   * The state of a namespace, for {@link NamespaceLifecycle}.
   *
   * @param name the namespace
   * @return its state
   */
  public NamespaceLifecycle.State namespaceState(String name) {
    Object namespace;
    try {
      namespace = namespaces.get(null, name);
    } catch (RuntimeException e) {
      if (ApiErrors.isNotFound(e)) {
        return NamespaceLifecycle.State.ABSENT;
      }
      throw e;
    }
    if (Accessor.of(namespace).getDeletionTimestamp() != null) {
      return NamespaceLifecycle.State.TERMINATING;
    }
    try {
      JsonNode tree = TREES.readTree(json.encode(namespace));
      return tree.path("status").path("phase").asText("").equals("Terminating")
          ? NamespaceLifecycle.State.TERMINATING
          : NamespaceLifecycle.State.ACTIVE;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
