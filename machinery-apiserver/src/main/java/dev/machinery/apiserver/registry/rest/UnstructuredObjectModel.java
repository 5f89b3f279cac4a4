package dev.machinery.apiserver.registry.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.MissingKindException;
import dev.machinery.core.codec.MissingVersionException;
import dev.machinery.core.merge.VersionConverter;
import dev.machinery.core.patch.StrategicMergeSchema;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.errors.ApiErrors;
import dev.machinery.unversioned.errors.StatusException;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.unstructured.Unstructured;
import dev.machinery.unversioned.unstructured.UnstructuredList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The objects of a resource held without classes: {@link Unstructured} JSON trees, of the kind they
 * name, converted between versions by the resource's {@link UnstructuredConversion}, listed in an
 * {@link UnstructuredList}, their status the {@code status} entry of their content. Custom
 * resources are held so, and so are the built-in kinds read from Kubernetes' OpenAPI description.
 * Immutable; thread-safe.
 */
final class UnstructuredObjectModel implements ObjectModel {
  /**
   * Field management's conversion of trees held without classes (the None strategy): every version
   * has the same shape, only {@code apiVersion} changes.
   */
  private static final VersionConverter NONE_CONVERSION =
      (value, apiVersion) -> {
        JsonNode tree = value.value();
        if (!tree.isObject() || tree.path("apiVersion").asText("").equals(apiVersion)) {
          return Optional.of(value);
        }
        ObjectNode copy = ((ObjectNode) tree).deepCopy();
        copy.put("apiVersion", apiVersion);
        return Optional.of(value.with(copy));
      };

  private static final StatusAccess CONTENT_STATUS =
      new StatusAccess() {
        @Override
        public Object get(Object object) {
          return unstructured(object).content().get("status");
        }

        @Override
        public void set(Object object, Object status) {
          if (status == null) {
            unstructured(object).content().remove("status");
          } else {
            unstructured(object).content().put("status", status);
          }
        }

        /** A custom resource starts with no status, as kube-apiserver creates it. */
        @Override
        public void reset(Object object) {
          set(object, null);
        }
      };

  private final ResourceDefinition definition;

  UnstructuredObjectModel(ResourceDefinition definition) {
    this.definition = definition;
  }

  /** Every object the model holds is an {@link Unstructured}; anything else is a fault. */
  private static Unstructured unstructured(Object object) {
    return (Unstructured) object;
  }

  @Override
  public Class<?> type(GroupVersionKind kind) {
    return Unstructured.class;
  }

  /**
   * An object's kind is the one it names (a custom resource is a kind the Scheme does not
   * register), or the endpoint's when the resource takes its kind from there.
   */
  @Override
  public Decoded<Object> decode(Codec codec, byte[] body, GroupVersionKind endpoint) {
    Codec reading = definition.kindFromEndpoint() ? codec.withDefaultKind(endpoint) : codec;
    Decoded<Unstructured> decoded = reading.decode(body, Unstructured.class);
    Unstructured object = decoded.object();
    if (object.getApiVersion() == null || object.getApiVersion().isEmpty()) {
      throw new MissingVersionException("Object 'apiVersion' is missing");
    }
    if (object.getKind() == null || object.getKind().isEmpty()) {
      throw new MissingKindException("Object 'Kind' is missing");
    }
    return new Decoded<>(
        object,
        GroupVersionKind.fromApiVersionAndKind(object.getApiVersion(), object.getKind()),
        decoded.warnings());
  }

  /**
   * The object's fields below its root frozen ({@link FrozenJson}): its root map stays the same,
   * its values become compact and unmodifiable.
   */
  @Override
  public Object shareable(Object decoded) {
    unstructured(decoded).content().replaceAll((name, value) -> FrozenJson.freeze(value));
    return decoded;
  }

  @Override
  public Object convert(Object object, GroupVersionKind to) {
    Unstructured held = unstructured(object);
    if (!to.apiVersion().equals(held.getApiVersion())) {
      convertInPlace(held, to);
    }
    return held;
  }

  @Override
  public Object copyTo(Object object, GroupVersionKind to) {
    Unstructured held = unstructured(object);
    if (to.apiVersion().equals(held.getApiVersion())) {
      return held;
    }
    Unstructured copy = held.deepCopy();
    convertInPlace(copy, to);
    return copy;
  }

  /**
   * Versions of one group only relabelled, as field management reads custom resources; an object
   * stored in another group (an {@code events.k8s.io} Event kept as a core Event) converted, as its
   * fields have other names there.
   */
  @Override
  public Object forFieldManagement(Object object, GroupVersionKind to) {
    Unstructured held = unstructured(object);
    String from = held.getApiVersion();
    if (from != null && !GroupVersion.parse(from).group().equals(to.group())) {
      return copyTo(held, to);
    }
    held.setApiVersion(to.apiVersion());
    return object;
  }

  @Override
  public VersionConverter fieldConverter() {
    return NONE_CONVERSION;
  }

  @Override
  public Object list(GroupVersionKind kind, ListMeta meta, List<Object> items) {
    UnstructuredList list = new UnstructuredList();
    list.setApiVersion(kind.apiVersion());
    list.setKind(kind.kind() + "List");
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("resourceVersion", meta.getResourceVersion());
    if (meta.getContinue() != null) {
      metadata.put("continue", meta.getContinue());
    }
    if (meta.getRemainingItemCount() != null) {
      metadata.put("remainingItemCount", meta.getRemainingItemCount());
    }
    list.setMetadata(metadata);
    List<Unstructured> objects = new ArrayList<>(items.size());
    items.forEach(item -> objects.add(unstructured(item)));
    list.setItems(objects);
    return list;
  }

  /** Objects held without classes merge only by a schema their resource declares. */
  @Override
  public Optional<StrategicMergeSchema> strategicMergeSchema(Class<?> type) {
    return Optional.empty();
  }

  @Override
  public StatusAccess status(Class<?> storageClass) {
    return CONTENT_STATUS;
  }

  /**
   * Converts an object by its resource's conversion; a conversion that fails is an internal error
   * naming the versions, as kube-apiserver reports a failed webhook.
   */
  private void convertInPlace(Unstructured object, GroupVersionKind to) {
    String from = object.getApiVersion();
    try {
      definition.conversion().convert(object.content(), to.groupVersion());
    } catch (StatusException e) {
      // The conversion answered itself (a client's object it cannot read: 400).
      throw e;
    } catch (RuntimeException e) {
      throw ApiErrors.newInternalError(
          new IllegalStateException(
              "conversion of "
                  + to.kind()
                  + " from "
                  + from
                  + " to "
                  + to.groupVersion()
                  + " failed: "
                  + e.getMessage(),
              e));
    }
    object.setApiVersion(to.apiVersion());
  }
}
