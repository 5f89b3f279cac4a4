/**
 * Field selectors as Kubernetes parses and matches them ({@code k8s.io/apimachinery/pkg/fields}):
 * {@link dev.machinery.unversioned.fields.FieldSelector}, the {@code ?fieldSelector=} syntax
 * ({@code =}, {@code ==}, {@code !=}, values escaped with backslashes), its conversion into a
 * kind's internal field labels through the Scheme, and matching against an object's selectable
 * fields ({@link dev.machinery.unversioned.fields.FieldSets}).
 */
package dev.machinery.unversioned.fields;
