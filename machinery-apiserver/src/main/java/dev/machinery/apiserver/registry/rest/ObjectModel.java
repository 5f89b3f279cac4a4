package dev.machinery.apiserver.registry.rest;

import dev.machinery.core.codec.Codec;
import dev.machinery.core.codec.Decoded;
import dev.machinery.core.merge.VersionConverter;
import dev.machinery.core.patch.StrategicMergeSchema;
import dev.machinery.core.runtime.Scheme;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.unversioned.meta.v1.ListMeta;
import dev.machinery.unversioned.unstructured.Unstructured;
import java.util.List;
import java.util.Optional;

/**
 * How a resource's objects are held while the server reads, converts, stores and answers them — the
 * one place where a resource of a kind the Scheme registers ({@link #typed}: instances of its
 * classes, converted by the Scheme's generated conversions) differs from one held without classes
 * ({@link #unstructured}: {@code Unstructured} JSON trees described by a schema, converted by the
 * resource's {@link UnstructuredConversion}, as custom resources are). The handlers, the registry
 * and field management ask the resource's model and never look at an object's class.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface ObjectModel {
  /**
   * The model of a resource whose kind the Scheme registers.
   *
   * @param scheme the Scheme
   * @param json the JSON codec of the Scheme, for the trees of field management
   * @return the model
   */
  static ObjectModel typed(Scheme scheme, Codec json) {
    return new TypedObjectModel(scheme, json);
  }

  /**
   * The model of a resource whose kind the Scheme registers with a class: {@link #unstructured}
   * when that class is {@code Unstructured} (a kind registered to be held without a class of its
   * own), else {@link #typed}.
   *
   * @param scheme the Scheme
   * @param json the JSON codec of the Scheme
   * @param storageClass the class the Scheme registers for the kind's storage version
   * @param definition the resource
   * @return the model
   */
  static ObjectModel of(
      Scheme scheme, Codec json, Class<?> storageClass, ResourceDefinition definition) {
    return heldWithoutClass(storageClass) ? unstructured(definition) : typed(scheme, json);
  }

  /**
   * Whether a Scheme's class for a kind stands for objects held without a class of their own (it is
   * {@code Unstructured}), whose resource takes no strategic merge patch unless it declares a
   * schema for one.
   *
   * @param type the class a Scheme registers for a kind
   * @return true for {@code Unstructured}
   */
  static boolean heldWithoutClass(Class<?> type) {
    return type == Unstructured.class;
  }

  /**
   * The model of a resource held without classes.
   *
   * @param definition the resource, whose conversion, kind rule and schemas apply
   * @return the model
   */
  static ObjectModel unstructured(ResourceDefinition definition) {
    return new UnstructuredObjectModel(definition);
  }

  /**
   * An object decoded to be shared by every reader (the watch cache's copy of a stored object,
   * which no reader may change), held as compactly as the model can: objects held without classes
   * have their JSON values frozen (compact, unmodifiable: a change throws {@link
   * UnsupportedOperationException}); the Scheme's classes are held as they are.
   *
   * @param decoded an object the model decoded, in the storage version; not used elsewhere
   * @return the object to share: equal to {@code decoded} and encoded to the same bytes
   */
  default Object shareable(Object decoded) {
    return decoded;
  }

  /**
   * The class the objects of a kind are held in.
   *
   * @param kind a kind of the resource in one version
   * @return the class
   * @throws IllegalArgumentException when the model does not hold the kind
   */
  Class<?> type(GroupVersionKind kind);

  /**
   * Decodes an object a client wrote to an endpoint of the resource.
   *
   * @param codec the codec of the body's format, with the request's field validation
   * @param body the body
   * @param endpoint the kind the endpoint serves
   * @return the object, its kind and the decoder's warnings
   */
  Decoded<Object> decode(Codec codec, byte[] body, GroupVersionKind endpoint);

  /**
   * Converts an object the request owns into another version of its kind (it may be changed in
   * place).
   *
   * @param object the object
   * @param to the kind in the version wanted
   * @return the object in that version
   */
  Object convert(Object object, GroupVersionKind to);

  /**
   * Converts an object that may be shared (with the watch cache, with other requests) into another
   * version, leaving it as it is.
   *
   * @param object the object
   * @param to the kind in the version wanted
   * @return the object in that version, a new one when it differs
   */
  Object copyTo(Object object, GroupVersionKind to);

  /**
   * The object as field management reads it in another version of its kind: converted for a typed
   * resource; for one held without classes only its {@code apiVersion} changes, as field management
   * converts custom resources (the {@code None} strategy).
   *
   * @param object the object, which the request owns
   * @param to the kind in the version wanted
   * @return the object in that version
   */
  Object forFieldManagement(Object object, GroupVersionKind to);

  /**
   * How field management moves an object's tree between versions.
   *
   * @return the converter
   */
  VersionConverter fieldConverter();

  /**
   * A list of the resource's objects in one version.
   *
   * @param kind the kind of the items, in the list's version
   * @param meta the list's metadata
   * @param items the items
   * @return the list
   */
  Object list(GroupVersionKind kind, ListMeta meta, List<Object> items);

  /**
   * How a strategic merge patch merges the objects of a class, when the resource declares no schema
   * of its own for it.
   *
   * @param type the class
   * @return the strategies of the class's Java type; empty when the objects have no such type (a
   *     strategic merge patch is then refused, as for custom resources)
   */
  Optional<StrategicMergeSchema> strategicMergeSchema(Class<?> type);

  /**
   * The {@code status} of the resource's objects in their storage class.
   *
   * @param storageClass the class objects are stored in
   * @return the accessor
   * @throws IllegalArgumentException when the class has no status the codecs read and a setter
   *     writes
   */
  StatusAccess status(Class<?> storageClass);

  /**
   * Reads and writes the {@code status} of a resource's objects: the main resource keeps the stored
   * status, the {@code status} subresource changes only it, and a created object starts with the
   * status a new one has.
   *
   * <p>Implementations are immutable and thread-safe.
   */
  interface StatusAccess {
    /**
     * The object's status.
     *
     * @param object the object
     * @return its status, or null
     */
    Object get(Object object);

    /**
     * Sets the object's status.
     *
     * @param object the object
     * @param status the status, or null for none
     */
    void set(Object object, Object status);

    /**
     * Gives a created object the status a new one starts with.
     *
     * @param object the object
     */
    void reset(Object object);
  }
}
