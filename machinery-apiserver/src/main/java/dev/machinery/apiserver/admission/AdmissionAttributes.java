package dev.machinery.apiserver.admission;

import dev.machinery.apiserver.authentication.UserInfo;
import dev.machinery.core.schema.GroupResource;
import dev.machinery.core.schema.GroupVersionKind;
import dev.machinery.core.schema.GroupVersionResource;
import java.util.Objects;

/**
 * One write as admission sees it, as Kubernetes' {@code admission.Attributes}. Objects are in the
 * resource's storage version; a plugin must not change {@code oldObject}. Immutable, apart from the
 * objects it refers to.
 *
 * <p>A subresource with a kind of its own is admitted as that kind, as kube-apiserver admits it: an
 * update of {@code deployments/scale} has the {@code autoscaling/v1 Scale} as its {@code kind},
 * {@code object} and {@code oldObject} ({@link dev.machinery.unversioned.meta.v1.Scale}), while
 * {@code resource} and {@code version} stay those of the Deployments ({@code apps}, {@code v1}).
 *
 * @param operation what the write does
 * @param kind the kind of the object: the resource's kind in the storage version, or the
 *     subresource's own kind (such as {@code autoscaling/v1 Scale})
 * @param resource the resource
 * @param version the version of the resource the objects are held in (its storage version); the
 *     same as {@code kind}'s version unless the subresource has a kind of its own. The version the
 *     request was made in is {@code versions().requested()}
 * @param subresource the subresource (such as {@code status} or {@code scale}), or {@code ""}
 * @param namespace the namespace, or {@code ""} for a cluster-scoped object
 * @param name the name, or {@code ""} when the object has none yet ({@code generateName})
 * @param object the object to store: the new object on create and update, {@code null} on delete
 * @param oldObject the stored object on update and delete, {@code null} on create
 * @param user who writes
 * @param dryRun whether the write stops before storing
 * @param recorder takes the warnings and audit annotations plugins add for the write ({@link
 *     #addWarning}, {@link #addAuditAnnotation})
 * @param versions the versions the resource is served in, the one the request was made in and the
 *     objects in each ({@code matchPolicy: Equivalent} of admission policies)
 */
public record AdmissionAttributes(
    Operation operation,
    GroupVersionKind kind,
    GroupResource resource,
    String version,
    String subresource,
    String namespace,
    String name,
    Object object,
    Object oldObject,
    UserInfo user,
    boolean dryRun,
    AdmissionRecorder recorder,
    ResourceVersions versions) {
  /**
   * Checks the parts; absent strings become {@code ""}.
   *
   * @param operation see the record description
   * @param kind see the record description
   * @param resource see the record description
   * @param version see the record description; {@code null} or {@code ""} is {@code kind}'s version
   * @param subresource see the record description
   * @param namespace see the record description
   * @param name see the record description
   * @param object see the record description
   * @param oldObject see the record description
   * @param user see the record description
   * @param dryRun see the record description
   * @param recorder see the record description; {@code null} is {@link AdmissionRecorder#NONE}
   * @param versions see the record description; {@code null} is the resource's one version ({@link
   *     ResourceVersions#only})
   */
  public AdmissionAttributes {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(user, "user");
    if (version == null || version.isEmpty()) {
      version = kind.version();
    }
    subresource = Objects.requireNonNullElse(subresource, "");
    namespace = Objects.requireNonNullElse(namespace, "");
    name = Objects.requireNonNullElse(name, "");
    recorder = Objects.requireNonNullElse(recorder, AdmissionRecorder.NONE);
    if (versions == null) {
      versions = ResourceVersions.only(kind, version);
    }
  }

  /**
   * Attributes of a write whose resource is held in one version ({@link ResourceVersions#only}).
   *
   * @param operation see the record description
   * @param kind see the record description
   * @param resource see the record description
   * @param version see the record description
   * @param subresource see the record description
   * @param namespace see the record description
   * @param name see the record description
   * @param object see the record description
   * @param oldObject see the record description
   * @param user see the record description
   * @param dryRun see the record description
   * @param recorder see the record description; {@code null} is {@link AdmissionRecorder#NONE}
   */
  public AdmissionAttributes(
      Operation operation,
      GroupVersionKind kind,
      GroupResource resource,
      String version,
      String subresource,
      String namespace,
      String name,
      Object object,
      Object oldObject,
      UserInfo user,
      boolean dryRun,
      AdmissionRecorder recorder) {
    this(
        operation,
        kind,
        resource,
        version,
        subresource,
        namespace,
        name,
        object,
        oldObject,
        user,
        dryRun,
        recorder,
        null);
  }

  /**
   * Attributes of a write whose object is of the resource's own kind: the resource's version is
   * {@code kind}'s.
   *
   * @param operation see the record description
   * @param kind see the record description
   * @param resource see the record description
   * @param subresource see the record description
   * @param namespace see the record description
   * @param name see the record description
   * @param object see the record description
   * @param oldObject see the record description
   * @param user see the record description
   * @param dryRun see the record description
   * @param recorder see the record description; {@code null} is {@link AdmissionRecorder#NONE}
   */
  public AdmissionAttributes(
      Operation operation,
      GroupVersionKind kind,
      GroupResource resource,
      String subresource,
      String namespace,
      String name,
      Object object,
      Object oldObject,
      UserInfo user,
      boolean dryRun,
      AdmissionRecorder recorder) {
    this(
        operation,
        kind,
        resource,
        kind.version(),
        subresource,
        namespace,
        name,
        object,
        oldObject,
        user,
        dryRun,
        recorder);
  }

  /**
   * Attributes of a write made outside a request, whose warnings and audit annotations are not kept
   * ({@link AdmissionRecorder#NONE}).
   *
   * @param operation see the record description
   * @param kind see the record description
   * @param resource see the record description
   * @param subresource see the record description
   * @param namespace see the record description
   * @param name see the record description
   * @param object see the record description
   * @param oldObject see the record description
   * @param user see the record description
   * @param dryRun see the record description
   */
  public AdmissionAttributes(
      Operation operation,
      GroupVersionKind kind,
      GroupResource resource,
      String subresource,
      String namespace,
      String name,
      Object object,
      Object oldObject,
      UserInfo user,
      boolean dryRun) {
    this(
        operation,
        kind,
        resource,
        subresource,
        namespace,
        name,
        object,
        oldObject,
        user,
        dryRun,
        AdmissionRecorder.NONE);
  }

  /**
   * Adds a warning to the write's response, sent as a {@code Warning} header ({@code 299 -
   * "text"}), as a plugin calls kube-apiserver's {@code warning.AddWarning}.
   *
   * @param warning the text, not blank
   * @throws IllegalArgumentException when the text is blank
   */
  public void addWarning(String warning) {
    if (warning == null || warning.isBlank()) {
      throw new IllegalArgumentException(
          "admission warning for " + resource + " \"" + name + "\" is blank");
    }
    recorder.warning(warning);
  }

  /**
   * Adds an annotation to the write's audit event, as kube-apiserver's {@code
   * Attributes.AddAnnotation}; the first value of a key stays.
   *
   * @param key the key, such as {@code pod-security.kubernetes.io/enforce-policy}; not blank
   * @param value the value, not null
   * @throws IllegalArgumentException when the key is blank or the value null
   */
  public void addAuditAnnotation(String key, String value) {
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("audit annotation key is blank (value \"" + value + "\")");
    }
    if (value == null) {
      throw new IllegalArgumentException("audit annotation \"" + key + "\" has no value");
    }
    recorder.annotate(key, value);
  }

  /**
   * The resource with its version, as kube-apiserver's {@code Attributes.GetResource}.
   *
   * @return the group, version and resource (without the subresource)
   */
  public GroupVersionResource groupVersionResource() {
    return new GroupVersionResource(resource.group(), version, resource.resource());
  }

  /**
   * Returns these attributes with another object, as a mutating plugin's change hands it on.
   *
   * @param other the object
   * @return the copy
   */
  public AdmissionAttributes withObject(Object other) {
    return new AdmissionAttributes(
        operation,
        kind,
        resource,
        version,
        subresource,
        namespace,
        name,
        other,
        oldObject,
        user,
        dryRun,
        recorder,
        versions);
  }
}
