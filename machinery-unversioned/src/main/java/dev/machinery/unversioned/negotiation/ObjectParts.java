package dev.machinery.unversioned.negotiation;

import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.meta.v1.MetaV1;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.PartialObjectMetadata;
import dev.machinery.unversioned.meta.v1.PartialObjectMetadataList;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The parts of an object the transforms read: a list's items and {@code ListMeta}, an object's
 * {@code ObjectMeta} (through an accessor the server registered, or a public {@code getMetadata()})
 * and the {@code PartialObjectMetadata} made of it. Getters are looked up once per class. Safe for
 * concurrent use.
 */
final class ObjectParts {
  private final Map<Class<?>, Function<Object, ObjectMeta>> metadata;
  private final Map<String, Method> getters = new ConcurrentHashMap<>();

  ObjectParts(Map<Class<?>, Function<Object, ObjectMeta>> metadata) {
    this.metadata = Map.copyOf(metadata);
  }

  @SuppressWarnings("unchecked")
  List<Object> items(Object object) {
    Method getter = getter(object.getClass(), "getItems");
    if (getter == null || !List.class.isAssignableFrom(getter.getReturnType())) {
      return null;
    }
    return (List<Object>) invoke(getter, object);
  }

  ObjectMeta metadataOf(Object object) {
    Function<Object, ObjectMeta> accessor = metadata.get(object.getClass());
    if (accessor != null) {
      return accessor.apply(object);
    }
    Method getter = getter(object.getClass(), "getMetadata");
    if (getter != null && getter.getReturnType() == ObjectMeta.class) {
      return (ObjectMeta) invoke(getter, object);
    }
    throw new IllegalArgumentException(
        object.getClass().getName()
            + " has no ObjectMeta getMetadata(); register a metadata accessor for it");
  }

  ListMeta listMetaOf(Object list) {
    Method getter = getter(list.getClass(), "getMetadata");
    return getter != null && getter.getReturnType() == ListMeta.class
        ? (ListMeta) invoke(getter, list)
        : null;
  }

  private Method getter(Class<?> type, String name) {
    Method found =
        getters.computeIfAbsent(
            type.getName() + "#" + name,
            key -> {
              try {
                return type.getMethod(name);
              } catch (NoSuchMethodException e) {
                return NONE;
              }
            });
    return found == NONE ? null : found;
  }

  private static final Method NONE = noneMethod();

  private static Method noneMethod() {
    try {
      return Object.class.getMethod("hashCode");
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object invoke(Method method, Object target) {
    try {
      return method.invoke(target);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
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
