/**
 * Machinery REST mapping: the {@link dev.machinery.restmapper.RESTMapper} contract between kinds
 * and REST resources, its default, multi, priority and lazy implementations, mappers built from
 * discovery documents or a Scheme, and kubectl-style argument resolution.
 */
module dev.machinery.restmapper {
  requires transitive dev.machinery.unversioned;

  exports dev.machinery.restmapper;
}
