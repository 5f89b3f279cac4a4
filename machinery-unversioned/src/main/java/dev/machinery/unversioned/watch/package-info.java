/**
 * Watches as Kubernetes streams them ({@code k8s.io/apimachinery/pkg/watch}): {@link
 * dev.machinery.unversioned.watch.Event}s ({@code ADDED}, {@code MODIFIED}, {@code DELETED}, {@code
 * BOOKMARK}, {@code ERROR}) delivered through a {@link dev.machinery.unversioned.watch.Watch};
 * {@link dev.machinery.unversioned.watch.WatchQueue}, a bounded queue a server fills and a watcher
 * drains; and the {@code application/json;stream=watch} framing, written by {@link
 * dev.machinery.unversioned.watch.WatchEncoder} with each object in the watcher's version and read
 * one event at a time by {@link dev.machinery.unversioned.watch.WatchDecoder}.
 */
package dev.machinery.unversioned.watch;
