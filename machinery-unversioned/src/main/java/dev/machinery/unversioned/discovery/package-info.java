/**
 * What a client needs to read a server's discovery: {@link
 * dev.machinery.unversioned.discovery.ResourceInfo} describes one served resource (its kind, scope,
 * verbs, short names and subresources), and {@link dev.machinery.unversioned.discovery.Enablement}
 * says which groups and versions are switched on, in kube-apiserver's {@code --runtime-config}
 * form. The documents themselves are the {@code meta.k8s.io/v1} types ({@code APIGroupList}, {@code
 * APIResourceList}) and the aggregated ones in {@code discovery.v2}; a server builds them with
 * {@code dev.machinery.apiserver.discovery}.
 */
package dev.machinery.unversioned.discovery;
