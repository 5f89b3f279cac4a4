/**
 * How an {@code ApiServer} serves CustomResourceDefinitions (internal): {@link
 * dev.machinery.apiserver.apiextensions.CustomResourceDefinitions} watches them, accepts their
 * names and serves their kinds, each as a resource of {@code Unstructured} objects pruned,
 * defaulted and validated by its schema; printer columns, the scale subresource and selectable
 * fields read the objects by JSONPath.
 */
package dev.machinery.apiserver.apiextensions;
