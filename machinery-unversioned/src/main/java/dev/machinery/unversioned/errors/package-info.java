/**
 * API errors as Kubernetes reports them ({@code k8s.io/apimachinery/pkg/api/errors}): {@link
 * dev.machinery.unversioned.errors.StatusException}, an exception that carries a {@code Status};
 * {@link dev.machinery.unversioned.errors.ApiErrors}, one factory per reason with kube-apiserver's
 * wording and code, the checks ({@code isNotFound} and the rest) that recognise an exception or a
 * {@code Status} decoded from a response, and the one mapping from any exception the library throws
 * to the {@code Status} a server answers with.
 */
package dev.machinery.unversioned.errors;
