/**
 * The root CA publisher (kube-controller-manager's {@code
 * root-ca-certificate-publisher-controller}, Go's {@code
 * pkg/controller/certificates/rootcacertpublisher}): the {@code kube-root-ca.crt} ConfigMap in
 * every namespace.
 */
package dev.machinery.cluster.controller.rootcacertpublisher;
