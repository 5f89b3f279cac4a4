package dev.machinery.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.apiserver.admission.AdmissionAttributes;
import dev.machinery.apiserver.admission.AdmissionChain;
import dev.machinery.apiserver.admission.NamespaceLifecycle;
import dev.machinery.apiserver.admission.Operation;
import dev.machinery.apiserver.admission.ResourceVersions;
import dev.machinery.apiserver.admission.webhook.MatchConditions;
import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.apiserver.authorization.Attributes;
import dev.machinery.apiserver.authorization.Authorizer;
import dev.machinery.apiserver.negotiation.ScaleAccessor;
import dev.machinery.apiserver.registry.webhook.WebhookAdmission;
import dev.machinery.apiserver.registry.webhook.WebhookClient;
import dev.machinery.apiserver.registry.webhook.WebhookValidation;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.patch.Patches;
import dev.machinery.core.schema.GroupKind;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.meta.v1.Accessor;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.Scale;
import dev.machinery.unversioned.validation.FieldError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The server's {@link AdmissionHook}: describes each write of a store as {@link
 * AdmissionAttributes} (the user and subresource of the requester the store is handed, {@link
 * ResourceStore#LOOPBACK} for the server's own writes) and runs the chain; tells {@link
 * NamespaceLifecycle} the state of a namespace from the store of Namespaces; then, when the server
 * serves webhook configurations, calls the admission webhooks ({@link WebhookAdmission}) with the
 * objects as JSON in the version the request was made in, after the chain's mutating plugins and
 * after its validating ones. An update of a {@code scale} subresource is admitted as kube-apiserver
 * admits it ({@link ScaleAdmission}): plugins, policies and webhooks see the {@code autoscaling/v1
 * Scale} of the object and of the stored one, and the replicas of the Scale they leave are written
 * back into the object. Thread-safe: the chain and the stores are set once while the server is
 * built.
 */
public final class AdmissionRunner implements AdmissionHook {
  private static final JsonMapper TREES = JsonMapper.builder().build();

  private final Codec json;

  /** The kind of mutating webhook configurations. */
  public static final GroupKind MUTATING_WEBHOOKS =
      GroupKind.of("admissionregistration.k8s.io", "MutatingWebhookConfiguration");

  /** The kind of validating webhook configurations. */
  public static final GroupKind VALIDATING_WEBHOOKS =
      GroupKind.of("admissionregistration.k8s.io", "ValidatingWebhookConfiguration");

  private AdmissionChain chain = AdmissionChain.of(java.util.List.of());
  private ResourceStore namespaces;
  private NamespaceStates namespaceStates;
  private WebhookConfigurations configurations;
  private WebhookAdmission webhooks;
  private Function<ResourceStore, List<String>> versions;
  private Optional<MatchConditions> matchConditions = Optional.empty();

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
    this.namespaceStates = namespaces == null ? null : new NamespaceStates(namespaces, json);
  }

  /**
   * Tells admission the versions each resource is served in, once while the server is built: the
   * attributes of a write then name the version its request was made in, and admission policies
   * match other versions ({@code matchPolicy: Equivalent}).
   *
   * @param versions the versions a store's resource is served in, most preferred first
   */
  public void attachVersions(Function<ResourceStore, List<String>> versions) {
    this.versions = versions;
  }

  /**
   * Turns on webhook admission, once while the server is built, when it serves either kind of
   * webhook configuration.
   *
   * @param mutating the store of MutatingWebhookConfigurations, or {@code null}
   * @param validating the store of ValidatingWebhookConfigurations, or {@code null}
   * @param client calls the webhooks
   * @param conditions evaluates match conditions, if the server has an implementation
   * @param versions the versions a store's resource is served in, most preferred first
   * @param storageFromMemory whether the storage answers from memory: the configurations are then
   *     read again whenever its revision has moved, else whenever a watch of them reports a change
   * @param authorizer the server's authorizer, for the {@code authorizer} of match conditions
   */
  public void attachWebhooks(
      ResourceStore mutating,
      ResourceStore validating,
      WebhookClient client,
      Optional<MatchConditions> conditions,
      Function<ResourceStore, List<String>> versions,
      boolean storageFromMemory,
      Supplier<Authorizer> authorizer) {
    this.configurations =
        new WebhookConfigurations(json, mutating, validating, namespaces, storageFromMemory);
    this.webhooks = new WebhookAdmission(configurations, client, conditions, authorizer);
    this.matchConditions = conditions;
    this.versions = versions;
  }

  /** Stops the threads of webhook admission, when the server closes. */
  public void close() {
    if (webhooks != null) {
      webhooks.close();
      configurations.close();
    }
  }

  @Override
  public Object mutate(
      Attributes requester,
      ResourceStore store,
      Operation operation,
      Object object,
      Object old,
      boolean dryRun,
      AdmissionNotes notes) {
    Optional<ScaleAccessor<Object>> scale = ScaleAdmission.accessor(requester, store);
    if (scale.isPresent() && operation == Operation.UPDATE) {
      return mutateScale(requester, store, scale.get(), object, old, dryRun, notes);
    }
    Object result =
        chain.isEmpty()
            ? object
            : chain.mutate(attributes(requester, store, operation, object, old, dryRun, notes));
    if (webhooks == null
        || WebhookAdmission.exempt(store.groupResource().group(), store.groupResource().resource())
        || configurations.webhooks(true).isEmpty()) {
      return result;
    }
    WebhookAdmission.Request request =
        webhookRequest(requester, store, operation, result, old, dryRun, notes);
    ObjectNode after = webhooks.mutate(request);
    if (operation == Operation.DELETE
        || after == request.object()
        || after.equals(request.object())) {
      return result;
    }
    GroupVersionKind kind = request.kind();
    Object decoded = store.model().decode(json, bytes(after), kind).object();
    return store.model().convert(decoded, store.storageKind());
  }

  @Override
  public void validate(
      Attributes requester,
      ResourceStore store,
      Operation operation,
      Object object,
      Object old,
      boolean dryRun,
      AdmissionNotes notes) {
    Optional<ScaleAccessor<Object>> scale = ScaleAdmission.accessor(requester, store);
    if (scale.isPresent() && operation == Operation.UPDATE) {
      validateScale(requester, store, scale.get(), object, old, dryRun, notes);
      return;
    }
    if (!chain.isEmpty()) {
      chain.validate(attributes(requester, store, operation, object, old, dryRun, notes));
    }
    if (store == namespaces && operation == Operation.DELETE && !dryRun) {
      namespaceStates.deleting(Accessor.of(old != null ? old : object).getName());
    }
    if (webhooks != null
        && operation != Operation.DELETE
        && (store == configurations.mutating() || store == configurations.validating())) {
      // What kube-apiserver's registry checks of a webhook configuration.
      List<FieldError> errors =
          WebhookValidation.validate(
              Patches.readTree(json.encode(object), "the webhook configuration"),
              store == configurations.mutating(),
              matchConditions);
      if (!errors.isEmpty()) {
        throw ApiErrors.newInvalid(
            store.storageKind().groupKind(), Accessor.of(object).getName(), errors);
      }
    }
    if (webhooks == null
        || WebhookAdmission.exempt(store.groupResource().group(), store.groupResource().resource())
        || configurations.webhooks(false).isEmpty()) {
      return;
    }
    webhooks.validate(webhookRequest(requester, store, operation, object, old, dryRun, notes));
  }

  /**
   * Admits an update of the scale subresource as its Scale: the mutating plugins, then the mutating
   * webhooks; the Scale's replicas, when they changed, are written into the object.
   */
  private Object mutateScale(
      Attributes requester,
      ResourceStore store,
      ScaleAccessor<Object> accessor,
      Object object,
      Object old,
      boolean dryRun,
      AdmissionNotes notes) {
    Class<?> type = store.definition().scaleType();
    Scale before = ScaleAdmission.read(accessor, type, object);
    Scale oldScale = ScaleAdmission.read(accessor, type, old);
    Scale current = before;
    if (!chain.isEmpty()) {
      // The chain hands on objects of the class it was given: a Scale.
      current =
          (Scale)
              chain.mutate(
                  scaleAttributes(requester, store, object, old, current, oldScale, dryRun, notes));
    }
    if (webhooks != null && !configurations.webhooks(true).isEmpty()) {
      WebhookAdmission.Request request =
          scaleRequest(requester, store, object, old, current, oldScale, dryRun, notes);
      ObjectNode after = webhooks.mutate(request);
      if (after != request.object() && !after.equals(request.object())) {
        current = ScaleAdmission.patched(current, after);
      }
    }
    if (ScaleAdmission.replicas(current) != ScaleAdmission.replicas(before)) {
      // The object is the store's new one, made for this write: changed in place.
      accessor.write(object, current);
    }
    return object;
  }

  /** Admits an update of the scale subresource as its Scale: validating plugins and webhooks. */
  private void validateScale(
      Attributes requester,
      ResourceStore store,
      ScaleAccessor<Object> accessor,
      Object object,
      Object old,
      boolean dryRun,
      AdmissionNotes notes) {
    Class<?> type = store.definition().scaleType();
    Scale scale = ScaleAdmission.read(accessor, type, object);
    Scale oldScale = ScaleAdmission.read(accessor, type, old);
    if (!chain.isEmpty()) {
      chain.validate(
          scaleAttributes(requester, store, object, old, scale, oldScale, dryRun, notes));
    }
    if (webhooks != null && !configurations.webhooks(false).isEmpty()) {
      webhooks.validate(
          scaleRequest(requester, store, object, old, scale, oldScale, dryRun, notes));
    }
  }

  /** The attributes of a scale update: the Scales, with the resource in its storage version. */
  private AdmissionAttributes scaleAttributes(
      Attributes requester,
      ResourceStore store,
      Object object,
      Object old,
      Scale scale,
      Scale oldScale,
      boolean dryRun,
      AdmissionNotes notes) {
    AdmissionAttributes parent =
        attributes(requester, store, Operation.UPDATE, object, old, dryRun, notes);
    return new AdmissionAttributes(
        Operation.UPDATE,
        ScaleAdmission.SCALE,
        store.groupResource(),
        store.storageKind().version(),
        "scale",
        parent.namespace(),
        parent.name(),
        scale,
        oldScale,
        requester.user(),
        dryRun,
        notes,
        // The Scale is the same in every version of the resource.
        resourceVersions(
            requester, store, version -> ScaleAdmission.SCALE, (each, version) -> each));
  }

  /**
   * A scale update as webhooks see it: the Scales' JSON, the resource in the version the request
   * was made in.
   */
  private WebhookAdmission.Request scaleRequest(
      Attributes requester,
      ResourceStore store,
      Object object,
      Object old,
      Scale scale,
      Scale oldScale,
      boolean dryRun,
      AdmissionNotes notes) {
    AdmissionAttributes parent =
        attributes(requester, store, Operation.UPDATE, object, old, dryRun, notes);
    String version = requestVersion(requester, store);
    return new WebhookAdmission.Request(
        Operation.UPDATE,
        ScaleAdmission.SCALE,
        GroupVersion.of(store.groupResource().group(), version),
        store.groupResource().resource(),
        "scale",
        parent.namespace(),
        parent.name(),
        requester.user(),
        dryRun,
        scaleTree(scale),
        oldScale == null ? null : scaleTree(oldScale),
        servedVersions(store),
        // A Scale is the same in every version of the resource: nothing to convert.
        (tree, to) -> tree,
        notes::warning,
        notes::annotate);
  }

  private ObjectNode scaleTree(Scale scale) {
    return (ObjectNode) Patches.readTree(json.encode(scale), "the Scale");
  }

  private List<String> servedVersions(ResourceStore store) {
    List<String> served = new ArrayList<>();
    served.add(store.storageKind().version());
    if (versions == null) {
      return List.copyOf(served);
    }
    for (String each : versions.apply(store)) {
      if (!served.contains(each)) {
        served.add(each);
      }
    }
    return List.copyOf(served);
  }

  /** The write as webhooks see it: JSON in the version the request was made in. */
  private WebhookAdmission.Request webhookRequest(
      Attributes requester,
      ResourceStore store,
      Operation operation,
      Object object,
      Object old,
      boolean dryRun,
      AdmissionNotes notes) {
    AdmissionAttributes attributes =
        attributes(requester, store, operation, object, old, dryRun, notes);
    GroupVersionKind storageKind = store.storageKind();
    String version = requestVersion(requester, store);
    GroupVersionKind kind = GroupVersionKind.of(storageKind.group(), version, storageKind.kind());
    WebhookAdmission.Converter converter =
        (tree, to) -> {
          GroupVersionKind from =
              GroupVersionKind.fromApiVersionAndKind(
                  tree.path("apiVersion").asText(""), tree.path("kind").asText(""));
          Object decoded = store.model().decode(json, bytes(tree), from).object();
          return tree(store, decoded, to);
        };
    return new WebhookAdmission.Request(
        operation,
        kind,
        store.groupResource().resource(),
        requester.resource().equals(store.groupResource().resource())
            ? requester.subresource()
            : "",
        attributes.namespace(),
        attributes.name(),
        requester.user(),
        dryRun,
        object == null ? null : tree(store, object, kind),
        old == null ? null : tree(store, old, kind),
        servedVersions(store),
        converter,
        notes::warning,
        notes::annotate);
  }

  private ObjectNode tree(ResourceStore store, Object object, GroupVersionKind kind) {
    Object converted = store.model().copyTo(object, kind);
    return (ObjectNode) Patches.readTree(json.encode(converted), "the object");
  }

  private static byte[] bytes(JsonNode tree) {
    try {
      return TREES.writeValueAsBytes(tree);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private AdmissionAttributes attributes(
      Attributes request,
      ResourceStore store,
      Operation operation,
      Object object,
      Object old,
      boolean dryRun,
      AdmissionNotes notes) {
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
    GroupVersionKind storageKind = store.storageKind();
    return new AdmissionAttributes(
        operation,
        storageKind,
        store.groupResource(),
        storageKind.version(),
        request.subresource(),
        namespace,
        name,
        object,
        old,
        user,
        dryRun,
        notes,
        resourceVersions(
            request,
            store,
            version -> GroupVersionKind.of(storageKind.group(), version, storageKind.kind()),
            (each, version) ->
                version.equals(storageKind.version())
                    ? each
                    : store
                        .model()
                        .copyTo(
                            each,
                            GroupVersionKind.of(
                                storageKind.group(), version, storageKind.kind()))));
  }

  /**
   * The versions of the store's resource: the one the request names (the storage version for the
   * server's own writes and for a write of another resource's request), and those served.
   */
  private ResourceVersions resourceVersions(
      Attributes request,
      ResourceStore store,
      Function<String, GroupVersionKind> kinds,
      java.util.function.BiFunction<Object, String, Object> converter) {
    String asked = requestVersion(request, store);
    // Read when a policy asks, not on every write.
    return new ResourceVersions() {
      private volatile List<String> served;

      @Override
      public String requested() {
        return served().contains(asked) ? asked : store.storageKind().version();
      }

      @Override
      public List<String> served() {
        List<String> known = served;
        if (known == null) {
          known = servedVersions(store);
          served = known;
        }
        return known;
      }

      @Override
      public GroupVersionKind kindIn(String version) {
        check(version);
        return kinds.apply(version);
      }

      @Override
      public Object convert(Object object, String version) {
        check(version);
        return object == null ? null : converter.apply(object, version);
      }

      private void check(String version) {
        if (!served().contains(version)) {
          throw new IllegalArgumentException(
              store.groupResource() + " is not served in version \"" + version + "\"");
        }
      }
    };
  }

  /** The version a request names for the store's resource, else the storage version. */
  private static String requestVersion(Attributes requester, ResourceStore store) {
    return requester.apiVersion().isEmpty()
            || !requester.apiGroup().equals(store.groupResource().group())
            || !requester.resource().equals(store.groupResource().resource())
        ? store.storageKind().version()
        : requester.apiVersion();
  }

  /**
   * The state of a namespace, for {@link NamespaceLifecycle} and for the check that a namespace
   * exists before anything is created in it: read from the Namespaces' watch cache, and from the
   * storage when the cache cannot tell ({@link NamespaceStates}).
   *
   * @param name the namespace
   * @return its state; {@code ABSENT} when the server serves no Namespaces
   */
  public NamespaceLifecycle.State namespaceState(String name) {
    return namespaceStates == null ? NamespaceLifecycle.State.ABSENT : namespaceStates.state(name);
  }
}
