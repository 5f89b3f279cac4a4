/**
 * The CronJob controller (kube-controller-manager's {@code cronjob-controller}, Go's {@code
 * pkg/controller/cronjob}, its v2): standard cron schedules (the five fields, names, ranges, steps,
 * the {@code @} descriptors and {@code @every}), time zones, starting deadlines, concurrency
 * policies and history limits, on the cluster's clock. Not exported: it is set up through {@code
 * dev.machinery.cluster.ControllerManager}.
 */
package dev.machinery.cluster.controller.cronjob;
