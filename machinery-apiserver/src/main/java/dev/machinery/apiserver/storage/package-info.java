/**
 * Storage for a Kubernetes-style server, shaped like etcd v3: {@link
 * dev.machinery.apiserver.storage.Storage} (revisions, compare-and-swap, paged range reads,
 * watches, compaction) and the embedded multi-version {@link
 * dev.machinery.apiserver.storage.MemoryStorage}.
 */
package dev.machinery.apiserver.storage;
