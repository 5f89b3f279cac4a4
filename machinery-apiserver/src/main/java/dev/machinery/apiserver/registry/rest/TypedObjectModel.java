package dev.machinery.apiserver.registry.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.machinery.conversion.Property;
import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.codec.MissingKindException;
import dev.machinery.core.codec.MissingVersionException;
import dev.machinery.core.codec.ObjectJson;
import dev.machinery.core.merge.TypedValue;
import dev.machinery.core.merge.VersionConverter;
import dev.machinery.core.patch.StrategicMergeSchema;
import dev.machinery.core.runtime.GroupVersioner;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.runtime.WireProperties;
import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.typed.JavaSchemas;
import dev.machinery.unversioned.meta.v1.ListMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;

/**
 * The objects of a kind the Scheme registers: instances of its classes, converted between versions
 * by the Scheme, listed in a {@link ResourceList}, their status a property of their class read
 * through {@link WireProperties}. Immutable; thread-safe.
 */
final class TypedObjectModel implements ObjectModel {
  private static final ObjectMapper TREES = ObjectJson.mapperBuilder().build();

  private final Scheme scheme;
  private final Codec json;

  TypedObjectModel(Scheme scheme, Codec json) {
    this.scheme = scheme;
    this.json = json;
  }

  @Override
  public Class<?> type(GroupVersionKind kind) {
    return scheme
        .typeFor(kind)
        .orElseThrow(() -> new IllegalArgumentException("the Scheme does not register " + kind));
  }

  /** A body names its kind; one that does not is read as the endpoint's class. */
  @Override
  public Decoded<Object> decode(Codec codec, byte[] body, GroupVersionKind endpoint) {
    try {
      return codec.decode(body);
    } catch (MissingKindException | MissingVersionException e) {
      Decoded<?> typed = codec.decode(body, type(endpoint));
      return new Decoded<>(typed.object(), typed.kind(), typed.warnings());
    }
  }

  @Override
  public Object convert(Object object, GroupVersionKind to) {
    return copyTo(object, to);
  }

  @Override
  public Object copyTo(Object object, GroupVersionKind to) {
    if (scheme.kindFor(object).groupVersion().equals(to.groupVersion())) {
      return object;
    }
    return scheme.convertToVersion(object, GroupVersioner.of(to.groupVersion()));
  }

  @Override
  public Object forFieldManagement(Object object, GroupVersionKind to) {
    return copyTo(object, to);
  }

  /** Converts trees between versions through the Scheme's conversions. */
  @Override
  public VersionConverter fieldConverter() {
    return (value, apiVersion) -> {
      JsonNode tree = value.value();
      String from = tree.path("apiVersion").asText("");
      if (from.equals(apiVersion) || !tree.isObject()) {
        return Optional.of(value);
      }
      String kindName = tree.path("kind").asText("");
      GroupVersionKind target = GroupVersion.parse(apiVersion).withKind(kindName);
      Optional<Class<?>> targetType = scheme.typeFor(target);
      Optional<Class<?>> sourceType = scheme.typeFor(GroupVersion.parse(from).withKind(kindName));
      if (targetType.isEmpty() || sourceType.isEmpty()) {
        return Optional.empty();
      }
      try {
        Object source = json.decode(TREES.writeValueAsBytes(tree), sourceType.get()).object();
        Object converted =
            scheme.convertToVersion(source, GroupVersioner.of(target.groupVersion()));
        ObjectNode out = (ObjectNode) TREES.readTree(json.encode(converted));
        out.put("apiVersion", apiVersion);
        out.put("kind", kindName);
        return Optional.of(new TypedValue(JavaSchemas.of(targetType.get()), out));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
  }

  @Override
  public Object list(GroupVersionKind kind, ListMeta meta, List<Object> items) {
    return ResourceList.of(kind.groupVersion().withKind(kind.kind() + "List"), meta, items);
  }

  @Override
  public Optional<StrategicMergeSchema> strategicMergeSchema(Class<?> type) {
    return Optional.of(StrategicMergeSchema.ofType(type));
  }

  @Override
  public StatusAccess status(Class<?> storageClass) {
    Property property = WireProperties.standard().property(storageClass, "status");
    if (property == null || property.index() >= 0) {
      throw new IllegalArgumentException(
          "a status subresource needs a status property with a getter and a setter; "
              + storageClass.getName()
              + " has none");
    }
    try {
      return new PropertyStatus(storageClass, property, storageClass.getConstructor());
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(
          storageClass.getName() + " has no public no-argument constructor", e);
    }
  }

  /**
   * A class's {@code status} property, read and written through the one property model the codecs
   * use, as the {@code scale} subresource is through its accessor: no JSON round trip. A created
   * object starts with the status a new instance of its class has, or an empty one when that is
   * null, as kube-apiserver writes {@code status: {}}.
   */
  private record PropertyStatus(Class<?> type, Property property, Constructor<?> constructor)
      implements StatusAccess {
    @Override
    public Object get(Object object) {
      try {
        return property.get(object);
      } catch (InvocationTargetException e) {
        throw new IllegalStateException("the status getter of " + type.getName() + " failed", e);
      }
    }

    @Override
    public void set(Object object, Object status) {
      try {
        property.set(object, status);
      } catch (InvocationTargetException e) {
        throw new IllegalStateException("the status setter of " + type.getName() + " failed", e);
      }
    }

    @Override
    public void reset(Object object) {
      Object initial;
      try {
        initial = get(constructor.newInstance());
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot make a new " + type.getName(), e);
      }
      set(object, initial != null ? initial : empty());
    }

    /**
     * An empty status of the property's type: an empty map for a map, a new instance of a class of
     * the model with a public no-argument constructor, or null for any other type (which has no
     * empty value).
     */
    private Object empty() {
      Class<?> raw = property.rawType();
      if (raw.isAssignableFrom(LinkedHashMap.class)) {
        return new LinkedHashMap<>();
      }
      if (raw.isInterface()
          || Modifier.isAbstract(raw.getModifiers())
          || raw.isPrimitive()
          || raw.getName().startsWith("java.")) {
        return null;
      }
      try {
        return raw.getConstructor().newInstance();
      } catch (NoSuchMethodException e) {
        return null;
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot make a new " + raw.getName(), e);
      }
    }
  }
}
