/**
 * Custom resources' schemas at work: {@link
 * dev.machinery.apiserver.apiextensions.schema.StructuralSchema} prunes, defaults and validates an
 * object as kube-apiserver does, and {@link
 * dev.machinery.apiserver.apiextensions.schema.StructuralSchemas} checks that a
 * CustomResourceDefinition's schema is structural.
 */
package dev.machinery.apiserver.apiextensions.schema;
