/**
 * The {@code authorization.k8s.io/v1} types, as k8s.io/api/authorization/v1 holds them: {@link
 * dev.machinery.apiserver.authorization.v1.SelfSubjectAccessReview}, {@link
 * dev.machinery.apiserver.authorization.v1.SelfSubjectRulesReview}, {@link
 * dev.machinery.apiserver.authorization.v1.SubjectAccessReview} and {@link
 * dev.machinery.apiserver.authorization.v1.LocalSubjectAccessReview} with their parts, registered
 * by {@link dev.machinery.apiserver.authorization.v1.AuthorizationV1}, with Kubernetes' JSON names
 * and protobuf field numbers.
 */
package dev.machinery.apiserver.authorization.v1;
