/**
 * Storage for a Kubernetes-style server, shaped like etcd v3: {@link
 * dev.machinery.apiserver.storage.Storage} (revisions, compare-and-swap, paged range reads,
 * watches, compaction), the embedded multi-version {@link
 * dev.machinery.apiserver.storage.MemoryStorage}, and kube-apiserver's layout of the keys objects
 * are kept under ({@link dev.machinery.apiserver.storage.StorageKeys}).
 */
package dev.machinery.apiserver.storage;
