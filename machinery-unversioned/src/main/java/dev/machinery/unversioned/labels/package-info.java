/**
 * Label selectors as Kubernetes parses and matches them ({@code k8s.io/apimachinery/pkg/labels}):
 * {@link dev.machinery.unversioned.labels.Selector} and its {@link
 * dev.machinery.unversioned.labels.Requirement}s, parsed from the whole {@code ?labelSelector=}
 * syntax ({@code =}, {@code ==}, {@code !=}, {@code in}, {@code notin}, {@code key}, {@code !key},
 * {@code >}, {@code <}) with keys and values validated as Kubernetes validates them, matched
 * against a label map, written back in a canonical form, and converted to and from the {@code
 * meta.k8s.io/v1} {@code LabelSelector} objects hold ({@link
 * dev.machinery.unversioned.labels.LabelSelectors}).
 */
package dev.machinery.unversioned.labels;
