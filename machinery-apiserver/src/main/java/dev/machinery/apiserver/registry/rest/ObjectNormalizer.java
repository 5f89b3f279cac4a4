package dev.machinery.apiserver.registry.rest;

import dev.machinery.core.codec.FieldProblem;
import java.util.List;

/**
 * What a resource does to an object a client wrote, after it is decoded and defaulted by the Scheme
 * and before it is converted to the storage version: the pruning and defaulting of a custom
 * resource by its structural schema. The fields it drops are reported back, and the request's
 * {@code fieldValidation} decides what they become: an error under {@code Strict}, warnings under
 * {@code Warn}, nothing under {@code Ignore}. Implementations are safe to call from any thread.
 */
@FunctionalInterface
public interface ObjectNormalizer {
  /** Changes nothing and drops nothing. */
  ObjectNormalizer NONE = object -> List.of();

  /**
   * Normalizes an object in place.
   *
   * @param object the object, in the version the client wrote
   * @return the unknown fields dropped, by their paths from the object's root
   * @throws dev.machinery.unversioned.errors.StatusException to refuse an object it cannot read
   *     (the built-in kinds answer {@code 400 BadRequest} for a value Go's decoding refuses), which
   *     the request is answered with
   */
  List<FieldProblem> normalize(Object object);
}
