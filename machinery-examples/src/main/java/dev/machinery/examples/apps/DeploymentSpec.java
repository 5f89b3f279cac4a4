package dev.machinery.examples.apps;

import dev.machinery.core.patch.PatchStrategy;
import dev.machinery.unversioned.meta.v1.LabelSelector;

/**
 * The desired state of a Deployment ({@code apps/v1 DeploymentSpec}). Components are in Kubernetes'
 * field order, so that the JSON is written as kube-apiserver writes it.
 *
 * @param replicas the number of pods wanted
 * @param selector which pods the Deployment owns
 * @param template the pods it makes
 * @param strategy how pods are replaced; a strategic merge patch keeps only the fields its {@code
 *     $retainKeys} lists, as Kubernetes' {@code patchStrategy:"retainKeys"} says
 * @param minReadySeconds how long a pod must be ready to count as available
 * @param revisionHistoryLimit how many old ReplicaSets are kept
 * @param paused whether rollouts are paused
 * @param progressDeadlineSeconds how long a rollout may make no progress
 */
public record DeploymentSpec(
    Integer replicas,
    LabelSelector selector,
    PodTemplateSpec template,
    @PatchStrategy("retainKeys") DeploymentStrategy strategy,
    Integer minReadySeconds,
    Integer revisionHistoryLimit,
    Boolean paused,
    Integer progressDeadlineSeconds) {}
