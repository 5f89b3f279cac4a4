/**
 * Role-based access control, as Kubernetes' {@code rbac.authorization.k8s.io/v1}: the types ({@link
 * dev.machinery.apiserver.rbac.Role}, {@link dev.machinery.apiserver.rbac.ClusterRole}, {@link
 * dev.machinery.apiserver.rbac.RoleBinding}, {@link
 * dev.machinery.apiserver.rbac.ClusterRoleBinding} and their parts, registered by {@link
 * dev.machinery.apiserver.rbac.RbacV1}), the {@link dev.machinery.apiserver.rbac.RbacAuthorizer}
 * with Kubernetes' rule matching ({@link dev.machinery.apiserver.rbac.PolicyRules}), escalation
 * prevention ({@link dev.machinery.apiserver.rbac.Escalation}), ClusterRole aggregation and the
 * default roles ({@link dev.machinery.apiserver.rbac.BootstrapPolicy}) and their reconciliation
 * ({@link dev.machinery.apiserver.rbac.Reconciliation}).
 */
package dev.machinery.apiserver.rbac;
