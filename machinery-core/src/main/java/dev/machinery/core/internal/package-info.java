/**
 * Implementation helpers shared by the packages of machinery-core; not exported, not API.
 *
 * <p>{@link dev.machinery.core.internal.Text} quotes user-supplied values for error messages.
 */
package dev.machinery.core.internal;
