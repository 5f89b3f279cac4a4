/**
 * ValidatingAdmissionPolicy ({@code admissionregistration.k8s.io/v1}), as kube-apiserver 1.33
 * enforces it: {@link dev.machinery.apiserver.admission.policy.ValidatingAdmissionPolicies}, a
 * validating admission plugin that reads the policies and bindings from the server's own storage on
 * every write, matches them, resolves their parameters and evaluates their expressions through a
 * {@link dev.machinery.apiserver.admission.policy.PolicyExpressions} (the server holds no CEL;
 * {@code machinery-cel} provides one).
 */
package dev.machinery.apiserver.admission.policy;
