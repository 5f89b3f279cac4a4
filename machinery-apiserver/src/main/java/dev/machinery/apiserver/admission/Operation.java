package dev.machinery.apiserver.admission;

/** What a write does, as Kubernetes' {@code admission.Operation}. Immutable. */
public enum Operation {
  /** A create (and a patch or apply that creates). */
  CREATE,
  /** An update or a patch, of the resource or a subresource. */
  UPDATE,
  /** A delete, one object of a delete or of a deletecollection. */
  DELETE
}
