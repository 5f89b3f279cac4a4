/**
 * Unstructured objects: {@link dev.machinery.unversioned.unstructured.Unstructured} and {@link
 * dev.machinery.unversioned.unstructured.UnstructuredList} hold any kind as JSON values and keep
 * every field; {@link dev.machinery.unversioned.unstructured.UnstructuredConverter} converts them
 * to and from typed objects without loss.
 */
package dev.machinery.unversioned.unstructured;
