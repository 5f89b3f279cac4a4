package dev.machinery.apiserver.negotiation;

import dev.machinery.core.schema.GroupVersionKind;
import java.util.Objects;

/**
 * What a request addresses, for negotiation: the kind the endpoint serves, whether it returns a
 * list, and whether it is a watch (whose frames a client may ask for as {@code stream=watch}).
 * Immutable.
 *
 * @param kind the endpoint's kind, such as {@code apps/v1, Kind=Deployment}
 * @param list whether the response is a list
 * @param watch whether the response is a watch stream
 */
public record Endpoint(GroupVersionKind kind, boolean list, boolean watch) {
  /**
   * Checks for null.
   *
   * @param kind see the record description
   * @param list see the record description
   * @param watch see the record description
   */
  public Endpoint {
    Objects.requireNonNull(kind, "kind");
  }

  /**
   * An endpoint that is not a watch.
   *
   * @param kind the endpoint's kind
   * @param list whether the response is a list
   */
  public Endpoint(GroupVersionKind kind, boolean list) {
    this(kind, list, false);
  }
}
