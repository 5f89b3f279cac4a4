/**
 * API objects and the registry of their types.
 *
 * <p>{@link dev.machinery.core.runtime.ApiObject} is the contract every top-level kind fulfils: it
 * carries its {@code apiVersion} and {@code kind}. {@link dev.machinery.core.runtime.Scheme} maps
 * group/version/kind to Java types and back, and holds internal versions, unversioned types,
 * defaulting functions, version priorities and conversions: {@code convertToVersion} takes an
 * object through its group's internal form into the version a {@link
 * dev.machinery.core.runtime.GroupVersioner} chooses, and {@link
 * dev.machinery.core.runtime.FieldLabelConversion}s translate field selectors. Lookups that miss
 * raise {@link dev.machinery.core.runtime.NotRegisteredException}; an object whose kind cannot be
 * told raises {@link dev.machinery.core.runtime.AmbiguousKindException}.
 */
package dev.machinery.core.runtime;
