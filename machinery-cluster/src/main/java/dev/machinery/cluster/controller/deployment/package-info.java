/**
 * The Deployment controller, as Kubernetes' {@code pkg/controller/deployment}: a Deployment's
 * ReplicaSets named {@code <deployment>-<pod-template-hash>}, rolling updates and recreates,
 * revisions and their history, pause and resume, proportional scaling and the Progressing and
 * Available conditions; {@link dev.machinery.cluster.controller.deployment.DeploymentUtil} holds
 * the arithmetic of kube's {@code deployment/util}.
 */
package dev.machinery.cluster.controller.deployment;
