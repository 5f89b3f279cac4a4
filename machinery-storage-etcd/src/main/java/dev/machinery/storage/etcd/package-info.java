/**
 * The API server's storage on etcd v3: {@link dev.machinery.storage.etcd.EtcdStorage} keeps every
 * object under a key prefix in etcd, with etcd's revision as the objects' resourceVersion, guarded
 * writes as transactions, lists at a revision in pages, and etcd's watches, resumed when a member
 * restarts. Several servers on one etcd share their objects.
 */
package dev.machinery.storage.etcd;
