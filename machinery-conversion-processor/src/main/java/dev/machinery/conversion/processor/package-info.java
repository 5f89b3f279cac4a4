/**
 * The annotation processor {@link dev.machinery.conversion.processor.ConversionProcessor}, which
 * writes conversion and deep-copy code for annotated packages and fails the build, naming the
 * property, where a value would be lost. Its model and writer classes are package-private.
 */
package dev.machinery.conversion.processor;
