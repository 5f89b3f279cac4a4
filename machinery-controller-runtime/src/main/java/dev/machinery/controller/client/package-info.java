/**
 * The runtime's seams over {@code machinery-client}: a {@link
 * dev.machinery.controller.client.ClientListerWatcher} lists and watches through a {@link
 * dev.machinery.client.ResourceClient}, a {@link dev.machinery.controller.client.ClientLeaseLock}
 * holds leader election's record on a {@code coordination.k8s.io/v1} Lease, and a {@link
 * dev.machinery.controller.client.ClientEventSink} writes {@code events.k8s.io/v1} Events.
 */
package dev.machinery.controller.client;
