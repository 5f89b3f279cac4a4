package dev.machinery.examples.apps;

import dev.machinery.unversioned.meta.v1.Time;

/**
 * One condition of a Deployment ({@code DeploymentCondition}); unlike {@code metav1.Condition} it
 * has an update time. Components are in Kubernetes' field order, so that the JSON is written as
 * kube-apiserver writes it.
 *
 * @param type {@code Available}, {@code Progressing} or {@code ReplicaFailure}
 * @param status {@code True}, {@code False} or {@code Unknown}
 * @param lastUpdateTime when the condition was last updated
 * @param lastTransitionTime when the status last changed
 * @param reason why, in CamelCase
 * @param message why, for people
 */
public record DeploymentCondition(
    String type,
    String status,
    Time lastUpdateTime,
    Time lastTransitionTime,
    String reason,
    String message) {}
