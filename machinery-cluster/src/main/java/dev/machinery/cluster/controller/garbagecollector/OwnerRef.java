package dev.machinery.cluster.controller.garbagecollector;

import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An owner reference as the garbage collector holds it (an immutable copy of {@code
 * metadata.ownerReferences[i]}).
 *
 * <p>Immutable; thread-safe.
 *
 * @param apiVersion the owner's API version
 * @param kind the owner's kind
 * @param name the owner's name
 * @param uid the owner's uid
 * @param controller {@code controller}, or null when unset
 * @param blockOwnerDeletion {@code blockOwnerDeletion}, or null when unset
 */
record OwnerRef(
    String apiVersion,
    String kind,
    String name,
    String uid,
    Boolean controller,
    Boolean blockOwnerDeletion) {
  /**
   * Normalises missing strings to empty.
   *
   * @param apiVersion see the record description
   * @param kind see the record description
   * @param name see the record description
   * @param uid see the record description
   * @param controller see the record description
   * @param blockOwnerDeletion see the record description
   */
  public OwnerRef {
    apiVersion = Objects.requireNonNullElse(apiVersion, "");
    kind = Objects.requireNonNullElse(kind, "");
    name = Objects.requireNonNullElse(name, "");
    uid = Objects.requireNonNullElse(uid, "");
  }

  /**
   * Copies an owner reference.
   *
   * @param ref the reference
   * @return the copy
   */
  public static OwnerRef of(OwnerReference ref) {
    return new OwnerRef(
        ref.getApiVersion(),
        ref.getKind(),
        ref.getName(),
        ref.getUid(),
        ref.getController(),
        ref.getBlockOwnerDeletion());
  }

  /**
   * Copies an object's owner references.
   *
   * @param meta the object's metadata
   * @return the references, in order; empty when it has none
   */
  public static List<OwnerRef> of(MetaObject meta) {
    List<OwnerReference> refs = meta.getOwnerReferences();
    if (refs == null || refs.isEmpty()) {
      return List.of();
    }
    List<OwnerRef> copies = new ArrayList<>(refs.size());
    for (OwnerReference ref : refs) {
      copies.add(of(ref));
    }
    return List.copyOf(copies);
  }

  /**
   * Tells whether this reference blocks its owner's foreground deletion ({@code blockOwnerDeletion:
   * true}).
   *
   * @return true when it blocks
   */
  public boolean blocking() {
    return Boolean.TRUE.equals(blockOwnerDeletion);
  }

  /**
   * Returns the reference with only its coordinates (API version, kind, name, uid).
   *
   * @return the coordinates
   */
  public OwnerRef coordinates() {
    return new OwnerRef(apiVersion, kind, name, uid, null, null);
  }

  /**
   * Returns the reference with {@code blockOwnerDeletion} set.
   *
   * @param block the new value
   * @return the reference
   */
  public OwnerRef withBlockOwnerDeletion(Boolean block) {
    return new OwnerRef(apiVersion, kind, name, uid, controller, block);
  }

  /**
   * Writes the reference as JSON, its fields in the API's order, unset flags left out.
   *
   * @return the JSON object
   */
  String toJson() {
    StringBuilder json = new StringBuilder("{");
    json.append("\"apiVersion\":").append(Json.quote(apiVersion));
    json.append(",\"kind\":").append(Json.quote(kind));
    json.append(",\"name\":").append(Json.quote(name));
    json.append(",\"uid\":").append(Json.quote(uid));
    if (controller != null) {
      json.append(",\"controller\":").append(controller);
    }
    if (blockOwnerDeletion != null) {
      json.append(",\"blockOwnerDeletion\":").append(blockOwnerDeletion);
    }
    return json.append('}').toString();
  }
}
