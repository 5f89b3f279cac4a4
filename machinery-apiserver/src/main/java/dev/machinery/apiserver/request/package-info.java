/**
 * What the server knows of one request as it is answered, as Go's {@code
 * k8s.io/apiserver/pkg/endpoints/request}: {@link dev.machinery.apiserver.request.RequestInfo}
 * (what a path names) and {@link dev.machinery.apiserver.request.RequestContext} (the request, its
 * user, its authorization attributes and its audit recorder), handed explicitly from each filter to
 * the next and on to the handlers, the registry and admission.
 */
package dev.machinery.apiserver.request;
