package dev.machinery.apiserver.authorization.v1;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import dev.machinery.unversioned.meta.v1.ObjectMeta;
import dev.machinery.unversioned.meta.v1.TypeMeta;

/**
 * Asks what the requesting user may do in a namespace ({@code authorization.k8s.io/v1
 * SelfSubjectRulesReview}, {@code kubectl auth can-i --list}). Created, never stored: the server
 * answers with the status filled in.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"metadata", "spec", "status"})
public final class SelfSubjectRulesReview extends TypeMeta {
  private ObjectMeta metadata;
  private SelfSubjectRulesReviewSpec spec;
  private SubjectRulesReviewStatus status;

  /** Creates an empty SelfSubjectRulesReview. */
  public SelfSubjectRulesReview() {}

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
  public SelfSubjectRulesReviewSpec getSpec() {
    return spec;
  }

  /**
   * Sets the question.
   *
   * @param spec the value
   */
  public void setSpec(SelfSubjectRulesReviewSpec spec) {
    this.spec = spec;
  }

  /**
   * Returns the answer.
   *
   * @return the value
   */
  @ProtoField(3)
  public SubjectRulesReviewStatus getStatus() {
    return status;
  }

  /**
   * Sets the answer.
   *
   * @param status the value
   */
  public void setStatus(SubjectRulesReviewStatus status) {
    this.status = status;
  }
}
