/**
 * Conversion between classes, and deep copies. A {@link dev.machinery.conversion.Converter} holds
 * one {@link dev.machinery.conversion.ConversionFunction} per class pair and one {@link
 * dev.machinery.conversion.DeepCopyFunction} per class; each conversion receives a {@link
 * dev.machinery.conversion.ConversionScope} for nested conversions and flags, and errors carry the
 * field path ({@link dev.machinery.conversion.ConversionException}). The functions are usually
 * written at compile time: mark a versioned package with {@link
 * dev.machinery.conversion.GenerateConversions} and its internal package with {@link
 * dev.machinery.conversion.GenerateDeepCopy}. The same compile-time check reads the protobuf field
 * numbers a class declares with {@link dev.machinery.conversion.ProtoField} and {@link
 * dev.machinery.conversion.ProtoReserved}: they sit here, beside the other annotations the
 * processor reads, so that the types that declare them (the shared {@code meta.k8s.io/v1} types
 * among them) need not depend on the protobuf codec that uses them.
 */
package dev.machinery.conversion;
