/**
 * Watches as Kubernetes streams them ({@code k8s.io/apimachinery/pkg/watch}): {@link
 * dev.machinery.unversioned.watch.Event}s ({@code ADDED}, {@code MODIFIED}, {@code DELETED}, {@code
 * BOOKMARK}, {@code ERROR}) and their framing, written by {@link
 * dev.machinery.unversioned.watch.WatchEncoder} (JSON lines, or length-prefixed protobuf {@code
 * WatchEvent}s; the server writes its watch responses with it) and read one event at a time by
 * {@link dev.machinery.unversioned.watch.WatchDecoder}.
 */
package dev.machinery.unversioned.watch;
