/**
 * Who may do what, as Kubernetes' {@code authorizer} package: an {@link
 * dev.machinery.apiserver.authorization.Authorizer} decides each request from its {@link
 * dev.machinery.apiserver.authorization.Attributes} (user, verb, API group, resource, subresource,
 * namespace, name, or a non-resource path). {@link
 * dev.machinery.apiserver.authorization.AuthorizationErrors} words a refusal as kube-apiserver
 * does, and a {@link dev.machinery.apiserver.authorization.RuleResolver} lists what a user may do,
 * for {@code SelfSubjectRulesReview}.
 */
package dev.machinery.apiserver.authorization;
