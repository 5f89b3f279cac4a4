/**
 * The revision history of the controllers that keep one (Go's {@code pkg/controller/history}): the
 * DaemonSet and StatefulSet controllers record each pod template they roll out as a {@code
 * ControllerRevision} owned by the set, find the revision of the current template, and truncate the
 * history beyond the set's {@code revisionHistoryLimit}.
 */
package dev.machinery.cluster.controller.history;
