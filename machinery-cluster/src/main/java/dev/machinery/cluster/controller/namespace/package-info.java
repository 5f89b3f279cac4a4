/**
 * The namespace controller, as kube-controller-manager's {@code namespace-controller} (Kubernetes'
 * {@code pkg/controller/namespace}): a namespace being deleted is marked {@code Terminating},
 * everything in it found through discovery is deleted, its status conditions say what remains and
 * why, and once nothing remains the {@code kubernetes} finalizer is removed through the {@code
 * finalize} subresource. Every read and write goes through the API as the {@code
 * namespace-controller} service account.
 */
package dev.machinery.cluster.controller.namespace;
