package dev.machinery.apiserver.authorization.v1;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;

/**
 * Asks whether a given user may make a request in one namespace ({@code authorization.k8s.io/v1
 * LocalSubjectAccessReview}): a SubjectAccessReview created in a namespace, so that who may ask is
 * granted per namespace. The spec's namespace must be the namespace it is created in. Created,
 * never stored: the server answers with the status filled in.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "spec", "status"})
public final class LocalSubjectAccessReview extends TypeMeta {
  private ObjectMeta metadata;
  private SubjectAccessReviewSpec spec;
  private SubjectAccessReviewStatus status;

  /** Creates an empty LocalSubjectAccessReview. */
  public LocalSubjectAccessReview() {}

  /**
   * Returns the metadata.
   *
   * @return the value
   */
  @ProtoField(1)
  public ObjectMeta getMetadata() {
    return metadata;
  }

  /**
   * Sets the metadata.
   *
   * @param metadata the value
   */
  public void setMetadata(ObjectMeta metadata) {
    this.metadata = metadata;
  }

  /**
   * Returns the question.
   *
   * @return the value
   */
  @ProtoField(2)
  public SubjectAccessReviewSpec getSpec() {
    return spec;
  }

  /**
   * Sets the question.
   *
   * @param spec the value
   */
  public void setSpec(SubjectAccessReviewSpec spec) {
    this.spec = spec;
  }

  /**
   * Returns the answer.
   *
   * @return the value
   */
  @ProtoField(3)
  public SubjectAccessReviewStatus getStatus() {
    return status;
  }

  /**
   * Sets the answer.
   *
   * @param status the value
   */
  public void setStatus(SubjectAccessReviewStatus status) {
    this.status = status;
  }
}
