package dev.machinery.unversioned.validation;

import dev.machinery.core.schema.GroupVersion;
import dev.machinery.core.schema.MalformedIdentifierException;
import dev.machinery.unversioned.meta.v1.MetaObject;
import dev.machinery.unversioned.meta.v1.OwnerReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Validation of {@code ObjectMeta} as kube-apiserver applies it to every object ({@code
 * api/validation/objectmeta.go}): on create, the name (or generateName) by the kind's rule, the
 * namespace by scope, labels, annotations (keys, and 256 KiB in total), owner references (one
 * controller at most) and finalizers; on update, in addition, the fields that may not change
 * ({@code name}, {@code namespace}, {@code uid}, {@code creationTimestamp}, {@code
 * deletionTimestamp}, {@code deletionGracePeriodSeconds}), a resource version and a generation that
 * does not go down, and no new finalizers while the object is being deleted. Messages are
 * Kubernetes'.
 *
 * <p>Stateless and safe to use from any thread. Map entries are checked in key order, so the errors
 * come in a stable order.
 */
public final class ObjectMetaValidation {
  /** Kubernetes' message for a changed immutable field. */
  public static final String FIELD_IMMUTABLE = "field is immutable";

  /** Kubernetes' message for a negative count. */
  public static final String IS_NEGATIVE = "must be greater than or equal to 0";

  /** The most bytes all annotation keys and values together may take: 256 KiB. */
  public static final int TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

  private static final String ORPHAN = "orphan";
  private static final String FOREGROUND = "foregroundDeletion";

  private ObjectMetaValidation() {}

  /**
   * Validates the metadata of an object being created ({@code ValidateObjectMeta}).
   *
   * @param meta the metadata
   * @param namespaced whether the kind is namespaced (a namespace is then required, else forbidden)
   * @param names the kind's name rule
   * @param path the metadata's path, usually {@code metadata}
   * @return the errors; empty when valid
   */
  public static List<FieldError> validateCreate(
      MetaObject meta, boolean namespaced, NameValidator names, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    String generateName = text(meta.getGenerateName());
    String name = text(meta.getName());
    if (!generateName.isEmpty()) {
      for (String message : names.validate(generateName, true)) {
        errors.add(FieldError.invalid(path.child("generateName"), generateName, message));
      }
    }
    if (name.isEmpty()) {
      errors.add(FieldError.required(path.child("name"), "name or generateName is required"));
    } else {
      for (String message : names.validate(name, false)) {
        errors.add(FieldError.invalid(path.child("name"), name, message));
      }
    }
    String namespace = text(meta.getNamespace());
    if (namespaced) {
      if (namespace.isEmpty()) {
        errors.add(FieldError.required(path.child("namespace"), ""));
      } else {
        for (String message : Validation.nameIsDNSLabel(namespace, false)) {
          errors.add(FieldError.invalid(path.child("namespace"), namespace, message));
        }
      }
    } else if (!namespace.isEmpty()) {
      errors.add(FieldError.forbidden(path.child("namespace"), "not allowed on this type"));
    }
    nonNegative(meta.getGeneration(), path.child("generation"), errors);
    errors.addAll(validateLabels(meta.getLabels(), path.child("labels")));
    errors.addAll(validateAnnotations(meta.getAnnotations(), path.child("annotations")));
    errors.addAll(
        validateOwnerReferences(meta.getOwnerReferences(), path.child("ownerReferences")));
    errors.addAll(validateFinalizers(meta.getFinalizers(), path.child("finalizers")));
    return errors;
  }

  /**
   * Validates the metadata of an object being updated against the stored one ({@code
   * ValidateObjectMetaUpdate}).
   *
   * @param updated the new metadata
   * @param old the stored metadata
   * @param path the metadata's path, usually {@code metadata}
   * @return the errors; empty when valid
   */
  public static List<FieldError> validateUpdate(
      MetaObject updated, MetaObject old, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (old.getDeletionTimestamp() != null) {
      TreeSet<String> added = new TreeSet<>(list(updated.getFinalizers()));
      added.removeAll(list(old.getFinalizers()));
      if (!added.isEmpty()) {
        errors.add(
            FieldError.forbidden(
                path.child("finalizers"),
                "no new finalizers can be added if the object is being deleted, found new"
                    + " finalizers "
                    + goStrings(List.copyOf(added))));
      }
    }
    String resourceVersion = text(updated.getResourceVersion());
    if (resourceVersion.isEmpty()) {
      errors.add(
          FieldError.invalid(
              path.child("resourceVersion"), resourceVersion, "must be specified for an update"));
    }
    nonNegative(updated.getGeneration(), path.child("generation"), errors);
    if (updated.getGeneration() < old.getGeneration()) {
      errors.add(
          FieldError.invalid(
              path.child("generation"), updated.getGeneration(), "must not be decremented"));
    }
    immutable(text(updated.getName()), text(old.getName()), path.child("name"), errors);
    immutable(
        text(updated.getNamespace()), text(old.getNamespace()), path.child("namespace"), errors);
    immutable(text(updated.getUid()), text(old.getUid()), path.child("uid"), errors);
    immutable(
        updated.getCreationTimestamp(),
        old.getCreationTimestamp(),
        path.child("creationTimestamp"),
        errors);
    immutable(
        updated.getDeletionTimestamp(),
        old.getDeletionTimestamp(),
        path.child("deletionTimestamp"),
        errors);
    immutable(
        updated.getDeletionGracePeriodSeconds(),
        old.getDeletionGracePeriodSeconds(),
        path.child("deletionGracePeriodSeconds"),
        errors);
    errors.addAll(validateLabels(updated.getLabels(), path.child("labels")));
    errors.addAll(validateAnnotations(updated.getAnnotations(), path.child("annotations")));
    errors.addAll(
        validateOwnerReferences(updated.getOwnerReferences(), path.child("ownerReferences")));
    return errors;
  }

  /**
   * Validates label keys and values ({@code ValidateLabels}).
   *
   * @param labels the labels, or null
   * @param path the labels' path
   * @return the errors; empty when valid
   */
  public static List<FieldError> validateLabels(Map<String, String> labels, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (labels == null) {
      return errors;
    }
    for (Map.Entry<String, String> label : new TreeMap<>(labels).entrySet()) {
      for (String message : Validation.isQualifiedName(label.getKey())) {
        errors.add(FieldError.invalid(path, label.getKey(), message));
      }
      String value = text(label.getValue());
      for (String message : Validation.isValidLabelValue(value)) {
        errors.add(FieldError.invalid(path, value, message));
      }
    }
    return errors;
  }

  /**
   * Validates annotation keys (as qualified names, case aside) and their total size ({@code
   * ValidateAnnotations}).
   *
   * @param annotations the annotations, or null
   * @param path the annotations' path
   * @return the errors; empty when valid
   */
  public static List<FieldError> validateAnnotations(
      Map<String, String> annotations, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (annotations == null) {
      return errors;
    }
    long size = 0;
    for (Map.Entry<String, String> annotation : new TreeMap<>(annotations).entrySet()) {
      String key = annotation.getKey();
      for (String message : Validation.isQualifiedName(key.toLowerCase(java.util.Locale.ROOT))) {
        errors.add(FieldError.invalid(path, key, message));
      }
      size += key.getBytes(StandardCharsets.UTF_8).length;
      size += text(annotation.getValue()).getBytes(StandardCharsets.UTF_8).length;
    }
    if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
      errors.add(FieldError.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
    }
    return errors;
  }

  /**
   * Validates owner references: each complete, at most one controller ({@code
   * ValidateOwnerReferences}).
   *
   * @param references the references, or null
   * @param path the references' path
   * @return the errors; empty when valid
   */
  public static List<FieldError> validateOwnerReferences(
      List<OwnerReference> references, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (references == null) {
      return errors;
    }
    String firstController = null;
    for (int i = 0; i < references.size(); i++) {
      OwnerReference reference = references.get(i);
      FieldPath at = path.index(i);
      String apiVersion = text(reference.getApiVersion());
      GroupVersion version = null;
      if (apiVersion.isEmpty()) {
        errors.add(FieldError.required(at.child("apiVersion"), "must not be empty"));
      } else {
        try {
          version = GroupVersion.parse(apiVersion);
        } catch (MalformedIdentifierException e) {
          version = null;
        }
        if (version == null || version.version().isEmpty()) {
          errors.add(
              FieldError.invalid(
                  at.child("apiVersion"), apiVersion, "must be <group>/<version> or <version>"));
        }
      }
      if (text(reference.getKind()).isEmpty()) {
        errors.add(FieldError.required(at.child("kind"), "must not be empty"));
      }
      if (text(reference.getName()).isEmpty()) {
        errors.add(FieldError.required(at.child("name"), "must not be empty"));
      }
      if (text(reference.getUid()).isEmpty()) {
        errors.add(FieldError.required(at.child("uid"), "must not be empty"));
      }
      if (version != null
          && version.group().isEmpty()
          && version.version().equals("v1")
          && "Event".equals(reference.getKind())) {
        errors.add(
            FieldError.invalid(at, reference, "/v1, Kind=Event is disallowed from being an owner"));
      }
      if (Boolean.TRUE.equals(reference.getController())) {
        String controller = reference.getKind() + "/" + reference.getName();
        if (firstController == null) {
          firstController = controller;
        } else {
          errors.add(
              FieldError.invalid(
                  path,
                  references,
                  "Only one reference can have Controller set to true. Found \"true\" in"
                      + " references for "
                      + firstController
                      + " and "
                      + controller));
        }
      }
    }
    return errors;
  }

  /**
   * Validates finalizer names (qualified names), and that {@code orphan} and {@code
   * foregroundDeletion} are not both set ({@code ValidateFinalizers}).
   *
   * @param finalizers the finalizers, or null
   * @param path the finalizers' path
   * @return the errors; empty when valid
   */
  public static List<FieldError> validateFinalizers(List<String> finalizers, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (finalizers == null) {
      return errors;
    }
    for (String finalizer : finalizers) {
      for (String message : Validation.isQualifiedName(text(finalizer))) {
        errors.add(FieldError.invalid(path, finalizer, message));
      }
    }
    if (finalizers.contains(ORPHAN) && finalizers.contains(FOREGROUND)) {
      errors.add(
          FieldError.invalid(
              path,
              finalizers,
              "finalizer " + ORPHAN + " and " + FOREGROUND + " cannot be both set"));
    }
    return errors;
  }

  private static void nonNegative(long value, FieldPath path, List<FieldError> errors) {
    if (value < 0) {
      errors.add(FieldError.invalid(path, value, IS_NEGATIVE));
    }
  }

  private static void immutable(
      Object updated, Object old, FieldPath path, List<FieldError> errors) {
    if (!Objects.equals(updated, old)) {
      errors.add(FieldError.invalid(path, updated, FIELD_IMMUTABLE));
    }
  }

  private static String text(String value) {
    return value == null ? "" : value;
  }

  private static List<String> list(List<String> values) {
    return values == null ? List.of() : values;
  }

  /** A list of strings as Go's {@code %#v} prints a {@code []string}. */
  private static String goStrings(List<String> values) {
    StringBuilder text = new StringBuilder("[]string{");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        text.append(", ");
      }
      text.append(FieldError.quote(values.get(i)));
    }
    return text.append('}').toString();
  }
}
