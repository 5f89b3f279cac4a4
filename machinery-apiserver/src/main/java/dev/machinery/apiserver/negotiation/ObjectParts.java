package dev.machinery.apiserver.negotiation;

import dev.machinery.conversion.Property;
import dev.machinery.core.runtime.WireProperties;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.PartialObjectMetadata;
import dev.machinery.unversioned.meta.v1.PartialObjectMetadataList;
import dev.machinery.unversioned.unstructured.UnstructuredList;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The parts of an object the transforms read: a list's items and {@code ListMeta}, an object's
 * {@code ObjectMeta} (through an accessor the server registered for the object's class, or its
 * {@code metadata} property as the codecs see it; a list's {@code ListMeta} likewise) and the
 * {@code PartialObjectMetadata} made of it. Safe for concurrent use.
 */
final class ObjectParts {
  private final Map<Class<?>, Function<Object, ObjectMeta>> metadata;
  private final Map<Class<?>, Function<Object, ListMeta>> listMetadata;

  ObjectParts(
      Map<Class<?>, Function<Object, ObjectMeta>> metadata,
      Map<Class<?>, Function<Object, ListMeta>> listMetadata) {
    this.metadata = Map.copyOf(metadata);
    this.listMetadata = Map.copyOf(listMetadata);
  }

  /**
   * The {@code ListMeta} of a list held without a class ({@link UnstructuredList}, a custom
   * resource's list), whose metadata is a map of JSON values.
   */
  static ListMeta unstructuredListMetadata(Object list) {
    Map<String, Object> fields = ((UnstructuredList) list).getMetadata();
    if (fields == null) {
      return null;
    }
    ListMeta meta = new ListMeta();
    if (fields.get("resourceVersion") instanceof String version) {
      meta.setResourceVersion(version);
    }
    if (fields.get("continue") instanceof String token) {
      meta.setContinue(token);
    }
    if (fields.get("remainingItemCount") instanceof Number count) {
      meta.setRemainingItemCount(count.longValue());
    }
    return meta;
  }

  @SuppressWarnings("unchecked")
  List<Object> items(Object object) {
    Property items = property(object, "items", List.class);
    return items == null ? null : (List<Object>) read(items, object);
  }

  ObjectMeta metadataOf(Object object) {
    Function<Object, ObjectMeta> accessor = metadata.get(object.getClass());
    if (accessor != null) {
      return accessor.apply(object);
    }
    Property meta = property(object, "metadata", ObjectMeta.class);
    if (meta != null) {
      return (ObjectMeta) read(meta, object);
    }
    throw new IllegalArgumentException(
        object.getClass().getName()
            + " has no metadata property of type ObjectMeta; register a metadata accessor for it");
  }

  ListMeta listMetaOf(Object list) {
    Function<Object, ListMeta> accessor = listMetadata.get(list.getClass());
    if (accessor != null) {
      return accessor.apply(list);
    }
    Property meta = property(list, "metadata", ListMeta.class);
    return meta == null ? null : (ListMeta) read(meta, list);
  }

  private static Property property(Object object, String name, Class<?> type) {
    Property property = WireProperties.standard().property(object.getClass(), name);
    return property != null && type.isAssignableFrom(property.rawType()) ? property : null;
  }

  private static Object read(Property property, Object target) {
    try {
      return property.get(target);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  Object partial(Object object) {
    List<Object> items = items(object);
    if (items == null) {
      return partialOf(object);
    }
    PartialObjectMetadataList list = new PartialObjectMetadataList();
    list.setApiVersion(MetaV1.META_V1.toString());
    list.setKind("PartialObjectMetadataList");
    ListMeta listMeta = listMetaOf(object);
    if (listMeta != null) {
      list.setMetadata(listMeta);
    }
    List<PartialObjectMetadata> partials = new ArrayList<>(items.size());
    for (Object item : items) {
      partials.add(partialOf(item));
    }
    list.setItems(partials);
    return list;
  }

  PartialObjectMetadata partialOf(Object object) {
    PartialObjectMetadata partial = new PartialObjectMetadata();
    partial.setApiVersion(MetaV1.META_V1.toString());
    partial.setKind("PartialObjectMetadata");
    partial.setMetadata(metadataOf(object));
    return partial;
  }
}
