/** Typed models of Kubernetes' built-in kinds, one package a group version. */
module dev.machinery.api {
  requires transitive dev.machinery.unversioned;

}
