/**
 * The root of Machinery's exception hierarchy.
 *
 * <p>Every error that Machinery raises for bad input data extends {@link
 * dev.machinery.MachineryException}; programming mistakes by the caller raise the JDK's own {@code
 * IllegalArgumentException}, {@code NullPointerException} or {@code IllegalStateException}.
 */
package dev.machinery;
