/**
 * The sample server's {@code sites.example.dev/v1} Site: a small custom kind with a spec and a
 * {@code status} subresource, the primary kind of the operator that the tests run against the
 * server (a Site asks for a Deployment serving its content and a ConfigMap holding it).
 */
package dev.machinery.examples.sites;
