/**
 * Server-side apply's bookkeeping on Kubernetes objects, as k8s.io/apimachinery's {@code
 * util/managedfields}: the {@code metadata.managedFields} entries read into a {@link
 * dev.machinery.unversioned.managedfields.Managed} and written back in kube-apiserver's order; the
 * {@link dev.machinery.unversioned.managedfields.FieldManager} that records every write and merges
 * every apply with the fields the server owns left out, old update managers merged past a cap, and
 * kubectl's move from client-side to server-side apply; and the {@code 409} a conflicting apply
 * gets, worded as kube-apiserver words it.
 *
 * <p>Objects are JSON trees in the version the write was made in. The field ownership itself is
 * {@code dev.machinery.core.merge}.
 */
package dev.machinery.unversioned.managedfields;
