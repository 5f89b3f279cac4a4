package dev.machinery.unversioned.meta.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.machinery.core.runtime.ApiObject;

/**
 * The {@code apiVersion} and {@code kind} that every top-level object carries, Kubernetes' {@code
 * TypeMeta}: the base class of the kinds of this package. Both are omitted when empty, as
 * Kubernetes omits them; the codecs write them first.
 *
 * <p>Mutable; confine an instance to one thread or publish it safely after its last change.
 */
public abstract class TypeMeta implements ApiObject {
  private String apiVersion;
  private String kind;

  /** Creates an object with neither set. */
  protected TypeMeta() {}

  @Override
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getApiVersion() {
    return apiVersion;
  }

  @Override
  public void setApiVersion(String apiVersion) {
    this.apiVersion = apiVersion;
  }

  @Override
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public String getKind() {
    return kind;
  }

  @Override
  public void setKind(String kind) {
    this.kind = kind;
  }
}
