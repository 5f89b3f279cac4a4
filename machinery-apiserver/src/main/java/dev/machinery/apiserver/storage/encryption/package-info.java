/**
 * Encryption at rest, as kube-apiserver's {@code --encryption-provider-config}: an {@code
 * apiserver.config.k8s.io/v1} {@link
 * dev.machinery.apiserver.storage.encryption.EncryptionConfiguration} names, per resource, the
 * providers ({@code identity}, {@code aescbc}, {@code aesgcm}, {@code secretbox}) whose {@link
 * dev.machinery.apiserver.storage.encryption.ValueTransformer}s turn a stored value into what the
 * storage keeps ({@code k8s:enc:aescbc:v1:KEY:} and the ciphertext) and back, between a resource's
 * store and the {@link dev.machinery.apiserver.storage.Storage}, so memory and etcd storage get the
 * same bytes kube-apiserver writes.
 */
package dev.machinery.apiserver.storage.encryption;
