package dev.machinery.apiserver.negotiation;

import dev.machinery.core.schema.GroupVersionKind;
import java.util.Objects;

/**
 * What a request addresses, for negotiation: the kind the endpoint serves and whether it returns a
 * list. Immutable.
 *
 * @param kind the endpoint's kind, such as {@code apps/v1, Kind=Deployment}
 * @param list whether the response is a list
 */
public record Endpoint(GroupVersionKind kind, boolean list) {
  /**
   * Checks for null.
   *
   * @param kind see the record description
   * @param list see the record description
   */
  public Endpoint {
    Objects.requireNonNull(kind, "kind");
  }
}
