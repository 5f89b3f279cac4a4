/**
 * Conversion between classes, and deep copies. A {@link dev.machinery.conversion.Converter} holds
 * one {@link dev.machinery.conversion.ConversionFunction} per class pair and one {@link
 * dev.machinery.conversion.DeepCopyFunction} per class; each conversion receives a {@link
 * dev.machinery.conversion.ConversionScope} for nested conversions and flags, and errors carry the
 * field path ({@link dev.machinery.conversion.ConversionException}). The functions are usually
 * written at compile time: mark a versioned package with {@link
 * dev.machinery.conversion.GenerateConversions} and its internal package with {@link
 * dev.machinery.conversion.GenerateDeepCopy}.
 */
package dev.machinery.conversion;
