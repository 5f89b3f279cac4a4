/**
 * Kubernetes 1.33's built-in kinds as typed Java models: {@link dev.machinery.api.KubernetesApi}
 * registers every kind of every group version with a {@link dev.machinery.core.runtime.Scheme}, and
 * {@link dev.machinery.api.KubernetesProtobuf} writes and reads them in Kubernetes' protobuf
 * encoding. The models themselves are in one package a group version, mirroring k8s.io/api ({@code
 * dev.machinery.api.apps.v1.Deployment}), generated from Kubernetes' OpenAPI document when this
 * module is built; see {@code docs/api-models.md}.
 */
package dev.machinery.api;
