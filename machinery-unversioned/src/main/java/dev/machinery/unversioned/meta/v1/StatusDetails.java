package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.machinery.conversion.ProtoField;
import java.util.List;
import java.util.Objects;

/**
 * What a failure concerns: the object's name, group, kind and uid, the causes, and when to retry.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
@JsonPropertyOrder({"name", "group", "kind", "uid", "causes", "retryAfterSeconds"})
public final class StatusDetails {
  private String name;
  private String group;
  private String kind;
  private String uid;
  private List<StatusCause> causes;
  private int retryAfterSeconds;

  /** Creates an empty StatusDetails. */
  public StatusDetails() {}

  /**
   * Returns the object's name.
   *
   * @return the object's name
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(1)
  public String getName() {
    return name;
  }

  /**
   * Sets the object's name.
   *
   * @param name the object's name
   */
  public void setName(String name) {
    this.name = name;
  }

  /**
   * Returns the object's group.
   *
   * @return the object's group
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(2)
  public String getGroup() {
    return group;
  }

  /**
   * Sets the object's group.
   *
   * @param group the object's group
   */
  public void setGroup(String group) {
    this.group = group;
  }

  /**
   * Returns the object's kind.
   *
   * @return the object's kind
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(3)
  public String getKind() {
    return kind;
  }

  /**
   * Sets the object's kind.
   *
   * @param kind the object's kind
   */
  public void setKind(String kind) {
    this.kind = kind;
  }

  /**
   * Returns the object's uid.
   *
   * @return the object's uid
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(6)
  public String getUid() {
    return uid;
  }

  /**
   * Sets the object's uid.
   *
   * @param uid the object's uid
   */
  public void setUid(String uid) {
    this.uid = uid;
  }

  /**
   * Returns the causes.
   *
   * @return the causes
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @ProtoField(4)
  public List<StatusCause> getCauses() {
    return causes;
  }

  /**
   * Sets the causes.
   *
   * @param causes the causes
   */
  public void setCauses(List<StatusCause> causes) {
    this.causes = causes;
  }

  /**
   * Returns the seconds to wait before retrying.
   *
   * @return the seconds to wait before retrying
   */
  @JsonInclude(JsonInclude.Include.NON_DEFAULT)
  @ProtoField(5)
  public int getRetryAfterSeconds() {
    return retryAfterSeconds;
  }

  /**
   * Sets the seconds to wait before retrying.
   *
   * @param retryAfterSeconds the seconds to wait before retrying
   */
  public void setRetryAfterSeconds(int retryAfterSeconds) {
    this.retryAfterSeconds = retryAfterSeconds;
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof StatusDetails)) {
      return false;
    }
    StatusDetails that = (StatusDetails) other;
    return true
        && Objects.equals(name, that.name)
        && Objects.equals(group, that.group)
        && Objects.equals(kind, that.kind)
        && Objects.equals(uid, that.uid)
        && Objects.equals(causes, that.causes)
        && Objects.equals(retryAfterSeconds, that.retryAfterSeconds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, group, kind, uid, causes, retryAfterSeconds);
  }

  @Override
  public String toString() {
    return "StatusDetails{"
        + "name="
        + name
        + ", group="
        + group
        + ", kind="
        + kind
        + ", uid="
        + uid
        + ", causes="
        + causes
        + ", retryAfterSeconds="
        + retryAfterSeconds
        + "}";
  }
}
