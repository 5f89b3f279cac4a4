/**
 * Machinery's built-in kinds: Kubernetes 1.33's kinds served by an {@code ApiServer} from
 * Kubernetes' own OpenAPI description, with its pruning, validation, server-side apply, Tables and
 * defaults ({@link dev.machinery.builtins.BuiltinKinds}).
 */
module dev.machinery.builtins {
  requires transitive dev.machinery.apiserver;
  requires dev.machinery.quota;

  exports dev.machinery.builtins;
}
