/**
 * Implementation helpers shared by the packages of machinery-core; not exported, not API.
 *
 * <p>{@link dev.machinery.core.internal.Text} quotes user-supplied values for error messages,
 * {@link dev.machinery.core.internal.Messages} makes third-party messages safe to show, {@link
 * dev.machinery.core.internal.FieldPaths} renders field paths and {@link
 * dev.machinery.core.internal.Surrogates} repairs lone UTF-16 surrogates.
 */
package dev.machinery.core.internal;
