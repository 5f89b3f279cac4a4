/**
 * Quota evaluation, as Kubernetes' {@code pkg/quota/v1} and its evaluators ({@code
 * pkg/quota/v1/evaluator/core}, the generic object count): {@link
 * dev.machinery.quota.QuotaEvaluator} says which of a quota's resource names a kind of object
 * fills, whether a quota's scopes select an object, what one object charges and what a Pod must
 * state; {@link dev.machinery.quota.ResourceLists} reads and sums resource lists. The API server's
 * {@code ResourceQuota} admission plugin and the resource quota controller count with the same
 * rules, as kube-apiserver and kube-controller-manager share Kubernetes' evaluators.
 */
package dev.machinery.quota;
